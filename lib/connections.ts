import http from "node:http";

/**
 * Requests one kept-alive connection may carry before the server closes it (the client simply
 * opens a new one). Under overload (20 users with no pause, bench:load's saturation run) every
 * finished response stayed reachable for as long as its connection lived: the server's live heap
 * grew from 72 to 243 MB in 60 s and it ran out of memory within minutes, while with a new
 * connection per request it stayed at 62-68 MB (bench/RESULTS.md). Closing a connection after this
 * many requests bounds what one connection can hold.
 */
export const REQUESTS_PER_CONNECTION = 50;

/** Sets the limit on every HTTP server of this process (Next's `next start` server included), once it serves. */
export function limitRequestsPerConnection(limit = REQUESTS_PER_CONNECTION): void {
  const emit = http.Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    // Node reads the limit for each request it parses; a server's own setting wins.
    if (event === "connection" && !this.maxRequestsPerSocket) this.maxRequestsPerSocket = limit;
    return emit.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
}
