// The console's metrics for the registry's monitoring (issue 43): GET /api/metrics in Prometheus'
// text format (prom-client), for a scraper that holds METRICS_TOKEN. Counters and histograms are
// kept in this process (requests, engine runs, sign-ins); gauges of what the database holds (engine
// lag, pending approvals, the audit chain, the feed's readers) are read when scraped; the process's
// own (memory, CPU, heap, event loop) are prom-client's defaults. Several console
// processes are several targets: Prometheus sums them.
import { timingSafeEqual } from "node:crypto";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { SqlReader } from "./db/driver";

/** What one process counts, shared by every copy of this module in it (Next bundles the instrumentation and the routes apart). */
function createMetrics() {
  const registry = new Registry();
  registry.setDefaultLabels({ app: "registry_state_console" });
  // The process's own (prom-client's defaults, their usual names): resident memory, CPU time, the
  // V8 heap and its collections, and the event loop's lag, the one thread every page waits for.
  collectDefaultMetrics({ register: registry });
  const metric = { registers: [registry] };
  return {
    registry,
    requests: new Counter({
      ...metric,
      name: "rsc_http_requests_total",
      help: "HTTP requests answered, by method, route and status",
      labelNames: ["method", "route", "status"] as const,
    }),
    requestSeconds: new Histogram({
      ...metric,
      name: "rsc_http_request_duration_seconds",
      help: "Time to the whole answer of an HTTP request, by method and route",
      labelNames: ["method", "route"] as const,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
    engineRuns: new Counter({
      ...metric,
      name: "rsc_state_engine_runs_total",
      help: "State engine ticks of this process, by what they were (full, incremental, busy, fred: a pass of FRED's engine, failed)",
      labelNames: ["kind"] as const,
    }),
    engineSeconds: new Histogram({
      ...metric,
      name: "rsc_state_engine_run_duration_seconds",
      help: "Duration of the state engine's ticks in this process",
      labelNames: ["kind"] as const,
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
    }),
    signIns: new Counter({
      ...metric,
      name: "rsc_sign_ins_total",
      help: "Sign-in attempts with a password (console or directory), by result: ok, invalid, throttled, second_factor_required, …",
      labelNames: ["result"] as const,
    }),
    poolErrors: new Counter({
      ...metric,
      name: "rsc_db_pool_errors_total",
      help: "PostgreSQL connections of the pool lost or failed (the next query reconnects)",
    }),
    pool: new Gauge({
      ...metric,
      name: "rsc_db_pool_connections",
      help: "The PostgreSQL pool's connections: total open, idle, and requests waiting for one (embedded database: none)",
      labelNames: ["state"] as const,
    }),
    engineLag: new Gauge({
      ...metric,
      name: "rsc_state_engine_last_run_age_seconds",
      help: "Seconds since the state engine last finished a run (any process); absent before its first run",
    }),
    engineCursorLag: new Gauge({
      ...metric,
      name: "rsc_state_engine_cursor_lag_seconds",
      help: "How far the state history is behind now: the work due for the engine (seconds since its cursor)",
    }),
    fullRunDue: new Gauge({
      ...metric,
      name: "rsc_state_engine_full_run_due",
      help: "1 when the next engine run must compute every object (after adoption), else 0",
    }),
    pendingApprovals: new Gauge({
      ...metric,
      name: "rsc_pending_approvals",
      help: "Changes waiting for a second person's approval (four-eyes)",
    }),
    auditChain: new Gauge({ ...metric, name: "rsc_audit_chain_length", help: "Entries in the audit log's hash chain" }),
    feedHead: new Gauge({ ...metric, name: "rsc_feed_head", help: "The state change feed's newest position" }),
    feedLag: new Gauge({
      ...metric,
      name: "rsc_feed_reader_lag",
      help: "Changes of the feed a reader (an API token, by name) has not asked for yet: the head minus its last cursor",
      labelNames: ["token"] as const,
    }),
  };
}

type Metrics = ReturnType<typeof createMetrics>;
const SLOT = Symbol.for("registry-state-console.metrics");

/** This process's metrics. */
export function metrics(): Metrics {
  const store = globalThis as { [SLOT]?: Metrics };
  store[SLOT] ??= createMetrics();
  return store[SLOT];
}

/** How many distinct routes are labelled; any more are "other" (a scan of random paths must not grow the series). */
export const ROUTES_MAX = 100;
const ROUTES = Symbol.for("registry-state-console.metric-routes");

/**
 * The route a path belongs to, as a label: ids are `[id]`, a name in /objects/by-name/ is `[name]`,
 * Next's files are one route each; past ROUTES_MAX distinct routes, "other".
 */
export function routeOf(path: string): string {
  const clean = path.split("?")[0] || "/";
  let route: string;
  if (clean.startsWith("/_next/"))
    route = clean.startsWith("/_next/static/") ? "/_next/static" : clean.startsWith("/_next/image") ? "/_next/image" : "/_next";
  else if (clean.startsWith("/api/auth/")) route = "/api/auth/[...nextauth]";
  else if (clean.startsWith("/objects/by-name/")) route = "/objects/by-name/[name]";
  else
    route = clean
      .split("/")
      .map((segment) => (/^\d+$/.test(segment) ? "[id]" : segment))
      .join("/")
      .slice(0, 100);
  const store = globalThis as { [ROUTES]?: Set<string> };
  store[ROUTES] ??= new Set();
  const seen = store[ROUTES];
  if (seen.has(route)) return route;
  if (seen.size >= ROUTES_MAX) return "other";
  seen.add(route);
  return route;
}

/** One answered request, counted and timed. */
export function observeRequest(method: string, path: string, status: number, seconds: number): void {
  const route = routeOf(path);
  const m = metrics();
  m.requests.inc({ method, route, status: String(status) });
  m.requestSeconds.observe({ method, route }, seconds);
}

/**
 * Reads what the database holds into the gauges and returns every metric in Prometheus' text
 * format. Each query is small: single rows of the console's own tables, a count of the pending
 * changes (indexed by status), the feed's head (its unique index's end).
 */
export async function metricsText(db: SqlReader, pool: () => { total: number; idle: number; waiting: number } | null): Promise<string> {
  const m = metrics();
  const [engine] = await db.query<{ age: number | null; cursor_lag: number | null; full_run_due: boolean }>(
    `SELECT extract(epoch FROM now() - last_run_finished_at)::float8 AS age, extract(epoch FROM now() - cursor)::float8 AS cursor_lag,
            full_run_due FROM console.state_engine`,
  );
  m.engineLag.reset();
  if (engine?.age !== null && engine?.age !== undefined) m.engineLag.set(engine.age);
  m.engineCursorLag.reset();
  if (engine?.cursor_lag !== null && engine?.cursor_lag !== undefined) m.engineCursorLag.set(Math.max(0, engine.cursor_lag));
  m.fullRunDue.set(engine?.full_run_due ? 1 : 0);
  const [counts] = await db.query<{ pending: number; audit: string; head: string | null }>(
    `SELECT (SELECT count(*)::int FROM console.pending_changes WHERE status = 'pending') AS pending,
            (SELECT last_id::text FROM console.audit_head) AS audit,
            (SELECT max(seq)::text FROM console.state_changes WHERE seq IS NOT NULL) AS head`,
  );
  m.pendingApprovals.set(counts.pending);
  m.auditChain.set(Number(counts.audit ?? 0));
  const head = Number(counts.head ?? 0);
  m.feedHead.set(head);
  const readers = await db.query<{ name: string; last_after: string | null }>(
    "SELECT name, last_after::text FROM console.api_tokens WHERE revoked_at IS NULL ORDER BY id LIMIT 200",
  );
  m.feedLag.reset();
  for (const r of readers) m.feedLag.set({ token: r.name }, Math.max(0, head - Number(r.last_after ?? 0)));
  m.pool.reset();
  const connections = pool();
  if (connections) for (const [state, n] of Object.entries(connections)) m.pool.set({ state }, n);
  return m.registry.metrics();
}

export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/**
 * Whether a request may scrape: METRICS_TOKEN must be set, and sent as `Authorization: Bearer …`
 * (compared in constant time). "off": no token is set, so nobody may.
 */
export function scrapeAllowed(authorization: string | null, token: string | undefined): "ok" | "off" | "refused" {
  if (!token) return "off";
  const sent = /^Bearer (.+)$/.exec(authorization ?? "")?.[1] ?? "";
  const a = Buffer.from(sent);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b) ? "ok" : "refused";
}
