import { afterEach, describe, expect, it } from "vitest";
import { seedDemo } from "../../prisma/demo/load";
import { Rng } from "../../prisma/demo/random";
import { testBackends } from "../../testing/databases";
import { changeAt, historyProblems, wholeHistory } from "../../testing/registry";
import type { Database } from "../db/client";
import type { SqlExecutor } from "../db/driver";
import { runStateEngine } from "./engine";

// Properties of the engine on random registries (the demo generator with other seeds), stepped
// through random instants over a year and a half with random changes made between the steps.
const DEMO_NOW = new Date("2026-11-22T10:00:00Z");
const START = Date.parse("2026-06-01T00:00:00Z");
const HOUR = 3_600_000;

interface Step {
  at: Date;
  /** A change made just before the step's run, at an instant after the previous run. */
  change: { at: string; sql: string; params: unknown[] } | null;
}

async function randomSteps(db: SqlExecutor, seed: number, count: number): Promise<Step[]> {
  const rng = new Rng(seed, "engine-steps", 0);
  const domains = (await db.query<{ id: number }>("SELECT id FROM domain ORDER BY id")).map((r) => r.id);
  const contacts = (await db.query<{ id: number }>("SELECT id FROM contact ORDER BY id")).map((r) => r.id);
  const nssets = (await db.query<{ id: number }>("SELECT id FROM nsset ORDER BY id")).map((r) => r.id);
  const requests = (await db.query<{ id: number }>("SELECT id FROM object_state_request ORDER BY id")).map((r) => r.id);
  const steps: Step[] = [];
  let t = START;
  for (let i = 0; i < count; i++) {
    // Mostly hours apart, sometimes weeks: runs land on both sides of many thresholds.
    const gap = rng.chance(0.7) ? rng.int(1, 48) * HOUR : rng.int(3, 40) * 24 * HOUR;
    const changeAt = new Date(t + rng.int(1, Math.max(1, gap / 60_000 - 1)) * 60_000).toISOString();
    t += gap;
    let change: Step["change"] = null;
    const pick = <T>(list: T[]) => list[rng.int(0, list.length - 1)];
    switch (rng.int(0, 6)) {
      case 0:
        change = { at: changeAt, sql: "UPDATE domain SET nsset = NULL WHERE id = $1", params: [pick(domains)] };
        break;
      case 1:
        change = { at: changeAt, sql: "UPDATE domain SET nsset = $2 WHERE id = $1", params: [pick(domains), pick(nssets)] };
        break;
      case 2:
        change = {
          at: changeAt,
          sql: "UPDATE domain SET exdate = exdate + $2::int WHERE id = $1",
          params: [pick(domains), rng.int(-400, 400)],
        };
        break;
      case 3:
        change = { at: changeAt, sql: "UPDATE domain SET registrant = $2 WHERE id = $1", params: [pick(domains), pick(contacts)] };
        break;
      case 4:
        change = {
          at: changeAt,
          sql: "UPDATE object_state_request SET canceled = $2 WHERE id = $1 AND canceled IS NULL",
          params: [pick(requests), changeAt],
        };
        break;
      case 5:
        change = {
          at: changeAt,
          sql: `INSERT INTO object_state_request (object_id, state_id, valid_from, valid_to)
                SELECT $1, $2, $3::timestamptz + make_interval(hours => $4), $3::timestamptz + make_interval(hours => $4 + $5)
                 WHERE NOT EXISTS (SELECT 1 FROM object_state_request WHERE object_id = $1 AND state_id = $2)`,
          params: [pick(domains), pick([2, 5, 6, 1]), changeAt, rng.int(0, 500), rng.int(1, 2000)],
        };
        break;
      default:
        change = null;
    }
    steps.push({ at: new Date(t), change });
  }
  return steps;
}

describe.each(testBackends())("state engine properties on $name", (backend) => {
  const drops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(drops.splice(0).map((d) => d()));
  });
  async function registry(seed: number): Promise<Database> {
    const { db, drop } = await backend.createMigrated();
    drops.push(drop);
    await seedDemo(db.direct, { domains: 150, seed, now: DEMO_NOW, timeZone: "Europe/Prague" }, () => {}, null);
    return db;
  }

  async function play(db: Database, steps: Step[], mode: "incremental" | "full"): Promise<void> {
    await runStateEngine(db.sql, { at: new Date(START), full: true });
    for (const step of steps) {
      if (step.change) {
        const { sql, params } = step.change;
        await changeAt(db.sql, step.change.at, (tx) => tx.query(sql, params));
      }
      await runStateEngine(db.sql, { at: step.at, full: mode === "full" });
    }
  }

  for (const seed of [21, 22]) {
    it(`seed ${seed}: the incremental runs and full recomputation write the same history, which is sound and stable`, async () => {
      const [incremental, full] = await Promise.all([registry(seed), registry(seed)]);
      const steps = await randomSteps(incremental.sql, seed, 40);
      await play(incremental, steps, "incremental");
      await play(full, steps, "full");
      const history = await wholeHistory(incremental.sql);
      expect(history.length).toBeGreaterThan(100);
      expect(await wholeHistory(full.sql)).toEqual(history);
      expect(await historyProblems(incremental.sql)).toEqual([]);

      // Running again at the last instant changes nothing, incrementally or fully.
      const last = steps[steps.length - 1].at;
      expect(await runStateEngine(incremental.sql, { at: last })).toMatchObject({ opened: 0, closed: 0 });
      expect(await runStateEngine(incremental.sql, { at: last, full: true })).toMatchObject({ opened: 0, closed: 0 });
      expect(await wholeHistory(incremental.sql)).toEqual(history);
    });
  }

  it("running at t1 and then t2 gives the same history as running once at t2 when nothing changes", async () => {
    const [stepped, once] = await Promise.all([registry(23), registry(23)]);
    const steps = (await randomSteps(stepped.sql, 23, 30)).map((s) => ({ ...s, change: null }));
    await play(stepped, steps, "incremental");
    await runStateEngine(once.sql, { at: new Date(START), full: true });
    await runStateEngine(once.sql, { at: steps[steps.length - 1].at });
    expect(await wholeHistory(stepped.sql)).toEqual(await wholeHistory(once.sql));
  });
});
