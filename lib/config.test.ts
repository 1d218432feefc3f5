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

  it("takes FRED's procedure's schedule in minutes from FRED_PROCEDURE_EVERY_MINUTES (unset or empty: not known) and refuses a bad one", () => {
    expect(readConfig({}).fredProcedureEveryMinutes).toBeNull();
    expect(readConfig({ FRED_PROCEDURE_EVERY_MINUTES: "" }).fredProcedureEveryMinutes).toBeNull();
    expect(readConfig({ FRED_PROCEDURE_EVERY_MINUTES: "60" }).fredProcedureEveryMinutes).toBe(60);
    for (const [value, message] of [
      ["0", "FRED_PROCEDURE_EVERY_MINUTES must be at least 1 (leave it unset when FRED's schedule is not known)"],
      ["7.5", "FRED_PROCEDURE_EVERY_MINUTES must be a whole number of minutes"],
      ["hourly", "FRED_PROCEDURE_EVERY_MINUTES must be a number of minutes"],
      ["10081", "FRED_PROCEDURE_EVERY_MINUTES must be at most 10080 (a week)"],
    ]) {
      expect(() => readConfig({ FRED_PROCEDURE_EVERY_MINUTES: value }), value).toThrow(ConfigError);
      expect(() => readConfig({ FRED_PROCEDURE_EVERY_MINUTES: value }), value).toThrow(
        `configuration: FRED_PROCEDURE_EVERY_MINUTES: ${message}`,
      );
    }
  });

  it("takes the overview's least time between countings from OVERVIEW_COUNTS_SECONDS (5-3600, default 60) and refuses a bad one", () => {
    expect(readConfig({}).overviewCountsMs).toBe(60_000);
    expect(readConfig({ OVERVIEW_COUNTS_SECONDS: "300" }).overviewCountsMs).toBe(300_000);
    for (const [value, message] of [
      ["4", "OVERVIEW_COUNTS_SECONDS must be at least 5"],
      ["7.5", "OVERVIEW_COUNTS_SECONDS must be a whole number of seconds"],
      ["often", "OVERVIEW_COUNTS_SECONDS must be a number of seconds"],
      ["3601", "OVERVIEW_COUNTS_SECONDS must be at most 3600 (an hour)"],
    ])
      expect(() => readConfig({ OVERVIEW_COUNTS_SECONDS: value }), value).toThrow(`configuration: OVERVIEW_COUNTS_SECONDS: ${message}`);
  });

  it("takes COMPRESS as true or false (next.config.mjs reads it) and refuses anything else", () => {
    for (const value of ["true", "false"]) expect(() => readConfig({ COMPRESS: value })).not.toThrow();
    for (const value of ["yes", "1", "gzip"])
      expect(() => readConfig({ COMPRESS: value }), value).toThrow("configuration: COMPRESS: COMPRESS must be true or false");
  });

  it("asks for HTTPS only (HSTS) when NEXTAUTH_URL is https", () => {
    expect(readConfig({}).httpsOnly).toBe(false);
    expect(readConfig({ NEXTAUTH_URL: "http://127.0.0.1:3000" }).httpsOnly).toBe(false);
    expect(readConfig({ NEXTAUTH_URL: "https://console.registry.example" }).httpsOnly).toBe(true);
    expect(() => readConfig({ NEXTAUTH_URL: "console.registry.example" })).toThrow(
      "configuration: NEXTAUTH_URL: NEXTAUTH_URL must be the console's public http:// or https:// URL",
    );
  });

  it("takes where security keys are valid from NEXTAUTH_URL, or a domain it is under", () => {
    expect(readConfig({}).securityKeys).toEqual({ origin: "http://localhost:3000", rpId: "localhost" });
    expect(readConfig({ PORT: "8080" }).securityKeys).toEqual({ origin: "http://localhost:8080", rpId: "localhost" });
    const url = "https://console.registry.example/";
    expect(readConfig({ NEXTAUTH_URL: url }).securityKeys).toEqual({
      origin: "https://console.registry.example",
      rpId: "console.registry.example",
    });
    expect(readConfig({ NEXTAUTH_URL: url, SECURITY_KEY_RP_ID: " Registry.Example " }).securityKeys.rpId).toBe("registry.example");
    expect(() => readConfig({ NEXTAUTH_URL: url, SECURITY_KEY_RP_ID: "example.org" })).toThrow(
      "SECURITY_KEY_RP_ID example.org is not the console's host name console.registry.example nor a domain it is under",
    );
    expect(() => readConfig({ NEXTAUTH_URL: url, SECURITY_KEY_RP_ID: "try.example" })).toThrow(ConfigError);
    expect(() => readConfig({ NEXTAUTH_URL: url, SECURITY_KEY_RP_ID: "https://registry.example" })).toThrow(
      "SECURITY_KEY_RP_ID must be a domain name",
    );
  });

  it("mails notices only with both SMTP_URL and SMTP_FROM, and refuses a malformed one", () => {
    expect(readConfig({}).mail).toBeNull();
    expect(
      readConfig({ SMTP_URL: "smtp://mail.registry.example:587", SMTP_FROM: "Registry Console <console@registry.example>" }).mail,
    ).toEqual({
      url: "smtp://mail.registry.example:587",
      from: "Registry Console <console@registry.example>",
    });
    expect(() => readConfig({ SMTP_URL: "smtp://mail.registry.example" })).toThrow("SMTP_URL and SMTP_FROM go together");
    expect(() => readConfig({ SMTP_FROM: "console@registry.example" })).toThrow("SMTP_URL and SMTP_FROM go together");
    expect(() => readConfig({ SMTP_URL: "http://mail.registry.example", SMTP_FROM: "console@registry.example" })).toThrow(
      "SMTP_URL must be an smtp:// or smtps:// URL",
    );
    expect(() => readConfig({ SMTP_URL: "smtp://mail.registry.example", SMTP_FROM: "console" })).toThrow(
      "SMTP_FROM must be an e-mail address",
    );
  });
});
