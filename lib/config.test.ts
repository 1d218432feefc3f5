import { describe, expect, it } from "vitest";
import { ConfigError, readConfig as read } from "./config";

/** The configuration of an environment with only `env` set. */
const readConfig = (env: Record<string, string>) => read({ NODE_ENV: "test", ...env });

describe("configuration", () => {
  it("trusts no proxy by default, and as many hops as TRUSTED_PROXY_HOPS says (0–10)", () => {
    expect(readConfig({}).trustedProxyHops).toBe(0);
    expect(readConfig({ TRUSTED_PROXY_HOPS: "2" }).trustedProxyHops).toBe(2);
    for (const [value, message] of [
      [
        "-1",
        "configuration: TRUSTED_PROXY_HOPS: TRUSTED_PROXY_HOPS must be 0 (no proxy: the connection's address is the client's) or more",
      ],
      ["1.5", "configuration: TRUSTED_PROXY_HOPS: TRUSTED_PROXY_HOPS must be a whole number of reverse proxies"],
      ["many", "configuration: TRUSTED_PROXY_HOPS: TRUSTED_PROXY_HOPS must be a number of reverse proxies"],
      ["11", "configuration: TRUSTED_PROXY_HOPS: TRUSTED_PROXY_HOPS must be at most 10"],
    ]) {
      expect(() => readConfig({ TRUSTED_PROXY_HOPS: value }), value).toThrow(ConfigError);
      expect(() => readConfig({ TRUSTED_PROXY_HOPS: value }), value).toThrow(message);
    }
  });

  it("asks for HTTPS only (HSTS) when NEXTAUTH_URL is https", () => {
    expect(readConfig({}).httpsOnly).toBe(false);
    expect(readConfig({ NEXTAUTH_URL: "http://127.0.0.1:3000" }).httpsOnly).toBe(false);
    expect(readConfig({ NEXTAUTH_URL: "https://console.registry.example" }).httpsOnly).toBe(true);
    expect(() => readConfig({ NEXTAUTH_URL: "console.registry.example" })).toThrow(
      "configuration: NEXTAUTH_URL: NEXTAUTH_URL must be the console's public http:// or https:// URL",
    );
  });
});
