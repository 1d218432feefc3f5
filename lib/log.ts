// Structured logs: every line the console process writes is one JSON object on stdout (stderr for
// warnings and errors) with its time, level and message, and — for lines written while a request
// is served — that request's id. The id comes from the reverse proxy's X-Request-Id when it is a
// sane token, otherwise it is made here; it is passed to the application as the request's
// X-Request-Id header and returned to the client in the response's. Each request also gets one
// access line (method, path, status, duration) when its response is finished.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { format } from "node:util";

const requests = new AsyncLocalStorage<string>();

/** The id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  return requests.getStore();
}

const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** The proxy's id when it is a usable token, otherwise a new one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const given = Array.isArray(header) ? header[0] : header;
  return given && SANE_ID.test(given) ? given : randomUUID();
}

type Level = "debug" | "info" | "warn" | "error";

export interface LogLine {
  time: string;
  level: Level;
  msg: string;
  requestId?: string;
  [field: string]: unknown;
}

/** One log line as JSON; errors keep their name, message, stack and code. */
export function logLine(level: Level, args: unknown[], fields: Record<string, unknown> = {}): string {
  const error = args.find((a): a is Error => a instanceof Error);
  const line: LogLine = { time: new Date().toISOString(), level, msg: format(...args) };
  const requestId = currentRequestId();
  if (requestId) line.requestId = requestId;
  Object.assign(line, fields);
  if (error) {
    line.error = { name: error.name, message: error.message, code: (error as { code?: unknown }).code, stack: error.stack };
  }
  return JSON.stringify(line);
}

let installed = false;

/**
 * Turns console.* into JSON lines and gives every HTTP request served by this process an id and an
 * access line. Idempotent; called once at server start (instrumentation.ts) unless LOG_FORMAT=text.
 */
export function installJsonLogs(out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): void {
  if (installed) return;
  installed = true;
  // Like node's own console: a log pipe that breaks (the collector restarted) must not take the
  // server down with an unhandled 'error' event.
  for (const stream of new Set([out, err])) stream.on("error", () => {});
  const write =
    (stream: NodeJS.WritableStream, level: Level) =>
    (...args: unknown[]) => {
      stream.write(`${logLine(level, args)}\n`);
    };
  console.log = write(out, "info");
  console.info = write(out, "info");
  console.debug = write(out, "debug");
  console.warn = write(err, "warn");
  console.error = write(err, "error");

  // Next's server (`next start`) is a plain node:http server: its "request" event is where a
  // request starts, so the id is set there and every callback of the request inherits it.
  const emit = http.Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event !== "request") return emit.call(this, event, ...args);
    const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
    const id = requestIdFrom(req.headers["x-request-id"]);
    req.headers["x-request-id"] = id;
    res.setHeader("X-Request-Id", id);
    const started = performance.now();
    return requests.run(id, () => {
      res.once("finish", () => {
        const path = (req.url ?? "").split("?")[0];
        out.write(
          `${logLine("info", [`${req.method} ${path} ${res.statusCode}`], {
            requestId: id,
            method: req.method,
            path,
            status: res.statusCode,
            ms: Math.round((performance.now() - started) * 10) / 10,
          })}\n`,
        );
      });
      return emit.call(this, event, ...args);
    });
  } as typeof http.Server.prototype.emit;
}
