import NextAuth from "next-auth";
import { callbackUrlRefusal } from "@/lib/auth/callback-url";
import { authOptions } from "@/lib/auth/options";
import { readConfig } from "@/lib/config";
import { clientAddressOf } from "@/lib/http/client-address";
import { logAnonymousRefusal } from "@/lib/log";

// next-auth's own endpoints: sign-in (CSRF-protected), sign-out, session and provider callbacks.
async function handler(request: Request, context: { params: Promise<{ nextauth: string[] }> }): Promise<Response> {
  // A callbackUrl next-auth cannot read would be its 500: a 400 here, and a bad cookie removed.
  const refusal = callbackUrlRefusal(request);
  if (refusal) {
    const client = clientAddressOf(request.headers, readConfig().trustedProxyHops);
    logAnonymousRefusal("request.malformed", { method: request.method, path: new URL(request.url).pathname, error: refusal.error, client });
    const response = Response.json({ error: refusal.error }, { status: 400 });
    for (const name of refusal.cookies) {
      response.headers.append(
        "Set-Cookie",
        `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${name.startsWith("__Secure-") ? "; Secure" : ""}`,
      );
    }
    return response;
  }
  return NextAuth(request as never, context as never, authOptions());
}

export { handler as GET, handler as POST };
