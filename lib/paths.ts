/**
 * A path of this console to send a person back to (after sign-in, after an outage), or `fallback`:
 * one leading slash, never a second slash or backslash after it, and no whitespace or control
 * characters anywhere (browsers drop tabs and newlines from URLs, so "/\t/evil.example" would
 * become "//evil.example", another site).
 */
export function safeLocalPath(value: string | string[] | undefined, fallback: string): string {
  const path = Array.isArray(value) ? value[0] : value;
  if (!path || path.length > 2000) return fallback;
  return /^\/(?![/\\])[^\s\p{Cc}\\]*$/u.test(path) ? path : fallback;
}

/**
 * Where next-auth sends a person after signing in or out (its `redirect` callback, fed the
 * callbackUrl parameter or cookie, any text anyone sends): a safe path of this console or an
 * address on its own origin, otherwise the console's start page. Never throws, so a callbackUrl
 * such as "not a url" or "\/evil.example" is not a 500 (next-auth's own callback parses it as a URL).
 */
export function signInRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  if (typeof url !== "string") return baseUrl;
  if (url.startsWith("/")) {
    const path = safeLocalPath(url, "");
    return path ? `${baseUrl}${path}` : baseUrl;
  }
  try {
    const target = new URL(url);
    const local = safeLocalPath(`${target.pathname}${target.search}${target.hash}`, "");
    return target.origin === new URL(baseUrl).origin && local ? `${baseUrl}${local}` : baseUrl;
  } catch {
    return baseUrl;
  }
}
