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
