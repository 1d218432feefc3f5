// The console's engine against FRED's own update_object_states (fred-db 2.52.0, PostgreSQL only):
// two databases loaded with FRED's structure.sql as its README says, the same registry in both (the
// demo generator with several seeds, plus hand-made objects at every threshold of every rule and
// the cases of FRED's known bugs), FRED's procedure run in one and the console's engine at exactly
// that instant in the other. The open (object, state) sets must be identical except where one of
// FRED's known bugs explains the difference; each is counted and printed.
import { execFileSync } from "node:child_process";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { TABLE_ORDER } from "../../prisma/demo/generate";
import { seedDemo } from "../../prisma/demo/load";
import {
  createFredDatabase,
  fredBugCases,
  fredEdgeCases,
  fredKnownBugCauses,
  fredSchemaAvailable,
  postgresProgram,
  withClient,
} from "../../testing/fred";
import { openDatabase } from "../db/client";
import { migrate } from "../db/migrations";

const adminUrl = process.env.TEST_DATABASE_URL;
const ZONE = "Europe/Prague";

/** The registry's tables, copied from the console's database into FRED's: the demo's own, and the history. */
const REGISTRY_TABLES = [...TABLE_ORDER, "object_state"];

type Pair = { object_id: number; state_id: number };

async function openPairs(client: pg.Client): Promise<Set<string>> {
  const { rows } = await client.query<Pair>(
    `SELECT s.object_id, s.state_id FROM object_state s JOIN object_registry o ON o.id = s.object_id
      WHERE s.valid_to IS NULL AND o.erdate IS NULL`,
  );
  return new Set(rows.map((r) => `${r.object_id}:${r.state_id}`));
}

describe.skipIf(!adminUrl || !fredSchemaAvailable())("the console's engine against FRED's update_object_states(0)", () => {
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  it.each([1, 2, 3])(
    "agrees with FRED on a demo registry (seed %i) and every threshold, except FRED's known bugs",
    async (seed) => {
      const fred = await createFredDatabase(adminUrl as string);
      const console_ = await createFredDatabase(adminUrl as string);
      drops.push(fred.drop, console_.drop);

      // The console's database: adopted, demo registry, edge cases, FRED's bug cases.
      const db = await openDatabase({ databaseUrl: console_.url, pgliteDir: "" });
      try {
        await migrate(db.direct, undefined, { adoptAs: "charge" });
        await seedDemo(db.direct, { domains: 1000, seed, now: new Date(), timeZone: ZONE });
      } finally {
        await db.close();
      }
      await withClient(console_.url, async (client) => {
        await client.query(fredEdgeCases(ZONE));
        await client.query("ALTER TABLE object_state_request DISABLE TRIGGER console_1_request_check");
        await client.query(fredBugCases(ZONE));
        await client.query("ALTER TABLE object_state_request ENABLE TRIGGER console_1_request_check");
      });
      // The same registry in FRED's database, FRED's triggers quiet while it is copied in.
      const dump = execFileSync(
        postgresProgram("pg_dump"),
        ["--data-only", "--disable-triggers", ...REGISTRY_TABLES.flatMap((t) => ["-t", `public.${t}`]), console_.url],
        { maxBuffer: 1 << 30 },
      );
      execFileSync(postgresProgram("psql"), ["-q", "-X", "-v", "ON_ERROR_STOP=1", "-d", fred.url], {
        input: dump,
        stdio: ["pipe", "ignore", "pipe"],
      });

      const a = new pg.Client({ connectionString: fred.url });
      const b = new pg.Client({ connectionString: console_.url });
      await a.connect();
      await b.connect();
      try {
        // FRED's cron, in a UTC session: its instant is the transaction's. The request that ends
        // exactly then is written into both databases first.
        await a.query("SET TimeZone TO 'UTC'");
        await a.query("BEGIN");
        const at = (await a.query<{ at: string }>("SELECT now()::text AS at")).rows[0].at;
        const endsAtRun = `INSERT INTO object_state_request (id, object_id, state_id, valid_from, valid_to)
        SELECT 999999, id, 3, $1::timestamptz AT TIME ZONE 'UTC' - interval '1 day', $1::timestamptz AT TIME ZONE 'UTC'
          FROM object_registry WHERE name = 'bug-ends-at-run.cz'`;
        await a.query(endsAtRun, [at]);
        await b.query(endsAtRun, [at]);
        await a.query("SELECT update_object_states(0)");
        await a.query("COMMIT");
        // The console's engine at exactly that instant, every object.
        await b.query("SELECT * FROM console.state_engine_run($1::timestamptz, true)", [at]);

        const fredPairs = await openPairs(a);
        const consolePairs = await openPairs(b);
        const causes = await fredKnownBugCauses(b, at, ZONE);
        const names = new Map(
          (await b.query<{ id: number; name: string }>("SELECT id, name FROM enum_object_states")).rows.map((r) => [r.id, r.name]),
        );
        const objects = new Map(
          (await b.query<{ id: number; name: string }>("SELECT id, name FROM object_registry")).rows.map((r) => [r.id, r.name]),
        );
        const tally = new Map<string, number>();
        const unexplained: string[] = [];
        const differences = [
          ...[...fredPairs].filter((p) => !consolePairs.has(p)).map((p) => [p, "FRED only"] as const),
          ...[...consolePairs].filter((p) => !fredPairs.has(p)).map((p) => [p, "console only"] as const),
        ];
        for (const [pair, side] of differences) {
          const [object] = pair.split(":");
          const cause = causes.get(pair) ?? causes.get(`${object}:*`);
          const label = `${names.get(Number(pair.split(":")[1]))} on ${objects.get(Number(object))} (${side})`;
          if (cause) tally.set(cause, (tally.get(cause) ?? 0) + 1);
          else unexplained.push(label);
        }
        const agreed = [...fredPairs].filter((p) => consolePairs.has(p)).length;
        const stampedAtRun = (
          await a.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM object_state WHERE valid_from = $1::timestamptz AT TIME ZONE 'UTC'",
            [at],
          )
        ).rows[0].n;
        console.log(
          [
            `seed ${seed}, FRED's run at ${at}: ${agreed} open (object, state) pairs agree; ${differences.length} differ, ${unexplained.length} unexplained.`,
            `  history FRED stamped at its run's instant instead of the rule's: ${stampedAtRun} rows opened (the console opens them at the exact instant)`,
            ...[...tally].map(([cause, n]) => `  ${n} × ${cause}`),
            ...unexplained.map((u) => `  UNEXPLAINED: ${u}`),
          ].join("\n"),
        );
        expect(unexplained).toEqual([]);
        // Every rule was exercised on both sides, and each bug case showed itself.
        expect(agreed).toBeGreaterThan(1000);
        for (const state of [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 28])
          expect(
            [...fredPairs].some((p) => p.endsWith(`:${state}`)),
            names.get(state),
          ).toBe(true);
        expect([...tally.keys()].sort()).toEqual(
          expect.arrayContaining([
            "a date late in the evening UTC (FRED takes the stored UTC date)",
            "a request canceled in the future (FRED drops it at once)",
            "a request ending exactly at the run (FRED counts valid_to as in force)",
            "a request for an automatic or another type's state (FRED applies it)",
          ]),
        );
      } finally {
        await a.end();
        await b.end();
      }
    },
    180_000,
  );
});
