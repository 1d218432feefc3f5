// Shadow's comparison (issue 40): the console's rules against the states FRED's engine recorded, on a
// FRED 2.52 registry in shadow mode (PostgreSQL), each difference explained; and readiness to hand
// over, from the runs.
import { afterAll, describe, expect, it } from "vitest";
import { createFredDatabase, fredSchemaAvailable } from "../../testing/fred";
import { shadowRegistry } from "../../testing/shadow";
import { moveMode, shadowReport } from "../db/adoption-mode";
import { openDatabase } from "../db/client";
import { migrate } from "../db/migrations";
import { startStateScheduler } from "./scheduler";
import { runShadow, shadowCause, shadowReadiness, shadowSummary } from "./shadow";

const adminUrl = process.env.TEST_DATABASE_URL;
const DAY = 86_400_000;

describe("shadow's readiness and causes (pure)", () => {
  const t0 = Date.parse("2026-11-01T10:00:00Z");
  const runs = (unexplained: number[]) => unexplained.map((u, i) => ({ at: new Date(t0 + i * DAY), unexplained: u }));

  it("is ready after seven days of daily runs with no unexplained difference since the last one that had one", () => {
    expect(shadowReadiness([], 7).ready).toBe(false);
    // Clean runs a day apart from day 1 to day 8: seven days.
    expect(shadowReadiness(runs([1, 0, 0, 0, 0, 0, 0, 0, 0]), 7).ready).toBe(true);
    expect(shadowReadiness(runs([1, 0, 0, 0, 0, 0, 0, 0]), 7)).toMatchObject({ ready: false, reason: expect.stringMatching(/6\.0 day/) });
    expect(shadowReadiness(runs([0, 0, 0, 0, 0, 0, 0, 0, 1]), 7).ready).toBe(false);
    expect(shadowReadiness(runs([0, 0, 0, 0, 0, 0, 0, 0]), 3).ready).toBe(true);
    // A gap of more than a day without a run breaks the streak.
    const gap = [
      { at: new Date(t0), unexplained: 0 },
      { at: new Date(t0 + 3 * DAY), unexplained: 0 },
      { at: new Date(t0 + 8 * DAY), unexplained: 0 },
    ];
    expect(shadowReadiness(gap, 7)).toMatchObject({ ready: false, reason: expect.stringMatching(/more than a day/) });
  });

  it("explains a difference by FRED's known bug first, then by FRED's run not yet made after the console's instant", () => {
    const bugs = new Map([["5:*", "request_wrong_state" as const]]);
    const lastRun = new Date(t0);
    const after = new Date(t0 + 1000);
    const before = new Date(t0 - 1000);
    expect(shadowCause({ objectId: 5, stateId: 9, consoleInstant: before, manual: false }, bugs, lastRun, lastRun)).toBe(
      "fred_bug:request_wrong_state",
    );
    expect(shadowCause({ objectId: 6, stateId: 9, consoleInstant: after, manual: false }, bugs, lastRun, lastRun)).toBe("fred_not_yet_run");
    expect(shadowCause({ objectId: 6, stateId: 9, consoleInstant: before, manual: false }, bugs, lastRun, lastRun)).toBe("unexplained");
    // A state the console never gave the object is never FRED's run not yet made.
    expect(shadowCause({ objectId: 6, stateId: 9, consoleInstant: null, manual: false }, bugs, lastRun, lastRun)).toBe("unexplained");
    // Manual states: against the console's last pass of FRED's function for the requests.
    expect(shadowCause({ objectId: 6, stateId: 2, consoleInstant: after, manual: true }, bugs, new Date(t0 + 5000), lastRun)).toBe(
      "fred_not_yet_run",
    );
  });
});

