/**
 * The session cookie's name. Behind an https NEXTAUTH_URL it carries the `__Host-` prefix (ASVS 4.0
 * V3.4.4): browsers then accept it only when it is Secure, for this host alone (no Domain) and for
 * the whole site (Path=/), so no other host under the registry's domain can set or shadow it. Over
 * plain http (development, the tests' consoles on localhost) it is next-auth's own name. next-auth,
 * the proxy and the request context all read it from here.
 */
export function sessionCookie(env: NodeJS.ProcessEnv = process.env): { name: string; secure: boolean } {
  const secure = env.NEXTAUTH_URL?.startsWith("https://") ?? false;
  return { name: secure ? "__Host-next-auth.session-token" : "next-auth.session-token", secure };
}
