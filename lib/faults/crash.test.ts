import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../prisma/demo/load";
import { testBackends } from "../../testing/databases";
import { checkDatabase } from "../check";
import type { Database } from "../db/client";
import { runStateEngine } from "../states/engine";

// The console process killed (SIGKILL) in the middle of a bulk apply and of a state engine run, on
// PostgreSQL. CRASH_ROUNDS sets the kills of each kind (npm run test:faults runs more).
const postgres = testBackends().find((b) => b.name === "postgres");
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);
const DAY = 86_400_000;

/** Starts the child, kills it `afterMs` after it said STARTED; resolves with how it ended. */
function killMidway(
  url: string,
  what: "bulk" | "tick",
  env: Record<string, string>,
  afterMs: number,
  /** Also ends its database session at that moment, as a crash of the server's side would. */
  terminate?: Database,
): Promise<"killed" | "finished"> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", path.join("testing", "crash-child.ts"), what], {
      env: { ...process.env, ...env, DATABASE_URL: url, NEXTAUTH_SECRET: "x".repeat(40), PGAPPNAME: "crash-child" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("STARTED") && !timer)
        timer = setTimeout(
          async () => {
            // A statement whose client dies ends within about a second (the console's connections set
            // client_connection_check_interval); ending the backend while its run is under way aborts
            // it at once (found by polling, then cut a little later).
            for (let i = 0; terminate && i < 500; i++) {
              const active = await terminate.sql.query(
                "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'crash-child' AND state = 'active' AND query LIKE '%state_engine_run%'",
              );
              if (active.length > 0) break;
              await new Promise((resolve) => setTimeout(resolve, 2));
            }
            if (terminate) await new Promise((resolve) => setTimeout(resolve, afterMs / 4));
            await terminate?.sql.query(
              "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'crash-child' AND state = 'active'",
            );
            child.kill("SIGKILL");
          },
          terminate ? 0 : afterMs,
        );
    });
    child.stderr.on("data", (d) => {
      err += d;
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (signal === "SIGKILL" || terminate) resolve(out.includes("DONE") ? "finished" : "killed");
      else if (code === 0) resolve("finished");
      else reject(new Error(`crash child failed (${code}): ${err}`));
    });
  });
}