describe.skipIf(!adminUrl || !fredSchemaAvailable())("shadow's comparison on a FRED 2.52 registry (PostgreSQL)", () => {
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  it("finds FRED's known bug and a planted difference, explains the one, leaves the other unexplained, and is ready after seven clean days", async () => {
    const registry = await shadowRegistry(adminUrl as string);
    drops.push(registry.fred.drop);
    const { fred, db, client, planted } = registry;
    const { automatic, canceled } = registry.bugs;
    try {
      // As the running console's role: a run only reads the registry and adds to the shadow tables.
      const runtime = await openDatabase({ databaseUrl: fred.consoleUrl, pgliteDir: "" });
      const first = await runShadow(runtime.sql).finally(() => runtime.close());
      expect(first).not.toBeNull();
      const run = first as NonNullable<typeof first>;
      const cause = (objectId: number) => run.differences.filter((d) => d.objectId === objectId).map((d) => d.cause);
      expect(run.objects).toBeGreaterThan(200);
      // Each planted FRED bug is found and explained as one of FRED's known bugs: between 22:00 and
      // 24:00 UTC the same objects also meet "FRED's CURRENT_DATE: the session's date" (the cron's UTC
      // session is a day behind the registry's), which may be named first.
      for (const [objectId, bug] of [
        [automatic, "request_wrong_state"],
        [canceled, "request_canceled_later"],
      ] as const) {
        expect(cause(objectId).length, bug).toBeGreaterThan(0);
        expect(
          cause(objectId).every((c) => c.startsWith("fred_bug:")),
          bug,
        ).toBe(true);
        expect(
          cause(objectId).some((c) => c === `fred_bug:${bug}` || c === "fred_bug:session_current_date"),
          bug,
        ).toBe(true);
      }
      expect(run.differences.filter((d) => d.cause === "unexplained")).toEqual([
        expect.objectContaining({ objectId: planted.object_id, stateId: planted.state_id, fredHas: true, consoleHas: false }),
      ]);
      expect(run.unexplained).toBe(1);
      const stored = await client.query("SELECT run_id, cause FROM console.shadow_differences WHERE run_id = $1", [run.id]);
      expect(stored.rowCount).toBe(run.differences.length);

      const notReady = await shadowSummary(db.direct);
      expect(notReady.ready).toBe(false);
      expect(notReady.text).toMatch(/fred_bug:(request_wrong_state|session_current_date)/);
      expect(notReady.text).toMatch(new RegExp(`unexplained: serverRenewProhibited on \\S+ \\(object ${planted.object_id}\\)`));
      expect(notReady.text).toMatch(/Not ready to hand over/);
      // charge's dry run quotes it.
      expect(await db.direct.transaction((tx) => shadowReport(tx))).toMatch(/shadow's report[\s\S]*Not ready to hand over/);

      // The planted row goes; a run a day for seven days (a clock, no waiting): FRED's procedure has
      // not run since, so what the rules change meanwhile is FRED's run not yet made, never unexplained.
      await client.query("DELETE FROM object_state WHERE object_id = $1 AND state_id = $2", [planted.object_id, planted.state_id]);
      for (let day = 1; day <= 7; day++) {
        const clean = await runShadow(db.direct, { at: new Date(run.at.getTime() + day * DAY) });
        expect(clean?.differences.filter((d) => d.cause === "unexplained")).toEqual([]);
        expect((await shadowSummary(db.direct)).ready).toBe(false);
      }
      const last = await runShadow(db.direct, { at: new Date(run.at.getTime() + 8 * DAY) });
      expect(last?.unexplained).toBe(0);
      expect(last?.differences.some((d) => d.cause === "fred_not_yet_run")).toBe(true);
      const ready = await shadowSummary(db.direct, { days: 7 });
      expect(ready.ready).toBe(true);
      expect(ready.text).toMatch(/Ready to hand over/);
      expect((await shadowSummary(db.direct, { days: 8 })).ready).toBe(false);
    } finally {
      await registry.close();
    }
  }, 300_000);

  it("runs only in shadow mode, and the scheduler runs it there once per SHADOW_INTERVAL_MINUTES", async () => {
    const fred = await createFredDatabase(adminUrl as string);
    drops.push(fred.drop);
    const db = await openDatabase({ databaseUrl: fred.url, pgliteDir: "" });
    try {
      await migrate(db.direct, undefined, { adoptAs: "charge" });
      expect(await runShadow(db.direct)).toBeNull();
      await moveMode(db.direct, "beside");
      expect(await runShadow(db.direct)).toBeNull();
      const runs = async () => (await db.direct.query<{ n: number }>("SELECT count(*)::int AS n FROM console.shadow_runs"))[0].n;
      const lines: string[] = [];
      const beside = startStateScheduler(
        async () => db.direct,
        3_600_000,
        (line) => lines.push(line),
        undefined,
        60 * 60_000,
      );
      await beside.tick();
      beside.stop();
      expect(await runs()).toBe(0);
      await moveMode(db.direct, "shadow");
      const shadow = startStateScheduler(
        async () => db.direct,
        3_600_000,
        (line) => lines.push(line),
        undefined,
        60 * 60_000,
      );
      try {
        await shadow.tick();
        expect(await runs()).toBe(1);
        // The newest run is less than an hour old: the next tick leaves it.
        await shadow.tick();
        expect(await runs()).toBe(1);
      } finally {
        shadow.stop();
      }
      expect(lines.join("\n")).toMatch(/shadow: 0 difference\(s\)/);
    } finally {
      await db.close();
    }
  }, 120_000);
});
