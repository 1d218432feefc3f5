// Shadow's page's data (lib/states/shadow-page.ts, issue 40): what /shadow shows, read as a signed-in
// person — on a registry the console created (no shadow; every bad parameter a notice; a run's
// differences paged) on PGlite and PostgreSQL, and on a FRED 2.52 registry in shadow where FRED's
// known bug and a planted difference occur (PostgreSQL).
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { fredSchemaAvailable } from "../../testing/fred";
import { actAs, anonymous, signedInAs } from "../../testing/sessions";
import { shadowRegistry } from "../../testing/shadow";
import { english } from "../actions/message";
import type { AccessError } from "../auth/guard";
import { moveMode } from "../db/adoption-mode";
import type { Database } from "../db/client";
import { openDatabase } from "../db/client";
import { en } from "../i18n/messages/en";
import { FRED_KNOWN_BUGS, runShadow } from "./shadow";
import { SHADOW_PAGE_SIZE, shadowPage } from "./shadow-page";

const adminUrl = process.env.TEST_DATABASE_URL;

it("names every one of FRED's known bugs in the page's catalogue", () => {
  expect(Object.keys(en.shadow.bugs).sort()).toEqual(Object.keys(FRED_KNOWN_BUGS).sort());
  expect(en.shadow.bugs).toEqual(FRED_KNOWN_BUGS);
});

describe.each(testBackends())("shadow's page on a registry the console created ($name)", (backend) => {
  const drops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(drops.splice(0).map((d) => d()));
  });
  async function fresh(): Promise<Database> {
    const { db, drop } = await backend.createMigrated();
    drops.push(drop);
    return db;
  }

  it("says the registry was created by the console, has no run, and refuses someone not signed in", async () => {
    const db = await fresh();
    const support = await signedInAs(db, "support");
    const page = await actAs(support, () => shadowPage({}));
    expect(page.mode.origin).toBe("created");
    expect(page).toMatchObject({ ready: false, verdict: { kind: "no_runs" }, totalRuns: 0, runs: [], days: [], run: null, notices: [] });
    expect(page.differences).toMatchObject({ total: 0, rows: [], page: 1, pages: 1 });
    await expect(actAs(anonymous(db), () => shadowPage({}))).rejects.toMatchObject({ status: 401 } satisfies Partial<AccessError>);
  });

  it("names every parameter it cannot use in a notice and shows the newest run's first page instead", async () => {
    const db = await fresh();
    const operator = await signedInAs(db, "operator");
    const page = await actAs(operator, () => shadowPage({ run: "abc", page: "0", cause: "fred_bug:<script>", days: "999", x: "1" }));
    expect(page.notices.map((n) => n.key).sort()).toEqual(["shadow.cause", "shadow.days", "shadow.notRunId", "shadow.page"]);
    expect(page.notices.map(english)).toContain("“abc” is not a run id (a whole number); showing the newest run.");
    expect(page.readyDays).toBe(7);
    expect(page.params).toEqual({ run: null, cause: null, days: null });
    const missing = await actAs(operator, () => shadowPage({ run: "123456", page: "99999999999", cause: "a\u0000b" }));
    expect(missing.notices.map(english).sort()).toEqual(
      [
        "There is no run 123456; showing the newest run.",
        "“99999999999” is not a page number (a whole number from 1 to 1,000,000); showing the first page.",
        "“cause” in the address holds a NUL character (%00), which no name, id or date has; it was left out.",
      ].sort(),
    );
  });

  it("pages a run's differences, unexplained first, filters them by cause, and gives each run its duration", async () => {
    const db = await fresh();
    // Two runs written as the scheduler writes them (an older one from before durations were kept).
    await db.direct.exec(`
      INSERT INTO console.shadow_runs (at, made_at, finished_at, objects, differences, unexplained)
      VALUES ('2026-11-01T10:00:00Z', '2026-11-01T10:00:00Z', NULL, 10, 0, 0);
      INSERT INTO console.shadow_runs (at, objects, differences, unexplained) VALUES ('2026-11-02T10:00:00Z', 500, ${SHADOW_PAGE_SIZE + 50}, 3);
      INSERT INTO console.shadow_differences (run_id, object_id, state_id, instant, console_has, fred_has, cause)
      SELECT 2, n, 9, '2026-11-02T09:00:00Z', true, false,
             CASE WHEN n > ${SHADOW_PAGE_SIZE + 47} THEN 'unexplained' WHEN n % 2 = 0 THEN 'fred_not_yet_run' ELSE 'fred_bug:session_current_date' END
        FROM generate_series(1, ${SHADOW_PAGE_SIZE + 50}) n;`);
    const support = await signedInAs(db, "support");
    const first = await actAs(support, () => shadowPage({}));
    expect(first.notices).toEqual([]);
    expect(first.totalRuns).toBe(2);
    expect(first.runs.map((r) => r.id)).toEqual([2, 1]);
    expect(first.runs[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(first.runs[1].durationMs).toBeNull();
    expect(first.verdict).toMatchObject({ kind: "unexplained" });
    expect(first.run?.id).toBe(2);
    expect(first.runs[0].causes).toEqual([
      ["fred_bug:session_current_date", 74],
      ["fred_not_yet_run", 73],
      ["unexplained", 3],
    ]);
    expect(first.days.map((d) => [d.day, d.runs, d.differences, d.unexplained])).toEqual([
      ["2026-11-02", 1, SHADOW_PAGE_SIZE + 50, 3],
      ["2026-11-01", 1, 0, 0],
    ]);
    expect(first.differences).toMatchObject({ total: SHADOW_PAGE_SIZE + 50, page: 1, pages: 2, offset: 0 });
    expect(first.differences.rows).toHaveLength(SHADOW_PAGE_SIZE);
    expect(first.differences.rows.slice(0, 3).map((d) => d.cause)).toEqual(["unexplained", "unexplained", "unexplained"]);
    // No such object in the registry: no name, the page says so.
    expect(first.differences.rows[0]).toMatchObject({ name: null, state: "expired", consoleHas: true, fredHas: false });

    const second = await actAs(support, () => shadowPage({ page: "2" }));
    expect(second.differences.rows).toHaveLength(50);
    const beyond = await actAs(support, () => shadowPage({ page: "7" }));
    expect(beyond.notices.map(english)).toEqual(["Page 7 is past the last page of this run's differences; showing the last page."]);
    expect(beyond.differences.page).toBe(2);

    const unexplained = await actAs(support, () => shadowPage({ run: "2", cause: "unexplained" }));
    expect(unexplained.differences).toMatchObject({ total: 3, pages: 1, cause: "unexplained" });
    expect(unexplained.differences.rows.map((d) => d.objectId)).toEqual([
      SHADOW_PAGE_SIZE + 48,
      SHADOW_PAGE_SIZE + 49,
      SHADOW_PAGE_SIZE + 50,
    ]);
    expect(unexplained.params).toEqual({ run: 2, cause: "unexplained", days: null });

    const older = await actAs(support, () => shadowPage({ run: "1", days: "1" }));
    expect(older.run?.id).toBe(1);
    expect(older.differences).toMatchObject({ total: 0, rows: [] });
    expect(older.readyDays).toBe(1);
  });
});

