import { describe, expect, it } from "vitest";
import { LOCALE_COOKIE_MAX_AGE, localeCookieOptions, localeCookieText } from "./config";

describe("the language cookie", () => {
  it("is Secure when the console is served over HTTPS, in the server's attributes and in the text the browser writes", () => {
    expect(localeCookieOptions(true)).toMatchObject({ path: "/", sameSite: "lax", maxAge: LOCALE_COOKIE_MAX_AGE, secure: true });
    expect(localeCookieOptions(false)).toMatchObject({ secure: false });
    expect(localeCookieText("cs", true)).toBe(`console-locale=cs; path=/; max-age=${LOCALE_COOKIE_MAX_AGE}; samesite=lax; secure`);
    expect(localeCookieText("en", false)).not.toMatch(/secure/);
  });
});
