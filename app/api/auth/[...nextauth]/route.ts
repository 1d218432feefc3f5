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
  const response: Response = await NextAuth(request as never, context as never, authOptions());
  // next-auth answers some requests it does not handle with its own text ("Error: Callback for provider
  // type credentials not supported", a 500; "Error: This action with HTTP GET is not supported", a
  // 400): a 400 with the console's short message instead. Its JSON answers, pages and redirects go on.
  const type = response.headers.get("content-type") ?? "";
  if (response.status >= 400 && !response.headers.has("location") && !/json|html/.test(type)) {
    logAnonymousRefusal("request.malformed", {
      method: request.method,
      path: new URL(request.url).pathname,
      error: (await response.text()).slice(0, 200),
      client: clientAddressOf(request.headers, readConfig().trustedProxyHops),
    });
    return Response.json({ error: AUTH_REQUEST_REFUSED }, { status: 400 });
  }
  return response;
}

const AUTH_REQUEST_REFUSED = "This is not a sign-in request the console makes; nothing was done.";

export { handler as GET, handler as POST };