describe.skipIf(!adminUrl || !fredSchemaAvailable())("shadow's page on a FRED 2.52 registry (PostgreSQL)", () => {
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  it("shows FRED's known bug explained and the planted difference unexplained, not ready; beside, it still shows the runs", async () => {
    const registry = await shadowRegistry(adminUrl as string);
    drops.push(registry.fred.drop);
    const { db, planted, bugs } = registry;
    try {
      const runtime = await openDatabase({ databaseUrl: registry.fred.consoleUrl, pgliteDir: "" });
      const run = await runShadow(runtime.sql).finally(() => runtime.close());
      expect(run?.unexplained).toBe(1);
      const support = await signedInAs(db, "support");
      const page = await actAs(support, () => shadowPage({}));
      expect(page.mode).toMatchObject({ origin: "adopted", mode: "shadow" });
      expect(page).toMatchObject({ ready: false, verdict: { kind: "unexplained" }, totalRuns: 1, notices: [] });
      expect(page.run?.id).toBe(run?.id);
      expect(page.days).toHaveLength(1);
      expect(page.days[0]).toMatchObject({ runs: 1, unexplained: 1 });
      // The planted difference first, unexplained, with its object's name.
      expect(page.differences.rows[0]).toMatchObject({
        objectId: planted.object_id,
        name: planted.name,
        state: "serverRenewProhibited",
        consoleHas: false,
        fredHas: true,
        cause: "unexplained",
      });
      const automatic = page.differences.rows.filter((d) => d.objectId === bugs.automatic);
      expect(automatic.length).toBeGreaterThan(0);
      expect(automatic.every((d) => d.name === "bug-automatic.cz" && d.cause.startsWith("fred_bug:"))).toBe(true);
      expect(page.runs[0].causes).toContainEqual(["unexplained", 1]);
      expect(page.runs[0].durationMs).toBeGreaterThan(0);

      // request_wrong_state (or, from 22:00 to 24:00 UTC, the session's CURRENT_DATE, shadow.test.ts).
      const bug = automatic[0].cause;
      const onlyBug = await actAs(support, () => shadowPage({ cause: bug }));
      expect(onlyBug.differences.rows.length).toBeGreaterThan(0);
      expect(onlyBug.differences.rows.every((d) => d.cause === bug)).toBe(true);

      await moveMode(db.direct, "beside");
      const beside = await actAs(support, () => shadowPage({}));
      expect(beside.mode).toMatchObject({ origin: "adopted", mode: "beside" });
      expect(beside.runs.map((r) => r.id)).toEqual([run?.id]);
      expect(beside.differences.total).toBe(run?.differences.length);
    } finally {
      await registry.close();
    }
  }, 300_000);
});
