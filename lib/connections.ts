import http from "node:http";
import { PEER_HEADER } from "./http/client-address";

/**
 * Requests one kept-alive connection may carry before the server closes it (the client simply
 * opens a new one). Under overload (20 users with no pause, bench:load's saturation run) every
 * finished response stayed reachable for as long as its connection lived: the server's live heap
 * grew from 72 to 243 MB in 60 s and it ran out of memory within minutes, while with a new
 * connection per request it stayed at 62-68 MB (bench/RESULTS.md). Closing a connection after this
 * many requests bounds what one connection can hold.
 */
export const REQUESTS_PER_CONNECTION = 50;

/**
 * Makes `res.flush` (set by a compression middleware: Next's, for `next start`) flush at most once
 * per turn of the event loop. Next streams a page in many small pieces and flushes the compressor
 * after every one: each flush ends a deflate block and is a round trip to libuv's thread pool, and
 * a list page paid about 1.7 ms for them. Coalesced, whatever a turn wrote still leaves in that
 * turn (a streamed page's first part is not held back until its data is read), in fewer blocks.
 */
export function coalesceFlushes(res: http.ServerResponse): void {
  let flush: (() => void) | undefined;
  let queued = false;
  const coalesced = () => {
    if (queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      // Ending the response flushes everything itself.
      if (!res.writableEnded && !res.destroyed) flush?.();
    });
  };
  Object.defineProperty(res, "flush", {
    configurable: true,
    enumerable: true,
    get: () => (flush ? coalesced : undefined),
    set: (fn: (() => void) | undefined) => {
      flush = typeof fn === "function" ? fn : undefined;
    },
  });
}

/**
 * Tells the application the address the request's connection comes from (the application sees
 * only headers): PEER_HEADER, replacing whatever a client sent under that name.
 */
export function stampPeerAddress(req: http.IncomingMessage): void {
  const peer = req.socket?.remoteAddress;
  if (peer) req.headers[PEER_HEADER] = peer;
  else delete req.headers[PEER_HEADER];
}

/**
 * Sets up every HTTP server of this process (Next's `next start` server included) once it serves:
 * the per-connection request limit (a server's own setting wins), coalesced flushes, and the peer
 * address header.
 */
export function tuneHttpServers(limit = REQUESTS_PER_CONNECTION): void {
  const emit = http.Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    // Node reads the limit for each request it parses.
    if (event === "connection" && !this.maxRequestsPerSocket) this.maxRequestsPerSocket = limit;
    else if (event === "request") {
      stampPeerAddress(args[0] as http.IncomingMessage);
      coalesceFlushes(args[1] as http.ServerResponse);
    }
    return emit.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
}
