import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { limitRequestsPerConnection } from "./connections";

describe("requests per kept-alive connection", () => {
  it("closes a connection after the limit, so a client opens a new one", async () => {
    limitRequestsPerConnection(2);
    const server = http.createServer((_, res) => res.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
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
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
