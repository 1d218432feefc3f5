import NextAuth from "next-auth";
import { callbackUrlRefusal } from "@/lib/auth/callback-url";
import { authOptions } from "@/lib/auth/options";
import { readConfig } from "@/lib/config";
import { clientAddressOf } from "@/lib/http/client-address";
import { logAnonymousRefusal } from "@/lib/log";

const AUTH_REQUEST_REFUSED = "This is not a sign-in request the console makes; nothing was done.";
const UNREDIRECTABLE = "an address next-auth cannot put into a redirect";

/** A 400 with `message` for a request next-auth would have answered with a 500 or its own text, logged like other anonymous refusals. */
function refused(request: Request, error: string, message = AUTH_REQUEST_REFUSED): Response {
  const client = clientAddressOf(request.headers, readConfig().trustedProxyHops);
  logAnonymousRefusal("request.malformed", { method: request.method, path: new URL(request.url).pathname, error, client });
  return Response.json({ error: message }, { status: 400 });
}

// next-auth's own endpoints: sign-in (CSRF-protected), sign-out, session and provider callbacks.
async function handler(request: Request, context: { params: Promise<{ nextauth: string[] }> }): Promise<Response> {
  // A callbackUrl next-auth cannot read would be its 500: a 400 here, and a bad cookie removed.
  const refusal = callbackUrlRefusal(request);
  if (refusal) {
    const response = refused(request, refusal.error, refusal.error);
    for (const name of refusal.cookies) {
      response.headers.append(
        "Set-Cookie",
        `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${name.startsWith("__Secure-") ? "; Secure" : ""}`,
      );
    }
    return response;
  }
  let response: Response;
  try {
    response = await NextAuth(request as never, context as never, authOptions());
  } catch (error) {
    // next-auth puts parts of the address into its redirect's Location header unencoded (the error
    // page's `error`, say): text outside Latin-1 cannot be a header, and the Response throws. That is
    // the request's doing. Anything else goes on.
    if (!(error instanceof TypeError && /ByteString/.test(error.message))) throw error;
    return refused(request, UNREDIRECTABLE);
  }
  // The same with control characters, which the Response takes and Node refuses only when it writes
  // the header (another 500).
  const location = response.headers.get("location") ?? "";
  if ([...location].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return refused(request, UNREDIRECTABLE);
  // next-auth answers some requests it does not handle with its own text ("Error: Callback for provider
  // type credentials not supported", a 500; "Error: This action with HTTP GET is not supported", a
  // 400): a 400 with the console's short message instead. Its JSON answers, pages and redirects go on.
  const type = response.headers.get("content-type") ?? "";
  if (response.status >= 400 && !response.headers.has("location") && !/json|html/.test(type)) {
    return refused(request, (await response.text()).slice(0, 200));
  }
  return response;
}

export { handler as GET, handler as POST };