describe.runIf(postgres)("the console killed in the middle of its work (PostgreSQL)", () => {
  let db: Database;
  let reference: Database;
  let drops: (() => Promise<void>)[] = [];
  let url: string;
  // History up to ten days before AT: a run to AT has ten days of work.
  const AT = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const options = { domains: 3000, seed: 21, now: new Date(AT.getTime() - 10 * DAY), timeZone: "Europe/Prague" };

  beforeAll(async () => {
    if (!postgres) return;
    const created = await postgres.createMigrated();
    const other = await postgres.createMigrated();
    ({ db } = created);
    reference = other.db;
    url = created.url as string;
    drops = [created.drop, other.drop];
    for (const d of [db, reference]) {
      await seedDemo(d.direct, options, () => {}, options.now);
    }
  });
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  const history = (d: Database) =>
    d.sql.query<{ row: string }>(
      "SELECT concat_ws(' ', object_id, state_id, valid_from, valid_to) AS row FROM object_state ORDER BY object_id, state_id, valid_from",
    );

  it(`a state engine run killed ${ROUNDS} times resumes from its cursor to the history of an uninterrupted run`, async () => {
    // How long the run takes uninterrupted (on the copy), so the kills land inside it.
    const started = performance.now();
    await runStateEngine(reference.sql, { at: AT });
    const runMs = performance.now() - started;
    const ended: string[] = [];
    // Each round brings history a step further towards AT, so every round has work to be cut off in.
    const from = options.now.getTime();
    for (let round = 0; round < ROUNDS; round++) {
      const at = new Date(from + ((round + 1) * (AT.getTime() - from)) / (ROUNDS + 1));
      const after = (runMs / (ROUNDS + 1)) * (0.2 + 0.6 * Math.random());
      const cursorOf = async () => (await db.sql.query<{ cursor: Date | null }>("SELECT cursor FROM console.state_engine"))[0].cursor;
      const before = await cursorOf();
      const end = await killMidway(url, "tick", { CRASH_AT: at.toISOString() }, after, round % 2 === 0 ? db : undefined);
      // A statement whose client died may still be running (until the server looks at its client,
      // each second): wait until the child's sessions are gone.
      for (let i = 0; i < 200; i++) {
        const left = await db.sql.query("SELECT 1 FROM pg_stat_activity WHERE application_name = 'crash-child'");
        if (left.length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const cursor = await cursorOf();
      // Either the run finished (cursor at its instant) or it left no trace (cursor where it was).
      expect([before?.getTime(), at.getTime()]).toContain(cursor?.getTime());
      ended.push(end === "killed" && cursor?.getTime() === before?.getTime() ? "rolled back" : end);
    }
    const caughtUp = await runStateEngine(db.sql, { at: AT });
    expect(["incremental", "behind"]).toContain(caughtUp.kind);
    const [resumed, uninterrupted] = [await history(db), await history(reference)];
    expect(resumed.length).toBe(uninterrupted.length);
    expect(resumed).toEqual(uninterrupted);
    expect((await checkDatabase(db.sql)).checks.filter((c) => c.violations > 0)).toEqual([]);
    const killed = ended.filter((e) => e !== "finished").length;
    const rolledBack = ended.filter((e) => e === "rolled back").length;
    console.log(
      `crash: state engine run (${runMs.toFixed(0)} ms uninterrupted) killed ${killed} of ${ROUNDS} times, ${rolledBack} cut off mid-run and rolled back; history identical to an uninterrupted run (${resumed.length} rows)`,
    );
  }, 600_000);

  it(`a bulk apply killed ${ROUNDS} times leaves all of it or none`, async () => {
    const names = (
      await db.sql.query<{ name: string }>(
        "SELECT o.name FROM object_registry o JOIN domain d ON d.id = o.id WHERE o.erdate IS NULL ORDER BY o.id LIMIT 600",
      )
    ).map((r) => r.name);
    const seen: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const batch = randomUUID();
      // Each round its own future week, so a round that got through does not refuse the next.
      const from = new Date(Date.now() + (10 + 2 * round) * DAY).toISOString();
      const to = new Date(Date.now() + (11 + 2 * round) * DAY).toISOString();
      const ended = await killMidway(
        url,
        "bulk",
        { CRASH_NAMES: names.join("\n"), CRASH_BATCH: batch, CRASH_FROM: from, CRASH_TO: to },
        // The first round early, so at least one kill lands before the commit however fast the apply is.
        round === 0 ? 50 : 50 + Math.random() * 1500,
      );
      // The server notices the dead client and rolls its transaction back.
      for (let i = 0; i < 50; i++) {
        const [{ busy }] = await db.sql.query<{ busy: number }>(
          "SELECT count(*)::int AS busy FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'",
        );
        if (busy === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const [{ requests, audited }] = await db.sql.query<{ requests: number; audited: number }>(
        `SELECT (SELECT count(*)::int FROM console.request_meta WHERE batch_id = $1) AS requests,
                (SELECT count(*)::int FROM console.audit_log WHERE result = 'ok' AND input->>'batchId' = $1::text) AS audited`,
        [batch],
      );
      expect([0, names.length]).toContain(requests);
      expect(audited).toBe(requests === 0 ? 0 : names.length + 1);
      seen.push(`${ended}: ${requests === 0 ? "none" : "all"}`);
    }
    await runStateEngine(db.sql);
    expect((await checkDatabase(db.sql)).checks.filter((c) => c.violations > 0)).toEqual([]);
    console.log(`crash: bulk apply of ${names.length} objects killed ${ROUNDS} times — ${seen.join(", ")}`);
    expect(seen.some((s) => s.startsWith("killed: none"))).toBe(true);
  }, 600_000);
});
