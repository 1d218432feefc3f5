// Mode beside (issue 40, README "Running on an existing FRED database"): FRED's own engine writes
// object_state; the console writes requests and blocks as libfred does and calls FRED's
// update_object_states(id) in the same transaction (through console.fred_state_update, the owner's),
// its scheduler calls it for requests whose instant passed, and its feed is read from object_state
// without a trigger. PostgreSQL with the real fred-db schema only.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../prisma/demo/load";
import type { RequestContext } from "../auth/request-context";
import { type Database, openDatabase } from "../db/client";
import { migrate } from "../db/migrations";
import { blockObject } from "../requests/block";
import { cancelStateRequest } from "../requests/cancel";
import { createStateRequest } from "../requests/create";
import { unblockObject } from "../requests/unblock";
import { putBeside } from "../testing/beside";
import { createFredDatabase, createRoleSql, fredSchemaAvailable, withClient } from "../testing/fred";
import { actAs, signedInAs } from "../testing/sessions";
import { fredSchedulePass } from "./fred-schedule";

const adminUrl = process.env.TEST_DATABASE_URL;
const NO_GRANTS = "rsc_no_grants";

describe.runIf(adminUrl && fredSchemaAvailable())("a FRED registry with the console beside FRED's engine", () => {
  let fred: Awaited<ReturnType<typeof createFredDatabase>>;
  let owner: Database;
  let runtime: Database;
  let operator: RequestContext;
  let domains: number[] = [];
  let next = 0;
  const domain = () => domains[next++];

  beforeAll(async () => {
    fred = await createFredDatabase(adminUrl as string);
    await withClient(adminUrl as string, (client) => client.query(createRoleSql(NO_GRANTS, "NOLOGIN")));
    owner = await openDatabase({ databaseUrl: fred.fredUrl, pgliteDir: "" });
    await migrate(owner.direct, undefined, { adoptAs: "charge" });
    await seedDemo(owner.direct, { domains: 60, seed: 3, now: new Date(), timeZone: "Europe/Prague" });
    await putBeside(owner.direct);
    runtime = await openDatabase({ databaseUrl: fred.consoleUrl, pgliteDir: "" });
    operator = await signedInAs(runtime, "operator");
    // Domains with no manual state and no request: each test takes its own.
    domains = (
      await owner.sql.query<{ id: number }>(
        `SELECT o.id FROM object_registry o WHERE o.type = 3 AND o.erdate IS NULL
            AND NOT EXISTS (SELECT FROM object_state_request r WHERE r.object_id = o.id)
          ORDER BY o.id`,
      )
    ).map((r) => r.id);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([owner?.close(), runtime?.close()]);
    await fred?.drop();
  });

  const openRows = (objectId: number, state: string) =>
    owner.sql.query<{ valid_from: Date; valid_to: Date | null; ohid_from: number | null }>(
      `SELECT os.valid_from, os.valid_to, os.ohid_from FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
        WHERE os.object_id = $1 AND s.name = $2 ORDER BY os.id`,
      [objectId, state],
    );
  const isOpen = async (objectId: number, state: string) => (await openRows(objectId, state)).some((r) => r.valid_to === null);

  it("runs FRED's engine alone: FRED's function and triggers, no console trigger on FRED's tables", async () => {
    const [catalogue] = await owner.sql.query<{ console_triggers: number; disabled: number; console_function: boolean }>(
      `SELECT (SELECT count(*)::int FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
                WHERE c.relnamespace = 'public'::regnamespace AND t.tgname LIKE 'console\\_%') AS console_triggers,
              (SELECT count(*)::int FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
                WHERE c.relnamespace = 'public'::regnamespace AND NOT t.tgisinternal AND t.tgenabled = 'D') AS disabled,
              (SELECT prosrc LIKE '%console.%' FROM pg_proc WHERE oid = 'public.update_object_states(integer)'::regprocedure) AS console_function`,
    );
    expect(catalogue).toEqual({ console_triggers: 0, disabled: 0, console_function: false });
  });

  it("applies a request starting now with FRED's update_object_states in the same transaction, and its cancellation", async () => {
    const id = domain();
    // Who writes the row: FRED's function fills its work table pg_temp.tmp_object_state_change first.
    await owner.direct.exec(`
      CREATE TABLE test_state_writes (object_id integer, state_id integer, by_fred boolean);
      CREATE FUNCTION test_state_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        INSERT INTO test_state_writes VALUES (NEW.object_id, NEW.state_id, to_regclass('pg_temp.tmp_object_state_change') IS NOT NULL);
        RETURN NEW; END $$;
      CREATE TRIGGER test_state_write AFTER INSERT ON object_state FOR EACH ROW EXECUTE FUNCTION test_state_write();`);
    const created = await actAs(operator, () =>
      createStateRequest({ objectId: id, state: "serverOutzoneManual", reason: "beside", idempotencyKey: randomUUID() }),
    );
    const [request] = await owner.sql.query<{ valid_from: Date; crdate: Date }>(
      "SELECT valid_from, crdate FROM object_state_request WHERE id = $1",
      [created.requestId],
    );
    const [row] = await openRows(id, "serverOutzoneManual");
    // FRED's function dates its row at the transaction's start: the request's instant, to the millisecond.
    expect(row.valid_to).toBeNull();
    expect(Math.floor(row.valid_from.getTime())).toBe(request.valid_from.getTime());
    expect(row.ohid_from).not.toBeNull(); // FRED's trigger_object_state_hid
    // FRED's own dependent-state trigger (trigger_object_state) put the domain out of the zone.
    expect(await isOpen(id, "outzone")).toBe(true);

    // FRED's function wrote them (its work table existed), not the console's engine.
    const writes = await owner.sql.query<{ by_fred: boolean }>("SELECT by_fred FROM test_state_writes WHERE object_id = $1", [id]);
    await owner.direct.exec(
      "DROP TRIGGER test_state_write ON object_state; DROP FUNCTION test_state_write() CASCADE; DROP TABLE test_state_writes",
    );
    expect(writes.length).toBeGreaterThanOrEqual(2);
    expect(writes.every((w) => w.by_fred)).toBe(true);
    await actAs(operator, () => cancelStateRequest({ requestId: created.requestId, reason: "done" }));
    expect(await isOpen(id, "serverOutzoneManual")).toBe(false);
    expect(await isOpen(id, "outzone")).toBe(false);
  });

  it("blocks and unblocks with FRED's function in the transaction", async () => {
    const id = domain();
    const { blockId } = await actAs(operator, () =>
      blockObject({ objectId: id, reason: "court order", prohibitions: ["serverUpdateProhibited", "serverTransferProhibited"] }),
    );
    expect(await isOpen(id, "serverBlocked")).toBe(true);
    expect(await isOpen(id, "serverUpdateProhibited")).toBe(true);
    await actAs(operator, () => unblockObject({ blockId, reason: "lifted" }));
    expect(await isOpen(id, "serverBlocked")).toBe(false);
    expect(await isOpen(id, "serverUpdateProhibited")).toBe(false);
  });

  it("leaves a request that starts later to the scheduler, whose first pass after its instant applies it", async () => {
    const id = domain();
    const ending = domain();
    const soon = new Date(Date.now() + 2_000);
    const later = await actAs(operator, () =>
      createStateRequest({ objectId: id, state: "serverOutzoneManual", from: soon.toISOString(), reason: "soon" }),
    );
    const now = await actAs(operator, () =>
      createStateRequest({ objectId: ending, state: "serverRenewProhibited", to: soon.toISOString(), reason: "until soon" }),
    );
    expect(await isOpen(id, "serverOutzoneManual")).toBe(false);
    expect(await isOpen(ending, "serverRenewProhibited")).toBe(true);
    await fredSchedulePass(runtime.sql);
    expect(await isOpen(id, "serverOutzoneManual")).toBe(false);
    // Three seconds pass (FRED's function reads the database's own clock, which a test cannot move:
    // the request's instants and the scheduler's cursor move three seconds back instead).
    await owner.sql.query(
      `UPDATE object_state_request SET valid_from = valid_from - interval '3 s', crdate = crdate - interval '3 s',
              valid_to = valid_to - interval '3 s' WHERE id = ANY ($1::int[])`,
      [[later.requestId, now.requestId]],
    );
    await owner.sql.query(
      "UPDATE object_state SET valid_from = valid_from - interval '3 s' WHERE object_id = $1 AND valid_to IS NULL AND state_id = 7",
      [ending],
    );
    await owner.sql.query("UPDATE console.fred_request_cursor SET at = at - interval '3 s'");
    const [{ start }] = await owner.sql.query<{ start: Date }>("SELECT valid_from AS start FROM object_state_request WHERE id = $1", [
      later.requestId,
    ]);
    // A pass whose clock is before the start: not yet.
    const early = await fredSchedulePass(runtime.sql, { at: new Date(start.getTime() - 500) });
    expect(early.busy).toBe(false);
    expect(await isOpen(id, "serverOutzoneManual")).toBe(false);
    // The first pass after it: FRED's function applied the start and the end.
    const pass = await fredSchedulePass(runtime.sql, { at: new Date() });
    expect(pass.objects).toBeGreaterThanOrEqual(2);
    expect(await isOpen(id, "serverOutzoneManual")).toBe(true);
    expect(await isOpen(id, "outzone")).toBe(true);
    expect(await isOpen(ending, "serverRenewProhibited")).toBe(false);
  });

  it("reports every change of object_state once in the feed while FRED-like transactions write concurrently", async () => {
    const [{ feedFrom }] = await owner.sql.query<{ feedFrom: number }>(
      'SELECT coalesce(max(id), 0)::int AS "feedFrom" FROM console.state_changes',
    );
    await runtime.sql.query("SELECT console.fred_feed_poll()");
    const [{ stateFrom }] = await owner.sql.query<{ stateFrom: number }>(
      'SELECT coalesce(max(id), 0)::int AS "stateFrom" FROM object_state',
    );
    // Rows open before: some of them closed by the writers, reported left once.
    const contacts = (
      await owner.sql.query<{ id: number }>("SELECT id FROM object_registry WHERE type = 1 AND erdate IS NULL ORDER BY id LIMIT 24")
    ).map((r) => r.id);
    const STATE = 22; // identifiedContact: no FRED trigger reacts to it
    await owner.sql.query("DELETE FROM object_state WHERE state_id = $1 AND object_id = ANY ($2::int[])", [STATE, contacts]);
    await owner.sql.query(
      "INSERT INTO object_state (object_id, state_id, valid_from) SELECT unnest($1::int[]), $2, now() AT TIME ZONE 'UTC'",
      [contacts.filter((_, i) => i % 2 === 0), STATE],
    );
    await runtime.sql.query("SELECT console.fred_feed_poll()");
    const [{ feedBase }] = await owner.sql.query<{ feedBase: number }>(
      'SELECT coalesce(max(id), 0)::int AS "feedBase" FROM console.state_changes',
    );
    const [{ closedBase }] = await owner.sql.query<{ closedBase: number }>(
      'SELECT coalesce(max(id), 0)::int AS "closedBase" FROM object_state',
    );

    // Ids committed out of order: a transaction holds a lower id uncommitted while a later one commits.
    const early = new pg.Client({ connectionString: fred.fredUrl });
    await early.connect();
    try {
      const [odd, late] = [contacts[1], contacts[3]];
      await early.query("BEGIN");
      await early.query("INSERT INTO object_state (object_id, state_id, valid_from) VALUES ($1, $2, now() AT TIME ZONE 'UTC')", [
        odd,
        STATE,
      ]);
      await owner.sql.query("INSERT INTO object_state (object_id, state_id, valid_from) VALUES ($1, $2, now() AT TIME ZONE 'UTC')", [
        late,
        STATE,
      ]);
      for (let i = 0; i < 3; i++) await runtime.sql.query("SELECT console.fred_feed_poll()");
      await early.query("COMMIT");
    } finally {
      await early.end();
    }
    const [{ low: lowBefore }] = await owner.sql.query<{ low: string }>("SELECT low::text FROM console.fred_feed");

    const WRITERS = 4;
    const ROUNDS = 40;
    let writing = WRITERS;
    const writer = async (w: number) => {
      const client = new pg.Client({ connectionString: fred.fredUrl });
      await client.connect();
      try {
        const mine = contacts.filter((_, i) => i % WRITERS === w);
        for (let round = 0; round < ROUNDS; round++) {
          const object = mine[round % mine.length];
          await client.query("BEGIN");
          // As FRED's engine: close the open row (UPDATE valid_to), or open one, sometimes both.
          const closed = await client.query(
            "UPDATE object_state SET valid_to = now() AT TIME ZONE 'UTC' WHERE object_id = $1 AND state_id = $2 AND valid_to IS NULL RETURNING id",
            [object, STATE],
          );
          await client.query("SELECT pg_sleep(random() * 0.005)");
          if (closed.rowCount === 0 || round % 3 === 0)
            await client.query("INSERT INTO object_state (object_id, state_id, valid_from) VALUES ($1, $2, now() AT TIME ZONE 'UTC')", [
              object,
              STATE,
            ]);
          await client.query("SELECT pg_sleep(random() * 0.005)");
          await client.query(round % 5 === 4 ? "ROLLBACK" : "COMMIT");
        }
      } finally {
        writing--;
        await client.end();
      }
    };
    const poller = async () => {
      let polls = 0;
      while (writing > 0 || polls < 1) {
        await runtime.sql.query("SELECT console.fred_feed_poll()");
        polls++;
      }
      return polls;
    };
    const [polls] = await Promise.all([poller(), ...Array.from({ length: WRITERS }, (_, w) => writer(w))]);
    expect(polls).toBeGreaterThan(1);
    for (let i = 0; i < 3; i++) await runtime.sql.query("SELECT console.fred_feed_poll()");

    const expected = await owner.sql.query<{ key: string }>(
      `SELECT object_id || ':' || state_id || ':entered:' || (valid_from AT TIME ZONE 'UTC')::text AS key
         FROM object_state WHERE id > $1 AND state_id = $3
       UNION ALL
       SELECT object_id || ':' || state_id || ':left:' || (valid_to AT TIME ZONE 'UTC')::text
         FROM object_state WHERE id > $2 AND valid_to IS NOT NULL AND state_id = $3 AND object_id = ANY ($4::int[])
        ORDER BY 1`,
      [closedBase, stateFrom, STATE, contacts],
    );
    const fed = await owner.sql.query<{ key: string }>(
      `SELECT object_id || ':' || state_id || ':' || change || ':' || at::text AS key FROM console.state_changes
        WHERE id > $1 ORDER BY 1`,
      [feedBase],
    );
    expect(stateFrom).toBeLessThanOrEqual(closedBase);
    expect(feedFrom).toBeLessThanOrEqual(feedBase);
    expect(fed.map((r) => r.key)).toEqual(expected.map((r) => r.key));
    expect(fed.length).toBeGreaterThan(WRITERS * ROUNDS * 0.5);
    // The feed's low mark moved meanwhile (ids below it are settled and no longer remembered).
    const [{ low: lowAfter }] = await owner.sql.query<{ low: string }>("SELECT low::text FROM console.fred_feed");
    expect(BigInt(lowAfter)).toBeGreaterThan(BigInt(lowBefore));
  }, 120_000);

  it("lets no caller reach the owner through console.fred_state_update", async () => {
    const id = domain();
    // A role with no grants: refused by its rights.
    await withClient(fred.url, async (client) => {
      await client.query("BEGIN");
      await client.query(`SET LOCAL ROLE ${NO_GRANTS}`);
      await expect(client.query("SELECT console.fred_state_update(ARRAY[$1::int])", [id])).rejects.toMatchObject({ code: "42501" });
      await client.query("ROLLBACK");
    });
    // The runtime role with its own pg_temp.tmp_object_state_change (a trigger, or a default, of its own): refused, nothing run.
    await withClient(fred.consoleUrl, async (client) => {
      await client.query("CREATE TEMP TABLE seen_as (who text)");
      await client.query(
        "CREATE FUNCTION pg_temp.record() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO pg_temp.seen_as VALUES (current_user); RETURN NEW; END $$",
      );
      await client.query(
        "CREATE FUNCTION pg_temp.who() RETURNS integer LANGUAGE sql AS $$ INSERT INTO pg_temp.seen_as VALUES (current_user) RETURNING 0 $$",
      );
      for (const made of [
        "CREATE TEMP TABLE tmp_object_state_change (object_id integer, object_hid integer, new_states integer[], old_states integer[]); CREATE TRIGGER t BEFORE INSERT OR TRUNCATE ON pg_temp.tmp_object_state_change FOR EACH STATEMENT EXECUTE FUNCTION pg_temp.record()",
        "CREATE TEMP TABLE tmp_object_state_change (object_id integer, object_hid integer DEFAULT pg_temp.who(), new_states integer[], old_states integer[])",
        "CREATE TEMP VIEW tmp_object_state_change AS SELECT 1 AS object_id",
      ]) {
        await client.query(made);
        const drop = made.includes("VIEW") ? "DROP VIEW pg_temp.tmp_object_state_change" : "DROP TABLE pg_temp.tmp_object_state_change";
        await expect(client.query("SELECT console.fred_state_update(ARRAY[$1::int])", [id])).rejects.toMatchObject({ code: "42501" });
        await client.query(drop);
      }
      expect((await client.query("SELECT who FROM pg_temp.seen_as")).rows).toEqual([]);
      // Its own session's table, made by FRED's function as the owner, is FRED's own: a second call runs.
      expect((await client.query("SELECT console.fred_state_update(ARRAY[$1::int]) AS n", [id])).rows).toEqual([{ n: 1 }]);
      expect((await client.query("SELECT console.fred_state_update(ARRAY[$1::int]) AS n", [id])).rows).toEqual([{ n: 1 }]);
      // 0 (FRED's whole procedure) is not the console's to run; nor may it write object_state itself.
      await expect(client.query("SELECT console.fred_state_update(ARRAY[0])")).rejects.toMatchObject({ code: "22023" });
      await expect(
        client.query("INSERT INTO object_state (object_id, state_id, valid_from) VALUES ($1, 1, now())", [id]),
      ).rejects.toMatchObject({ code: "42501" });
    });
  });
});
