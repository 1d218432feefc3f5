import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeLocalPath, signInRedirect } from "./paths";

describe("where a person may be sent back to", () => {
  it("keeps the console's own paths and refuses every way to another site", () => {
    for (const path of ["/", "/objects?type=domain&states=outzone", "/objects/12#requests"]) expect(safeLocalPath(path, "/x")).toBe(path);
    for (const path of [
      "//evil.example/",
      "/\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r/evil.example",
      "/ /evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "objects",
      "",
      "/a\\b",
      `/${"a".repeat(2001)}`,
    ])
      expect(safeLocalPath(path, "/fallback"), JSON.stringify(path)).toBe("/fallback");
    expect(safeLocalPath(["/objects", "//evil"], "/x")).toBe("/objects");
    expect(safeLocalPath(undefined, "/x")).toBe("/x");
  });

  // next-auth's own redirect callback parses callbackUrl as a URL and threw on these: a 500.
  it.each(["not a url", "\\/evil.example", "%2F%2Fevil.example", "", "http://", "javascript:alert(1)", "https://evil.example/objects"])(
    "sends callbackUrl %j after sign-in to the console's start page, without an error",
    (url) => {
      expect(signInRedirect({ url, baseUrl: "http://console.test:3000" })).toBe("http://console.test:3000");
    },
  );

  it("follows a callbackUrl on the console itself, and nothing else, whatever the text", () => {
    const baseUrl = "https://console.registry.example";
    expect(signInRedirect({ url: "/objects?type=domain", baseUrl })).toBe(`${baseUrl}/objects?type=domain`);
    expect(signInRedirect({ url: `${baseUrl}/requests#x`, baseUrl })).toBe(`${baseUrl}/requests#x`);
    expect(signInRedirect({ url: "//evil.example/", baseUrl })).toBe(baseUrl);
    expect(signInRedirect({ url: "/\\evil.example", baseUrl })).toBe(baseUrl);
    expect(signInRedirect({ url: "https://console.registry.example.evil.example/", baseUrl })).toBe(baseUrl);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.webUrl(),
          fc.string().map((s) => `/${s}`),
        ),
        (url) => {
          const target = new URL(signInRedirect({ url, baseUrl }));
          expect(target.origin).toBe(baseUrl);
        },
      ),
      { numRuns: 500 },
    );
  });
});
