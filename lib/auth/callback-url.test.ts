import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CALLBACK_URL_REFUSED, callbackUrlRefusal } from "./callback-url";

// next-auth's own check (not among its package's exports).
const { assertConfig } = createRequire(import.meta.url)("../../node_modules/next-auth/core/lib/assert.js") as {
  assertConfig: (params: unknown) => unknown;
};

/** Whether next-auth itself refuses this callbackUrl (its 500). */
const nextAuthRefuses = (callbackUrl: string): boolean => {
  const result = assertConfig({
    options: { secret: "x".repeat(32), providers: [], callbacks: {}, cookies: {} },
    req: { query: { callbackUrl }, cookies: {}, origin: "http://console.test", action: "signin", method: "GET" },
  });
  return result instanceof Error && (result as { code?: string }).code === "INVALID_CALLBACK_URL_ERROR";
};

// next-auth answers 500 to a callbackUrl (address or cookie) that is not an http(s) address: the
// route refuses those first with a 400 (issue 39: "not a url", "\/evil.example", "%2F%2Fevil.example").
const at = (query: string, cookie?: string) =>
  new Request(`http://console.test/api/auth/signin/credentials${query}`, { headers: cookie ? { Cookie: cookie } : {} });

describe("callbackUrl before next-auth sees it", () => {
  it.each(["not a url", "\\/evil.example", "%2F%2Fevil.example", "javascript:alert(1)", "ftp://x"])(
    "refuses callbackUrl=%j in the address with a 400's message",
    (value) => {
      expect(nextAuthRefuses(value)).toBe(true);
      expect(callbackUrlRefusal(at(`?callbackUrl=${encodeURIComponent(value)}`))).toEqual({ error: CALLBACK_URL_REFUSED, cookies: [] });
    },
  );

  it("refuses such a callbackUrl in next-auth's cookie, naming the cookie to remove", () => {
    expect(callbackUrlRefusal(at("", "a=b; next-auth.callback-url=not%20a%20url"))).toEqual({
      error: CALLBACK_URL_REFUSED,
      cookies: ["next-auth.callback-url"],
    });
    expect(callbackUrlRefusal(at("", "__Secure-next-auth.callback-url=%E0%A4%A"))).toMatchObject({
      cookies: ["__Secure-next-auth.callback-url"],
    });
  });

  it("lets paths and http(s) addresses through (where they lead is the redirect callback's to decide)", () => {
    expect(callbackUrlRefusal(at(""))).toBeNull();
    expect(callbackUrlRefusal(at("?callbackUrl=%2Fobjects%3Ftype%3Ddomain"))).toBeNull();
    expect(callbackUrlRefusal(at(`?callbackUrl=${encodeURIComponent("https://evil.example/")}`))).toBeNull();
    expect(callbackUrlRefusal(at("", "next-auth.callback-url=http%3A%2F%2Fconsole.test%2Fobjects"))).toBeNull();
  });

  it("agrees with next-auth's own test on any text: refused exactly when next-auth would answer 500", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.webUrl(),
          fc.string().map((s) => `/${s}`),
        ),
        (value) => {
          const refused = callbackUrlRefusal(at(`?callbackUrl=${encodeURIComponent(value)}`)) !== null;
          expect(refused).toBe(nextAuthRefuses(value));
        },
      ),
      { numRuns: 500 },
    );
  });
});
