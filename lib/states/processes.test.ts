import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../prisma/demo/load";
import { testBackends } from "../../testing/databases";
import { runScript } from "../../testing/run-script";
import type { Database } from "../db/client";

// Several console processes on one PostgreSQL: the state engine's work is done once, whoever asks.
const postgres = testBackends().find((b) => b.name === "postgres");
const DAY = 86_400_000;

describe.runIf(postgres)("the state engine run by two processes at once", () => {
  let db: Database;
  let drop: () => Promise<void>;
  let url: string;

  beforeAll(async () => {
    if (!postgres) return;
    const created = await postgres.createMigrated();
    ({ db, drop } = created);
    url = created.url as string;
    // History up to two days ago: a run now has two days of work.
    const then = new Date(Date.now() - 2 * DAY);
    await seedDemo(db.direct, { domains: 3000, seed: 11, now: then, timeZone: "Europe/Prague" }, () => {}, then);
  });
  afterAll(() => drop?.());

  const history = () =>
    db.sql.query<{ object_id: number; state_id: number; valid_from: Date; valid_to: Date | null }>(
      "SELECT object_id, state_id, valid_from, valid_to FROM object_state ORDER BY object_id, state_id, valid_from",
    );

  it("does the scheduled work exactly once: one process runs it, the other finds it busy or nothing due", async () => {
    const before = (await history()).length;
    const env = { DATABASE_URL: url, NEXTAUTH_SECRET: "x".repeat(40) };
    // One instant for every run: a transition due between two runs' own "now"s would give the second work.
    const at = ["--at", new Date().toISOString()];
    const [a, b] = await Promise.all([runScript("states-update.ts", at, env), runScript("states-update.ts", at, env)]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const lines = [a.stdout, b.stdout].map((out) => out.trim().split("\n").at(-1) ?? "");
    const worked = lines.filter((l) => /state\(s\) opened/.test(l) && !/ 0 state\(s\) opened, 0 closed/.test(l));
    const idle = lines.filter((l) => /^Another run of the state engine is in progress/.test(l) || / 0 state\(s\) opened, 0 closed/.test(l));
    expect(worked).toHaveLength(1);
    expect(idle).toHaveLength(1);

    // The same history as one run alone would write: no period twice, none overlapping another of its state.
    const after = await history();
    expect(after.length).toBeGreaterThan(before);
    const [{ overlaps }] = await db.sql.query<{ overlaps: number }>(
      `SELECT count(*)::int AS overlaps FROM object_state a JOIN object_state b
          ON a.object_id = b.object_id AND a.state_id = b.state_id AND a.id < b.id
         AND tstzrange(a.valid_from, a.valid_to) && tstzrange(b.valid_from, b.valid_to)`,
    );
    expect(overlaps).toBe(0);
    const again = await runScript("states-update.ts", at, env);
    expect(again.stdout).toMatch(/ 0 state\(s\) opened, 0 closed/);
  });
});
