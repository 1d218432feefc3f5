// Structured logs: every line the console process writes is one JSON object on stdout (stderr for
// warnings and errors) with its time, level and message, and — for lines written while a request
// is served — that request's id. The id comes from the reverse proxy's X-Request-Id when it is a
// sane token, otherwise it is made here; it is passed to the application as the request's
// X-Request-Id header and returned to the client in the response's. Each request also gets one
// access line (method, path, status, duration) when its response is finished. The lines are
// written by pino; requests are followed through Node's own diagnostics channels for its HTTP
// server (http.server.request.start, http.server.response.finish), not by patching the server.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import diagnostics from "node:diagnostics_channel";
import type http from "node:http";
import { format } from "node:util";
import pino from "pino";

const requests = new AsyncLocalStorage<string>();

/** The id of the request being served, if any. */
function currentRequestId(): string | undefined {
  return requests.getStore();
}

const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** The proxy's id when it is a usable token, otherwise a new one. */
function requestIdFrom(header: string | string[] | undefined): string {
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

/** A pino logger writing JSON lines to `stream`: time, level (its name), msg, the request's id, and the fields given. */
function jsonLogger(stream: NodeJS.WritableStream): pino.Logger {
  return pino(
    {
      level: "debug",
      base: null,
      messageKey: "msg",
      timestamp: () => `,"time":"${new Date().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
    },
    stream,
  );
}

/** The fields of a console call's arguments: an error keeps its name, message, code and stack. */
function fieldsOf(args: unknown[]): Record<string, unknown> {
  const error = args.find((a): a is Error => a instanceof Error);
  return error ? { error: { name: error.name, message: error.message, code: (error as { code?: unknown }).code, stack: error.stack } } : {};
}

/** Lines of one kind (see warnLimited) written per window at most; the rest are counted. */
export const LIMITED_LINES = 10;
export const LIMITED_WINDOW_MS = 60_000;

interface Window {
  start: number;
  written: number;
  suppressed: number;
}
// Shared by every copy of this module in the process (Next bundles the proxy and the app apart).
const WINDOWS = Symbol.for("registry-state-console.log-windows");
const windows = (): Map<string, Window> => {
  const store = globalThis as { [WINDOWS]?: Map<string, Window> };
  store[WINDOWS] ??= new Map();
  return store[WINDOWS];
};

/**
 * Whether a line of `kind` may be written now: at most LIMITED_LINES per LIMITED_WINDOW_MS. When it
 * may, `write` is called with the number of lines of that kind not written since the last one.
 */
function limited(kind: string, now: number, write: (more: number) => void): boolean {
  let window = windows().get(kind);
  if (!window || now - window.start >= LIMITED_WINDOW_MS || now < window.start) {
    const suppressed = window?.suppressed ?? 0;
    window = { start: now, written: 0, suppressed };
    windows().set(kind, window);
  }
  if (window.written >= LIMITED_LINES) {
    window.suppressed++;
    return false;
  }
  window.written++;
  const more = window.suppressed;
  window.suppressed = 0;
  write(more);
  return true;
}

const andMore = (more: number) => (more ? ` (and ${more} more like it not logged)` : "");

/**
 * A warning that anyone can cause (a refusal of someone who is not signed in, a failing health
 * check polled every few seconds): at most LIMITED_LINES lines of one `kind` per
 * LIMITED_WINDOW_MS. The lines beyond are not written but counted, and the count is said in the
 * next line of that kind, so a flood costs a few lines a minute and is still seen. `kind` is one of
 * the code's own names (the number of kinds is fixed). Returns whether the line was written.
 */
export function warnLimited(kind: string, text: string, now: number = Date.now()): boolean {
  return limited(kind, now, (more) => console.warn(`${kind}: ${text}${andMore(more)}`));
}

/**
 * An error nobody expected while serving a request (the answer said only that something failed):
 * logged with its stack, rate-limited as warnLimited is, since a request anyone can send may cause
 * it again and again. Returns whether the line was written.
 */
export function logUnexpected(kind: string, error: unknown, now: number = Date.now()): boolean {
  return limited(kind, now, (more) => console.error(`${kind}: unexpected error${andMore(more)}:`, error));
}

/** A refusal of someone who is not signed in: logged (see warnLimited), never audited. */
export function logAnonymousRefusal(kind: string, details: Record<string, unknown>, now?: number): boolean {
  const shown = Object.entries(details)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([key, value]) => `${key}=${JSON.stringify(typeof value === "string" ? value.slice(0, 200) : value)}`)
    .join(" ");
  return warnLimited(kind, `refused ${shown}`, now);
}

/** Next's own prefix of the errors it logs when a request fails ("⨯", maybe in colour), and next-auth's. */
const isNextErrorPrefix = (arg: unknown) =>
  typeof arg === "string" && (arg.slice(0, 16).includes("⨯") || arg.startsWith("[next-auth][error]"));

/**
 * `write`, except that the lines Next itself writes about a failed request — its "⨯ <error>" lines
 * and the bare errors it warns of (a server action id it does not know) — are rate-limited as
 * warnLimited is: anyone can send such requests, and each line carries a stack.
 */
function nextLimited(kind: string, write: (...args: unknown[]) => void): (...args: unknown[]) => void {
  return (...args) => {
    const fromNext = isNextErrorPrefix(args[0]) || args[0] instanceof Error;
    if (!fromNext) return write(...args);
    limited(kind, Date.now(), (more) => write(...args, ...(more ? [`(and ${more} more like it not logged)`] : [])));
  };
}

let installed = false;

/**
 * Turns console.* into JSON lines (pino) and gives every HTTP request an access line
 * (installRequestTracking). Idempotent; called once at server start (instrumentation.ts) unless
 * LOG_FORMAT=text.
 */
export function installJsonLogs(
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
  finished?: RequestFinished,
): void {
  if (installed) return;
  installed = true;
  // Like node's own console: a log pipe that breaks (the collector restarted) must not take the
  // server down with an unhandled 'error' event.
  for (const stream of new Set([out, err])) stream.on("error", () => {});
  const [outLog, errLog] = [jsonLogger(out), jsonLogger(err)];
  const write =
    (logger: pino.Logger, level: Level) =>
    (...args: unknown[]) => {
      logger[level](fieldsOf(args), format(...args));
    };
  console.log = write(outLog, "info");
  console.info = write(outLog, "info");
  console.debug = write(outLog, "debug");
  console.warn = nextLimited("next.warning", write(errLog, "warn"));
  console.error = nextLimited("next.error", write(errLog, "error"));
  installRequestTracking({ access: outLog, finished });
}

/** What is told of each answered request (the metrics count it, lib/metrics.ts). */
export type RequestFinished = (method: string, path: string, status: number, seconds: number) => void;
let tracking = false;
const startedAt = new WeakMap<http.ServerResponse, number>();

/**
 * Gives every HTTP request served by this process an id (its X-Request-Id, in and out; every line
 * its handling writes carries it), tells `finished` of each answered one, and writes its access
 * line through `access` when given (JSON logs). Idempotent.
 */
export function installRequestTracking(options: { access?: pino.Logger; finished?: RequestFinished }): void {
  if (tracking) return;
  tracking = true;
  const { access, finished } = options;
  // Published by Node's HTTP server before it emits "request": the id is entered into this
  // execution context, so the request's handler and everything it awaits carry it.
  diagnostics.subscribe("http.server.request.start", (message) => {
    const { request, response } = message as { request: http.IncomingMessage; response: http.ServerResponse };
    const id = requestIdFrom(request.headers["x-request-id"]);
    request.headers["x-request-id"] = id;
    response.setHeader("X-Request-Id", id);
    startedAt.set(response, performance.now());
    requests.enterWith(id);
  });
  diagnostics.subscribe("http.server.response.finish", (message) => {
    const { request, response } = message as { request: http.IncomingMessage; response: http.ServerResponse };
    const started = startedAt.get(response);
    if (started === undefined) return;
    const path = (request.url ?? "").split("?")[0];
    const ms = performance.now() - started;
    finished?.(request.method ?? "GET", path, response.statusCode, ms / 1000);
    access?.info(
      {
        requestId: String(request.headers["x-request-id"]),
        method: request.method,
        path,
        status: response.statusCode,
        ms: Math.round(ms * 10) / 10,
      },
      `${request.method} ${path} ${response.statusCode}`,
    );
  });
}
