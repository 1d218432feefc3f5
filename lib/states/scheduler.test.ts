import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { createDomain, createObject, registryAt, TYPE } from "../../testing/registry";
import type { Database } from "../db/client";
import type { SqlExecutor } from "../db/driver";
import { runStateEngine } from "./engine";
import { startStateScheduler } from "./scheduler";

// The scheduler with an injected clock, across the end of summer time in Europe/Prague
// (2026-10-25 03:00 CEST → 02:00 CET) and through clock jumps back and forward.
const START = new Date("2026-10-24T12:00:00Z");
const HOUR = 3_600_000;

async function build(tx: SqlExecutor): Promise<void> {
  const holder = await createObject(tx, TYPE.contact, "DST-HOLDER", "2020-01-01T00:00:00Z");
  const nsset = await createObject(tx, TYPE.nsset, "NS-DST", "2020-01-01T00:00:00Z");
  // Unguarded and out of the zone 30 days after expiry at 14:00 local: 2026-10-25 14:00 CET.
  await createDomain(tx, { name: "autumn.cz", crdate: "2020-01-01T00:00:00Z", exdate: "2026-09-25", registrant: holder, nsset });
  // Expires on the day of the change: at 00:00 CEST, before it.
  await createDomain(tx, { name: "changeday.cz", crdate: "2020-01-01T00:00:00Z", exdate: "2026-10-25", registrant: holder, nsset });
}

describe.each(testBackends())("the state scheduler's clock on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await registryAt(backend, START, build));
  });
  afterAll(() => drop());

  const history = (database: Database) =>
    database.sql.query<{ name: string; state: string; from: string; to: string | null }>(
      `SELECT o.name, s.name AS state, to_char(os.valid_from, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "from",
              to_char(os.valid_to, 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "to"
         FROM object_state os JOIN object_registry o ON o.id = os.object_id JOIN enum_object_states s ON s.id = os.state_id
        ORDER BY o.name, s.name, os.valid_from`,
    );
  const since = (rows: Awaited<ReturnType<typeof history>>, name: string, state: string) =>
    rows.filter((r) => r.name === name && r.state === state).map((r) => r.from);

  it("ticks hourly over the change, ignores a clock that jumps back, and catches up after one that jumps ahead", async () => {
    let now = START;
    const lines: string[] = [];
    const scheduler = startStateScheduler(
      async () => db.sql,
      86_400_000,
      (line) => lines.push(line),
      () => now,
    );
    scheduler.stop(); // ticks are driven by the test
    try {
      for (let t = START.getTime() + HOUR; t <= Date.parse("2026-10-26T00:00:00Z"); t += HOUR) {
        now = new Date(t);
        const run = await scheduler.tick();
        expect(run?.kind).toBe("incremental");
      }
      let rows = await history(db);
      // Exact instants, not the tick that found them: 14:00 CET is 13:00 UTC after the change.
      expect(since(rows, "autumn.cz", "unguarded")).toEqual(["2026-10-25T13:00:00Z"]);
      expect(since(rows, "autumn.cz", "outzone")).toEqual(["2026-10-25T13:00:00Z"]);
      // 00:00 CEST on the day of the change is 22:00 UTC the day before.
      expect(since(rows, "changeday.cz", "expired")).toEqual(["2026-10-24T22:00:00Z"]);

      // The machine's clock jumps back a day: nothing is rewritten, the run says it is behind.
      const before = JSON.stringify(rows);
      now = new Date("2026-10-25T00:00:00Z");
      expect(await scheduler.tick()).toMatchObject({ kind: "behind", opened: 0, closed: 0 });
      expect(JSON.stringify(await history(db))).toBe(before);

      // It jumps a month ahead: one tick catches up, each change at its own instant.
      now = new Date("2026-11-26T00:00:00Z");
      const caughtUp = await scheduler.tick();
      expect(caughtUp).toMatchObject({ kind: "incremental" });
      expect(caughtUp && "opened" in caughtUp ? caughtUp.opened : 0).toBeGreaterThan(0);
      rows = await history(db);
      // exdate + 61 days at 00:00 CET (FRED's parameters), exdate + 30 days at 14:00 CET.
      expect(since(rows, "autumn.cz", "deleteCandidate")).toEqual(["2026-11-24T23:00:00Z"]);
      expect(since(rows, "changeday.cz", "unguarded")).toEqual(["2026-11-24T13:00:00Z"]);
      expect(since(rows, "changeday.cz", "deleteCandidate")).toEqual([]); // not before 2026-12-24 23:00 UTC
      expect(lines.some((l) => /state engine: incremental run over \d+ object\(s\), \d+ state\(s\) opened/.test(l))).toBe(true);

      // The same history as one run straight to the end on a fresh copy of the registry.
      const reference = await registryAt(backend, START, build);
      try {
        await runStateEngine(reference.db.sql, { at: now });
        expect(rows).toEqual(await history(reference.db));
      } finally {
        await reference.drop();
      }
    } finally {
      scheduler.stop();
      await scheduler.planned();
    }
  });

  it("keeps running after a failed tick, and the next tick does the work", async () => {
    const lines: string[] = [];
    let broken = true;
    const scheduler = startStateScheduler(
      async () => {
        if (broken) throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
        return db.sql;
      },
      86_400_000,
      (line) => lines.push(line),
      () => new Date("2026-11-27T00:00:00Z"),
    );
    scheduler.stop();
    expect(await scheduler.tick()).toBeNull();
    expect(lines).toEqual(["state engine: run failed, the next tick retries: connect ECONNREFUSED 127.0.0.1:5432"]);
    broken = false;
    expect(await scheduler.tick()).toMatchObject({ kind: "incremental" });
    await scheduler.planned();
  });

  // Last: its ticks run at the real present, past the other tests' instants.
  it("writes the forecast's stored plan beside its ticks: whole first, then the objects changed since", async () => {
    const lines: string[] = [];
    const scheduler = startStateScheduler(
      async () => db.sql,
      86_400_000,
      (line) => lines.push(line),
    );
    scheduler.stop();
    try {
      await db.sql.query("UPDATE console.state_plan_status SET built_at = NULL");
      await scheduler.tick();
      await scheduler.planned();
      const trusted = async () => (await db.sql.query<{ t: boolean }>("SELECT console.state_plan_trusted() AS t"))[0].t;
      expect(await trusted()).toBe(true);
      expect(lines.some((l) => /^state plan: written for \d+ object\(s\), \d+ period\(s\)/.test(l))).toBe(true);
      // A renew marks its domain; the next tick's pass writes its plan again and takes the mark.
      await db.sql.query("UPDATE domain SET exdate = exdate + 365 WHERE id = (SELECT id FROM object_registry WHERE name = 'changeday.cz')");
      const marks = async () => (await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM console.state_plan_stale"))[0].n;
      expect(await marks()).toBeGreaterThan(0);
      await scheduler.tick();
      await scheduler.planned();
      expect(await marks()).toBe(0);
      expect(await trusted()).toBe(true);
    } finally {
      await scheduler.planned();
    }
  });
});
