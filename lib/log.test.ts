import http from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { installJsonLogs, LIMITED_LINES, LIMITED_WINDOW_MS, type LogLine, logAnonymousRefusal, logUnexpected } from "./log";

// The server side of structured logs, on a plain node:http server as `next start` runs one.
describe("JSON logs with request ids", () => {
  const out = new PassThrough();
  const err = new PassThrough();
  let written = "";
  out.on("data", (chunk) => {
    written += chunk;
  });
  err.on("data", (chunk) => {
    written += chunk;
  });
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    installJsonLogs(out, err);
    server = http.createServer(async (req, res) => {
      console.log("looking up %s", req.url);
      await new Promise((resolve) => setTimeout(resolve, 5)); // the id survives awaits
      if (req.url === "/fail") {
        console.error(Object.assign(new Error("database unavailable"), { code: "ECONNREFUSED" }));
        res.statusCode = 503;
      } else {
        console.warn("slow query", { ms: 120 });
      }
      res.end(String(req.headers["x-request-id"]));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const lines = () =>
    written
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as LogLine);

  async function get(path: string, headers: Record<string, string> = {}) {
    written = "";
    const response = await fetch(`${base}${path}`, { headers });
    const body = await response.text();
    await new Promise((resolve) => setTimeout(resolve, 20)); // the access line follows the response
    return { response, body, lines: lines() };
  }

  it("gives every line of a request the proxy's id, and the response and the application see it", async () => {
    const { response, body, lines } = await get("/objects?q=x", { "X-Request-Id": "req-0123456789" });
    expect(response.headers.get("x-request-id")).toBe("req-0123456789");
    expect(body).toBe("req-0123456789");
    expect(lines.map((l) => [l.level, l.msg, l.requestId])).toEqual([
      ["info", "looking up /objects?q=x", "req-0123456789"],
      ["warn", "slow query { ms: 120 }", "req-0123456789"],
      ["info", "GET /objects 200", "req-0123456789"],
    ]);
    const access = lines[2];
    expect(access).toMatchObject({ method: "GET", path: "/objects", status: 200 });
    // setTimeout(5) may fire up to a millisecond early on the performance clock.
    expect(access.ms).toBeGreaterThanOrEqual(4);
    for (const line of lines) expect(Number.isNaN(Date.parse(line.time))).toBe(false);
  });

  it("makes an id when the client sends none or one that is not a plain token, and keeps requests apart", async () => {
    const [a, b] = await Promise.all([fetch(`${base}/a`), fetch(`${base}/b`, { headers: { "X-Request-Id": '<script>"' } })]);
    const ids = [a.headers.get("x-request-id"), b.headers.get("x-request-id")];
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
    expect(await b.text()).toBe(ids[1]);
    await a.text();
  });

  it("writes errors with their code and stack, under the request's id", async () => {
    const { response, lines } = await get("/fail");
    const id = response.headers.get("x-request-id");
    const error = lines.find((l) => l.level === "error");
    expect(error).toMatchObject({ requestId: id, msg: expect.stringContaining("database unavailable") });
    expect(error?.error).toMatchObject({ name: "Error", message: "database unavailable", code: "ECONNREFUSED" });
    expect(lines.at(-1)).toMatchObject({ requestId: id, status: 503 });
  });

  it("survives a broken log pipe, as node's own console does", () => {
    expect(() => out.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }))).not.toThrow();
    expect(() => err.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }))).not.toThrow();
  });

  it("logs a flood of anonymous refusals as a few lines a minute, and says how many it left out", () => {
    written = "";
    const start = 1_000_000;
    const refuse = (i: number, at: number) => logAnonymousRefusal("test.flood", { path: "/objects", n: i }, at);
    const logged = Array.from({ length: 1000 }, (_, i) => refuse(i, start + i));
    expect(logged.filter(Boolean)).toHaveLength(LIMITED_LINES);
    expect(lines()).toHaveLength(LIMITED_LINES);
    expect(lines()[0]).toMatchObject({ level: "warn", msg: 'test.flood: refused path="/objects" n=0' });
    // Another kind has its own allowance.
    expect(logAnonymousRefusal("test.other", { path: "/" }, start)).toBe(true);
    // The next window's first line counts what the last one left out.
    written = "";
    expect(refuse(1000, start + LIMITED_WINDOW_MS)).toBe(true);
    expect(lines()).toEqual([
      expect.objectContaining({ msg: `test.flood: refused path="/objects" n=1000 (and ${1000 - LIMITED_LINES} more like it not logged)` }),
    ]);
  });

  // Issue 39: each bad request's 500 was logged with a stack, with no limit.
  it("logs a flood of unexpected errors with their stacks as a few lines a minute, and says how many it left out", () => {
    written = "";
    const start = 5_000_000;
    const logged = Array.from({ length: 200 }, (_, i) => logUnexpected("test.unexpected", new TypeError(`bad ${i}`), start + i));
    expect(logged.filter(Boolean)).toHaveLength(LIMITED_LINES);
    expect(lines()).toHaveLength(LIMITED_LINES);
    expect(lines()[0]).toMatchObject({
      level: "error",
      msg: expect.stringMatching(/^test\.unexpected: unexpected error: TypeError: bad 0/),
      error: { name: "TypeError", message: "bad 0", stack: expect.stringContaining("TypeError: bad 0") },
    });
    written = "";
    expect(logUnexpected("test.unexpected", new TypeError("later"), start + LIMITED_WINDOW_MS)).toBe(true);
    expect(lines()[0].msg).toMatch(`test.unexpected: unexpected error (and ${200 - LIMITED_LINES} more like it not logged):`);
  });

  it("limits the lines Next writes about failed requests (⨯ and bare errors) the same way, and no other line", () => {
    const now = vi.spyOn(Date, "now").mockReturnValue(9_000_000);
    try {
      written = "";
      for (let i = 0; i < 100; i++) console.error("⨯", new TypeError(`Invalid URL ${i}`));
      for (let i = 0; i < 100; i++) console.warn(new Error(`Failed to find Server Action ${i}`));
      for (let i = 0; i < 100; i++) console.error(`PostgreSQL connection lost (${i})`);
      const all = lines();
      expect(all.filter((line) => line.msg.startsWith("⨯ TypeError: Invalid URL"))).toHaveLength(LIMITED_LINES);
      expect(all.filter((line) => line.msg.startsWith("Error: Failed to find Server Action"))).toHaveLength(LIMITED_LINES);
      expect(all.filter((line) => line.msg.startsWith("PostgreSQL connection lost"))).toHaveLength(100);
      expect(all.find((line) => line.msg.startsWith("⨯"))?.error).toMatchObject({ stack: expect.stringContaining("Invalid URL 0") });
    } finally {
      now.mockRestore();
    }
  });

  it("writes lines outside any request without an id", () => {
    written = "";
    console.log("state engine run: %d state(s) opened", 3);
    expect(lines()).toEqual([{ time: expect.any(String), level: "info", msg: "state engine run: 3 state(s) opened" }]);
  });
});
