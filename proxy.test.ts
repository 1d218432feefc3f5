import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { proxy } from "./proxy";
import { nested, streamed } from "./testing/bodies";

// The proxy as Next calls it, on requests made here: what it refuses before anything parses a body,
// and the headers it sets.
const BASE = "http://127.0.0.1:3000";

function request(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): NextRequest {
  return new NextRequest(new URL(path, BASE), { ...init, duplex: "half" } as ConstructorParameters<typeof NextRequest>[1]);
}

const original = process.env.NEXTAUTH_URL;
afterEach(() => {
  if (original === undefined) delete process.env.NEXTAUTH_URL;
  else process.env.NEXTAUTH_URL = original;
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe("the proxy", () => {
  it("sends Strict-Transport-Security, for the console's host and the hosts under it, only when NEXTAUTH_URL is https", async () => {
    process.env.NEXTAUTH_URL = "https://console.registry.example";
    expect((await proxy(request("/login"))).headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    process.env.NEXTAUTH_URL = "http://127.0.0.1:3000";
    expect((await proxy(request("/login"))).headers.get("strict-transport-security")).toBeNull();
    delete process.env.NEXTAUTH_URL;
    expect((await proxy(request("/login"))).headers.get("strict-transport-security")).toBeNull();
  });

  it("refuses a 3 MiB body streamed in chunks, not only one announced as too large", async () => {
    const response = await proxy(
      request("/objects", {
        method: "POST",
        body: streamed(3 * 1024 * 1024),
        headers: { "Content-Type": "text/plain", Origin: BASE, Host: "127.0.0.1:3000" },
      }),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "The request is too large: more than 1,048,576 bytes." });
  });

  it("refuses a server action's arguments nested 100,000 deep with a 400", async () => {
    const response = await proxy(
      request("/requests/bulk", {
        method: "POST",
        body: nested(100_000),
        headers: {
          "Content-Type": "text/plain;charset=UTF-8",
          "Next-Action": "60d4d31c04599f8c721ba4f93e2a6f7985016c111f",
          Origin: BASE,
          Host: "127.0.0.1:3000",
        },
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "The request nests data more than 64 levels deep; nothing was done." });
  });

  // No database is open here: a refusal that tried to write an audit row would fail the request.
  it("refuses a cross-site write and logs it with the connection's address (not the claimed one), audits nothing", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const response = await proxy(
      request("/admin/users", {
        method: "POST",
        body: "username=mallory",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: "https://evil.example",
          "X-Forwarded-For": "6.6.6.6",
          "X-Console-Peer": "198.51.100.7",
        },
      }),
    );
    expect(response.status).toBe(403);
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(
        /^request\.cross_site: refused method="POST" path="\/admin\/users" origin="https:\/\/evil\.example" client="198\.51\.100\.7"/,
      ),
    );
  });

  it("believes X-Forwarded-Host and X-Forwarded-Proto only from proxies TRUSTED_PROXY_HOPS says are there", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    // A write from evil.example that claims, in a header, that the console is evil.example.
    const write = () =>
      proxy(
        request("/admin/users", {
          method: "POST",
          body: "username=mallory",
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            Origin: "https://evil.example",
            Host: "127.0.0.1:3000",
            "X-Forwarded-Host": "evil.example",
            "X-Forwarded-Proto": "https",
          },
        }),
      );
    vi.stubEnv("TRUSTED_PROXY_HOPS", "0");
    const refused = await write();
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: "Cross-site requests are refused." });
    // No proxy to believe: the connection is plain HTTP, whatever X-Forwarded-Proto says.
    expect(
      (await proxy(request("/login", { headers: { "X-Forwarded-Proto": "https" } }))).headers.get("content-security-policy"),
    ).not.toMatch(/upgrade-insecure-requests/);

    // Behind one proxy, the host it forwarded is the console's (the proxy, not the client, wrote the header).
    vi.stubEnv("TRUSTED_PROXY_HOPS", "1");
    expect((await write()).headers.get("x-middleware-next")).toBe("1");
    expect((await proxy(request("/login", { headers: { "X-Forwarded-Proto": "https" } }))).headers.get("content-security-policy")).toMatch(
      /upgrade-insecure-requests/,
    );
  });

  it("refuses an address whose %-encoding is broken with a 400", async () => {
    const response = await proxy(request("/objects/by-name/%E0%A4%A"));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "The address is not valid %-encoded text; nothing was done." });
  });

  it("lets a body within the limits through", async () => {
    const response = await proxy(
      request("/requests/bulk", {
        method: "POST",
        body: JSON.stringify([null, { names: "a.cz" }]),
        headers: { "Content-Type": "text/plain;charset=UTF-8", Origin: BASE, Host: "127.0.0.1:3000" },
      }),
    );
    expect(response.headers.get("x-middleware-next")).toBe("1");
  });

  it("lets a scraper without a session reach /api/metrics (which checks METRICS_TOKEN itself); another API path without a session is refused", async () => {
    expect((await proxy(request("/api/metrics"))).headers.get("x-middleware-next")).toBe("1");
    const other = await proxy(request("/api/metrics/more"));
    expect(other.status).toBe(401);
  });
});
