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
import { openDatabase } from "../db/client";
import { migrate } from "../db/migrations";
import { createFredDatabase, fredKnownBugCauses, fredSchemaAvailable, postgresProgram, withClient } from "../testing/fred";

const adminUrl = process.env.TEST_DATABASE_URL;
const ZONE = "Europe/Prague";

/** The registry's tables, copied from the console's database into FRED's: the demo's own, and the history. */
const REGISTRY_TABLES = [...TABLE_ORDER, "object_state"];

/**
 * Objects at every threshold of every rule, written into the console's database (and copied into
 * FRED's with the rest): domains whose expiration (or validation) date is a threshold's day, the day
 * before and the day after, each plain and with the requests the rules depend on; contacts, nssets
 * and keysets whose creation, last update or last link is six months ago, the day before and after.
 */
const EDGE_CASES = `
DO $$
DECLARE
    today date := (now() AT TIME ZONE '${ZONE}')::date;
    v_holder integer;
    v_ns integer;
    v_id integer;
    v_n integer := 0;
    v_variant text;
    v_k integer;
    v_state integer;
BEGIN
    PERFORM set_config('registry.state_marks', 'off', true);
    INSERT INTO object_registry (roid, type, name, crid, crdate) VALUES ('EDGE-HOLDER', 1, 'EDGE-HOLDER', 1, '2020-01-01') RETURNING object_registry.id INTO v_holder;
    INSERT INTO object (id, clid) VALUES (v_holder, 1);
    INSERT INTO contact (id, name) VALUES (v_holder, 'Edge holder');
    INSERT INTO object_registry (roid, type, name, crid, crdate) VALUES ('EDGE-NS', 2, 'EDGE-NS', 1, '2020-01-01') RETURNING object_registry.id INTO v_ns;
    INSERT INTO object (id, clid) VALUES (v_ns, 1);
    INSERT INTO nsset (id) VALUES (v_ns);
    -- Domains: expiration at each threshold (-30 notify, 0 expired, 25 e-mail warning, 30 unguarded
    -- and outzone, 34 letter, 61 delete candidate) and a day either side, and validation at each
    -- of its thresholds (-30, -15, 0).
    FOREACH v_k IN ARRAY ARRAY[31, 30, 29, 16, 15, 14, 1, 0, -1, -24, -25, -26, -29, -30, -31, -33, -34, -35, -60, -61, -62] LOOP
        FOREACH v_variant IN ARRAY ARRAY['plain', 'renew', 'inzone', 'outzone', 'delete', 'validation'] LOOP
            v_n := v_n + 1;
            INSERT INTO object_registry (roid, type, name, crid, crdate)
            VALUES ('EDGE-D' || v_n, 3, 'edge-' || v_n || '-' || v_variant || '.cz', 1, '2020-01-01') RETURNING object_registry.id INTO v_id;
            INSERT INTO object (id, clid) VALUES (v_id, 1);
            IF v_variant = 'validation' THEN
                INSERT INTO domain (id, zone, registrant, nsset, exdate) VALUES (v_id, 1, v_holder, v_ns, today + 400);
                INSERT INTO enumval (domainid, exdate) VALUES (v_id, today + v_k);
            ELSE
                INSERT INTO domain (id, zone, registrant, nsset, exdate) VALUES (v_id, 1, v_holder, v_ns, today + v_k);
            END IF;
            v_state := CASE v_variant WHEN 'renew' THEN 2 WHEN 'inzone' THEN 6 WHEN 'outzone' THEN 5 WHEN 'delete' THEN 1 END;
            IF v_state IS NOT NULL THEN
                INSERT INTO object_state_request (object_id, state_id, valid_from, crdate)
                VALUES (v_id, v_state, now() AT TIME ZONE 'UTC' - interval '100 days', now() AT TIME ZONE 'UTC' - interval '100 days');
            END IF;
        END LOOP;
    END LOOP;
    -- A domain with no nsset.
    INSERT INTO object_registry (roid, type, name, crid, crdate) VALUES ('EDGE-NONS', 3, 'edge-no-nsset.cz', 1, '2020-01-01') RETURNING object_registry.id INTO v_id;
    INSERT INTO object (id, clid) VALUES (v_id, 1);
    INSERT INTO domain (id, zone, registrant, nsset, exdate) VALUES (v_id, 1, v_holder, NULL, today + 400);
    -- Unlinked contacts, nssets and keysets: created, updated or last linked six months ago (at
    -- 10:00 UTC), the day before and the day after.
    FOREACH v_k IN ARRAY ARRAY[-1, 0, 1] LOOP
        FOREACH v_variant IN ARRAY ARRAY['created', 'updated', 'unlinked'] LOOP
            FOREACH v_state IN ARRAY ARRAY[1, 2, 4] LOOP
                v_n := v_n + 1;
                INSERT INTO object_registry (roid, type, name, crid, crdate)
                VALUES ('EDGE-O' || v_n, v_state, 'EDGE-' || v_n || '-' || upper(v_variant), 1,
                        CASE WHEN v_variant = 'created' THEN (today - interval '6 months')::date + v_k + time '10:00' ELSE '2020-01-01' END)
                RETURNING object_registry.id INTO v_id;
                INSERT INTO object (id, clid, update) VALUES (v_id, 1,
                        CASE WHEN v_variant = 'updated' THEN (today - interval '6 months')::date + v_k + time '10:00' END);
                IF v_state = 1 THEN INSERT INTO contact (id, name) VALUES (v_id, 'Edge contact'); END IF;
                IF v_state = 2 THEN INSERT INTO nsset (id) VALUES (v_id); END IF;
                IF v_state = 4 THEN INSERT INTO keyset (id) VALUES (v_id); END IF;
                IF v_variant = 'unlinked' THEN
                    INSERT INTO object_state (object_id, state_id, valid_from, valid_to)
                    VALUES (v_id, 16, '2020-01-01', (today - interval '6 months')::date + v_k + time '10:00');
                END IF;
            END LOOP;
        END LOOP;
    END LOOP;
END $$;
`;

