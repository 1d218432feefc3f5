import { encode, getToken } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { authOptions } from "./options";
import { sessionCookie } from "./session-cookie";

const SECRET = "session-cookie-test-secret-0123456789abcdef";
const HTTPS = { NEXTAUTH_URL: "https://console.registry.example", NEXTAUTH_SECRET: SECRET } as NodeJS.ProcessEnv;
const HTTP = { NEXTAUTH_URL: "http://localhost:3000", NEXTAUTH_SECRET: SECRET } as NodeJS.ProcessEnv;

/** What getToken reads from a request that carries `cookies`, with the console's cookie name for `env`. */
const read = (env: NodeJS.ProcessEnv, cookies: Record<string, string>) =>
  getToken({
    req: { headers: {}, cookies } as unknown as Parameters<typeof getToken>[0]["req"],
    secret: SECRET,
    cookieName: sessionCookie(env).name,
  });

describe("the session cookie (ASVS 4.0 V3.4.4)", () => {
  it("is a __Host- cookie behind https: Secure, Path=/, no Domain, HttpOnly, SameSite=Lax", () => {
    expect(sessionCookie(HTTPS)).toEqual({ name: "__Host-next-auth.session-token", secure: true });
    expect(authOptions(HTTPS).cookies?.sessionToken).toEqual({
      name: "__Host-next-auth.session-token",
      options: { httpOnly: true, sameSite: "lax", path: "/", secure: true },
    });
  });

  it("keeps next-auth's plain name over http, where a __Host- cookie would be refused by the browser", () => {
    expect(sessionCookie(HTTP)).toEqual({ name: "next-auth.session-token", secure: false });
    expect(sessionCookie({} as NodeJS.ProcessEnv).name).toBe("next-auth.session-token");
    expect(authOptions(HTTP).cookies?.sessionToken?.options).toMatchObject({ secure: false, path: "/" });
  });

  it("is the one the proxy and the pages read: a session under another name (next-auth's __Secure- default) opens nothing", async () => {
    const jwt = await encode({ token: { sid: "s-1", uid: 7 }, secret: SECRET });
    expect(await read(HTTPS, { "__Host-next-auth.session-token": jwt })).toMatchObject({ sid: "s-1", uid: 7 });
    expect(await read(HTTPS, { "__Secure-next-auth.session-token": jwt })).toBeNull();
    expect(await read(HTTP, { "next-auth.session-token": jwt })).toMatchObject({ sid: "s-1" });
  });
});
