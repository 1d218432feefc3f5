import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET } from "../app/api/metrics/route";
import { testBackends } from "../testing/databases";
import { createObject, registryAt, TYPE } from "../testing/registry";
import { actAs, anonymous, signedInAs } from "../testing/sessions";
import { signInWithPassword } from "./auth/sign-in";
import type { Database } from "./db/client";
import { metrics, observeRequest, ROUTES_MAX, routeOf, scrapeAllowed } from "./metrics";
import { runStateEngine } from "./states/engine";
import { createApiToken } from "./tokens";

const TOKEN = "metrics-scraper-token-0123456789abcdef";

describe("metrics' routes and access", () => {
  it("labels a request by its route, not its path: ids, names and Next's files fold", () => {
    expect(routeOf("/objects/123")).toBe("/objects/[id]");
    expect(routeOf("/cases/7/record.csv?x=1")).toBe("/cases/[id]/record.csv");
    expect(routeOf("/objects/by-name/example.cz")).toBe("/objects/by-name/[name]");
    expect(routeOf("/_next/static/chunks/app-abc.js")).toBe("/_next/static");
    expect(routeOf("/api/auth/callback/credentials")).toBe("/api/auth/[...nextauth]");
    expect(routeOf("/")).toBe("/");
  });

  it("labels at most ROUTES_MAX routes: a scan of made-up paths is counted as “other”", () => {
    for (let i = 0; i < ROUTES_MAX + 20; i++) routeOf(`/scan-${i}-x`);
    expect(routeOf("/scan-9999-y")).toBe("other");
    // Routes seen before keep their label.
    expect(routeOf("/objects/5")).toBe("/objects/[id]");
  });

  it("lets a scraper in only with the token, compared whole", () => {
    expect(scrapeAllowed(`Bearer ${TOKEN}`, undefined)).toBe("off");
    expect(scrapeAllowed(null, TOKEN)).toBe("refused");
    expect(scrapeAllowed(`Bearer ${TOKEN.slice(0, -1)}`, TOKEN)).toBe("refused");
    expect(scrapeAllowed(`Basic ${TOKEN}`, TOKEN)).toBe("refused");
    expect(scrapeAllowed(`Bearer ${TOKEN}`, TOKEN)).toBe("ok");
  });
});

describe.each(testBackends())("GET /api/metrics on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let objectId: number;
  beforeAll(async () => {
    ({ db, drop } = await registryAt(backend, new Date(), async (tx) => {
      objectId = await createObject(tx, TYPE.contact, "METRICS-HOLDER", "2020-01-01T00:00:00Z");
    }));
  });
  afterAll(() => drop());
  afterEach(() => vi.unstubAllEnvs());

  const scrape = (authorization?: string) =>
    actAs(anonymous(db), () =>
      GET(new Request("http://console.test/api/metrics", { headers: authorization ? { Authorization: authorization } : {} })),
    );

  it("is off without METRICS_TOKEN, and refuses a scraper without the token", async () => {
    vi.stubEnv("METRICS_TOKEN", "");
    const off = await scrape(`Bearer ${TOKEN}`);
    expect(off.status).toBe(404);
    expect(await off.text()).toMatch(/^Metrics are off: set METRICS_TOKEN/);
    vi.stubEnv("METRICS_TOKEN", TOKEN);
    for (const sent of [undefined, "Bearer wrong", `bearer ${TOKEN}`]) {
      const refused = await scrape(sent);
      expect(refused.status).toBe(401);
      expect(await refused.text()).not.toContain("rsc_");
    }
  });

  it("gives a scraper with the token every metric in Prometheus' text format, with what the database holds", async () => {
    vi.stubEnv("METRICS_TOKEN", TOKEN);
    await runStateEngine(db.sql);
    const operator = await signedInAs(db, "operator", "metrics-op");
    const admin = await signedInAs(db, "admin", "metrics-admin");
    await db.sql.query(
      `INSERT INTO console.pending_changes (command, object_id, input, state, change, summary, proposed_by, proposed_by_id, proposed_at)
       VALUES ('request.create', $1, '{}', 'serverRenewProhibited', 'make', '{}', 'metrics-op', $2, now())`,
      [objectId, operator.claims?.uid],
    );
    await actAs(admin, () => createApiToken({ name: "zone generator" }));
    observeRequest("GET", "/objects/42", 200, 0.031);
    await signInWithPassword(db.sql, "nobody-here", "wrong password", { clientAddress: "192.0.2.9", userAgent: null });

    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text)?.[1]);
    expect(text).toMatch(/^# TYPE rsc_http_requests_total counter$/m);
    expect(text).toMatch(
      /^rsc_http_requests_total\{method="GET",route="\/objects\/\[id\]",status="200",app="registry_state_console"\} \d+$/m,
    );
    const bucket = text
      .split("\n")
      .find(
        (l) => l.startsWith("rsc_http_request_duration_seconds_bucket{") && l.includes('le="0.05"') && l.includes('route="/objects/[id]"'),
      );
    expect(Number(bucket?.split(" ").pop())).toBeGreaterThanOrEqual(1);
    expect(value("rsc_state_engine_last_run_age_seconds")).toBeLessThan(60);
    expect(value("rsc_state_engine_cursor_lag_seconds")).toBeGreaterThanOrEqual(0);
    expect(value("rsc_state_engine_full_run_due")).toBe(0);
    expect(value("rsc_pending_approvals")).toBe(1);
    expect(text).toMatch(/^rsc_feed_reader_lag\{token="zone generator",app="registry_state_console"\} \d+$/m);
    // The token's creation was audited: the chain holds at least that entry.
    expect(value("rsc_audit_chain_length")).toBeGreaterThanOrEqual(1);
    expect(value("rsc_feed_head")).toBeGreaterThanOrEqual(0);
    expect(text).toMatch(/^rsc_sign_ins_total\{result="invalid",app="registry_state_console"\} \d+$/m);
    if (backend.name === "postgres") expect(text).toMatch(/^rsc_db_pool_connections\{state="total",app="registry_state_console"\} \d+$/m);
    else expect(text).not.toContain("rsc_db_pool_connections{");
    // The process's own: its memory, its CPU time and the lag of the event loop every page waits for.
    expect(value("process_resident_memory_bytes")).toBeGreaterThan(2 ** 20);
    expect(value("process_cpu_seconds_total")).toBeGreaterThan(0);
    expect(value("nodejs_heap_size_used_bytes")).toBeGreaterThan(2 ** 20);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds\{app="registry_state_console"\} [\d.e+-]+$/m);
    expect(metrics().registry.getMetricsAsArray().length).toBeGreaterThan(10);
  });
});
