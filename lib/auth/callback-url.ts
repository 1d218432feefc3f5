// next-auth checks the callbackUrl of its address and of its cookie before anything else, and
// answers 500 ("a problem with the server configuration", logged as an error) when either is not an
// http(s) address. The route (app/api/auth/[...nextauth]/route.ts) asks here first: such a request
// is a 400 with a short message, and a cookie holding one is removed so the browser recovers.

/** The cookies next-auth keeps the callbackUrl in (over http and over https). */
const CALLBACK_URL_COOKIES = ["next-auth.callback-url", "__Secure-next-auth.callback-url"] as const;

/** next-auth's own test of a callbackUrl (core/lib/assert.js isValidHttpUrl). */
function isHttpUrl(url: string, base: string): boolean {
  try {
    return /^https?:/.test(new URL(url, url.startsWith("/") ? base : undefined).protocol);
  } catch {
    return false;
  }
}

/** The value of cookie `name` in a Cookie header, decoded as the `cookie` package next-auth uses does. */
function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    let value = part.slice(at + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length > 1) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

export const CALLBACK_URL_REFUSED = "callbackUrl is not an address (http or https, or a path of the console); nothing was done.";

/** Why next-auth would refuse `request`'s callbackUrl with a 500, and which cookies to remove; null when it would not. */
export function callbackUrlRefusal(request: Request): { error: string; cookies: string[] } | null {
  const url = new URL(request.url);
  const param = url.searchParams.get("callbackUrl");
  const header = request.headers.get("cookie") ?? "";
  const cookies = CALLBACK_URL_COOKIES.filter((name) => {
    const value = cookieValue(header, name);
    return value !== undefined && value !== "" && !isHttpUrl(value, url.origin);
  });
  if ((param === null || param === "" || isHttpUrl(param, url.origin)) && cookies.length === 0) return null;
  return { error: CALLBACK_URL_REFUSED, cookies };
}