/**
 * FRED's known bugs, as registry data: written past the console's request rules (they stand for
 * what FRED's programs wrote before adoption). Each object's name says which.
 */
const FRED_BUG_CASES = `
DO $$
DECLARE
    today date := (now() AT TIME ZONE '${ZONE}')::date;
    v_holder integer := (SELECT o.id FROM object_registry o WHERE o.name = 'EDGE-HOLDER');
    v_ns integer := (SELECT o.id FROM object_registry o WHERE o.name = 'EDGE-NS');
    v_id integer;
BEGIN
    PERFORM set_config('registry.state_marks', 'off', true);
    -- A request for an automatic state (expired) on a domain that has not expired.
    INSERT INTO object_registry (roid, type, name, crid, crdate) VALUES ('BUG-AUTO', 3, 'bug-automatic.cz', 1, '2020-01-01') RETURNING object_registry.id INTO v_id;
    INSERT INTO object (id, clid) VALUES (v_id, 1);
    INSERT INTO domain (id, zone, registrant, nsset, exdate) VALUES (v_id, 1, v_holder, v_ns, today + 400);
    INSERT INTO object_state_request (object_id, state_id, valid_from) VALUES (v_id, 9, now() AT TIME ZONE 'UTC' - interval '1 day');
    -- A request for a domain's state (serverOutzoneManual) on a contact.
    INSERT INTO object_registry (roid, type, name, crid, crdate) VALUES ('BUG-TYPE', 1, 'BUG-WRONG-TYPE', 1, '2020-01-01') RETURNING object_registry.id INTO v_id;
    INSERT INTO object (id, clid) VALUES (v_id, 1);
    INSERT INTO contact (id, name) VALUES (v_id, 'Wrong type');
    INSERT INTO object_state_request (object_id, state_id, valid_from) VALUES (v_id, 5, now() AT TIME ZONE 'UTC' - interval '1 day');
    -- A request in force whose cancellation is set in the future.
    INSERT INTO object_registry (roid, type, name, crid, crdate) VALUES ('BUG-CANCEL', 3, 'bug-canceled-later.cz', 1, '2020-01-01') RETURNING object_registry.id INTO v_id;
    INSERT INTO object (id, clid) VALUES (v_id, 1);
    INSERT INTO domain (id, zone, registrant, nsset, exdate) VALUES (v_id, 1, v_holder, v_ns, today + 400);
    INSERT INTO object_state_request (object_id, state_id, valid_from, canceled)
    VALUES (v_id, 3, now() AT TIME ZONE 'UTC' - interval '1 day', now() AT TIME ZONE 'UTC' + interval '30 days');
    -- A contact created at 23:30 UTC six months ago: 00:30 the next day in the registry's zone, so
    -- six months have passed by FRED's count and not yet by the registry's calendar.
    INSERT INTO object_registry (roid, type, name, crid, crdate)
    VALUES ('BUG-LATE', 1, 'BUG-CREATED-LATE', 1, (today - interval '6 months')::date + time '23:30') RETURNING object_registry.id INTO v_id;
    INSERT INTO object (id, clid) VALUES (v_id, 1);
    INSERT INTO contact (id, name) VALUES (v_id, 'Created late');
    -- Shown in the closing tally too: the domain whose request ends exactly at the run's instant is
    -- written at run time (its end must be that instant).
    INSERT INTO object_registry (roid, type, name, crid, crdate) VALUES ('BUG-END', 3, 'bug-ends-at-run.cz', 1, '2020-01-01') RETURNING object_registry.id INTO v_id;
    INSERT INTO object (id, clid) VALUES (v_id, 1);
    INSERT INTO domain (id, zone, registrant, nsset, exdate) VALUES (v_id, 1, v_holder, v_ns, today + 400);
END $$;
`;

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
        await migrate(db.sql);
        await seedDemo(db.sql, { domains: 1000, seed, now: new Date(), timeZone: ZONE });
      } finally {
        await db.close();
      }
      await withClient(console_.url, async (client) => {
        await client.query(EDGE_CASES);
        await client.query("ALTER TABLE object_state_request DISABLE TRIGGER console_1_request_check");
        await client.query(FRED_BUG_CASES);
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
