import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { constants, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tuneHttpServers } from "./connections";
import { PEER_HEADER } from "./http/client-address";

type Response = http.ServerResponse & { flush?: () => void };
/** The compression middleware `next start` puts in front of every response (untyped). */
const compression = createRequire(import.meta.url)("next/dist/compiled/compression") as () => (
  req: http.IncomingMessage,
  res: Response,
  next: () => void,
) => void;

const turn = () => new Promise((resolve) => setImmediate(resolve));

let server: http.Server;
let port: number;
let handle: (req: http.IncomingMessage, res: Response) => void;

beforeAll(async () => {
  tuneHttpServers(2);
  server = http.createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("requests per kept-alive connection", () => {
  it("closes a connection after the limit, so a client opens a new one", async () => {
    handle = (_, res) => res.end("ok");
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ connection: string | undefined; socket: unknown }>((resolve, reject) => {
        const request = http.get({ host: "127.0.0.1", port, agent }, (res) => {
          res.resume();
          res.on("end", () => resolve({ connection: res.headers.connection, socket: request.socket }));
        });
        request.on("error", reject);
      });
    try {
      const [first, second, third] = [await get(), await get(), await get()];
      expect(first.connection).toBe("keep-alive");
      expect(second.connection).toBe("close");
      expect(second.socket).toBe(first.socket);
      expect(third.socket).not.toBe(first.socket);
      // A server's own setting is kept.
      const own = http.createServer((_, res) => res.end());
      own.maxRequestsPerSocket = 7;
      own.emit("connection", new (await import("node:net")).Socket());
      expect(own.maxRequestsPerSocket).toBe(7);
    } finally {
      agent.destroy();
    }
  });
});

describe("the connection's address", () => {
  it("reaches the application in its own header, whatever a client sent under that name", async () => {
    handle = (req, res) => res.end(String(req.headers[PEER_HEADER]));
    const peer = (headers: Record<string, string>) =>
      new Promise<string>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port, headers }, (res) => {
            let body = "";
            res.on("data", (chunk) => {
              body += chunk;
            });
            res.on("end", () => resolve(body));
          })
          .on("error", reject);
      });
    expect(await peer({})).toBe("127.0.0.1");
    expect(await peer({ [PEER_HEADER]: "6.6.6.6", "X-Forwarded-For": "6.6.6.6" })).toBe("127.0.0.1");
  });
});

describe("flushes of a compressed response", () => {
  it("flushes once per turn of the event loop however often it is asked, and never after the end", async () => {
    const flushes: string[] = [];
    const done = new Promise<void>((resolve) => {
      handle = async (_, res) => {
        // Without a compression middleware there is nothing to flush: Next then never calls it.
        expect(res.flush).toBeUndefined();
        res.flush = () => flushes.push("flush");
        res.write("a");
        res.flush?.();
        res.write("b");
        res.flush?.();
        res.flush?.();
        expect(flushes).toEqual([]);
        await turn();
        expect(flushes).toEqual(["flush"]);
        res.flush?.();
        await turn();
        expect(flushes).toEqual(["flush", "flush"]);
        res.flush?.();
        res.end("c");
        await turn();
        expect(flushes).toEqual(["flush", "flush"]);
        resolve();
      };
    });
    const body = await fetch(`http://127.0.0.1:${port}/`).then((r) => r.text());
    await done;
    expect(body).toBe("abc");
  });

  it("still sends a streamed page's first part before the rest is ready, compressed and whole", async () => {
    const compress = compression();
    handle = (req, res) =>
      compress(req, res, () => {
        res.setHeader("Content-Type", "text/html; charset=utf-8");
        // As Next streams a page: the shell in small pieces, each followed by a flush ...
        for (let i = 0; i < 40; i++) {
          res.write(`<p>shell ${i} ${"x".repeat(100)}</p>`);
          res.flush?.();
        }
        // ... and the rest when its data has been read.
        setTimeout(() => {
          res.write("<p>data</p>");
          res.flush?.();
          res.end("</html>");
        }, 1500);
      });
    const arrived: { at: number; bytes: Buffer }[] = [];
    const started = performance.now();
    const headers = await new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, headers: { "accept-encoding": "gzip" } }, (res) => {
          res.on("data", (bytes: Buffer) => arrived.push({ at: performance.now() - started, bytes }));
          res.on("end", () => resolve(res.headers));
        })
        .on("error", reject);
    });
    expect(headers["content-encoding"]).toBe("gzip");
    const html = gunzipSync(Buffer.concat(arrived.map((a) => a.bytes))).toString();
    expect(html).toBe(`${Array.from({ length: 40 }, (_, i) => `<p>shell ${i} ${"x".repeat(100)}</p>`).join("")}<p>data</p></html>`);
    // The shell reached the client well before the data was written.
    // (The data is written 1.5 s in: a busy machine's stall of up to a second does not fail this.)
    const early = arrived.filter((a) => a.at < 1200);
    expect(early.length).toBeGreaterThan(0);
    expect(gunzipSync(Buffer.concat(early.map((a) => a.bytes)), { finishFlush: constants.Z_SYNC_FLUSH }).toString()).toContain(
      "<p>shell 39 ",
    );
  });
});
