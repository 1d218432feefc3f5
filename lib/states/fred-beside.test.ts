// Mode beside (issue 40, docs/fred.md): FRED's own engine writes
// object_state; the console writes requests and blocks as libfred does and calls FRED's
// update_object_states(id) in the same transaction (through console.fred_state_update, the owner's),
// its scheduler calls it for requests whose instant passed, and its feed is read from object_state
// without a trigger. PostgreSQL with the real fred-db schema only.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../prisma/demo/load";
import { putBeside } from "../../testing/beside";
import { createFredDatabase, createRoleSql, fredSchemaAvailable, withClient } from "../../testing/fred";
import { libfredViolations } from "../../testing/libfred";
import { actAs, signedInAs } from "../../testing/sessions";
import type { RequestContext } from "../auth/request-context";
import { type Database, openDatabase } from "../db/client";
import { migrate } from "../db/migrations";
import { listObjects } from "../objects/list";
import { blockObject } from "../requests/block";
import { bulkStateChange } from "../requests/bulk";
import { cancelStateRequest } from "../requests/cancel";
import { changeBlock } from "../requests/change-block";
import { createStateRequest } from "../requests/create";
import { unblockObject } from "../requests/unblock";
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

  it("finds a closing through FRED's valid_to index at the next poll, and one dated days back at the hourly sweep, each once", async () => {
    const STATE = 22; // identifiedContact: no FRED trigger reacts to it
    const contacts = (
      await owner.sql.query<{ id: number }>("SELECT id FROM object_registry WHERE type = 1 AND erdate IS NULL ORDER BY id DESC LIMIT 2")
    ).map((r) => r.id);
    await owner.sql.query("DELETE FROM object_state WHERE state_id = $1 AND object_id = ANY ($2::int[])", [STATE, contacts]);
    const opened = await owner.sql.query<{ id: number }>(
      "INSERT INTO object_state (object_id, state_id, valid_from) SELECT unnest($1::int[]), $2, now() AT TIME ZONE 'UTC' - interval '5 days' RETURNING id",
      [contacts, STATE],
    );
    const poll = () => runtime.sql.query("SELECT console.fred_feed_poll()");
    await poll();
    await poll(); // the rows are reported open; the sweep of the first run is behind
    const left = async () =>
      (
        await owner.sql.query<{ object_id: number; at: Date }>(
          "SELECT object_id, at FROM console.state_changes WHERE state_id = $1 AND change = 'left' AND object_id = ANY ($2::int[]) ORDER BY object_id",
          [STATE, contacts],
        )
      ).map((r) => [r.object_id, r.at.toISOString()]);
    const [{ now, back }] = await owner.sql.query<{ now: Date; back: Date }>(
      "UPDATE object_state SET valid_to = CASE id WHEN $1 THEN now() AT TIME ZONE 'UTC' ELSE now() AT TIME ZONE 'UTC' - interval '3 days' END WHERE id = ANY ($2::int[]) RETURNING (SELECT now()) AS now, (SELECT now() - interval '3 days') AS back",
      [opened[0].id, opened.map((o) => o.id)],
    );
    await poll();
    const closedNow = contacts[opened.findIndex((o) => o.id === opened[0].id)];
    expect(await left()).toEqual([[closedNow, now.toISOString()]]);
    // An hour later the sweep compares every open row reported: the one closed 3 days back is found.
    await owner.sql.query("UPDATE console.fred_feed SET swept_at = now() - interval '61 minutes'");
    await poll();
    await poll();
    const other = contacts.find((c) => c !== closedNow) as number;
    expect(await left()).toEqual(
      [
        [closedNow, now.toISOString()],
        [other, back.toISOString()],
      ].sort((a, b) => Number(a[0]) - Number(b[0])),
    );
  });

  // Who wrote what, in which transaction: object_state rows (and whether FRED's function wrote them:
  // its work table exists), FRED's request lock (object_state_request_lock, taken by FRED's trigger
  // on object_state_request as libfred takes it) and the request rows. Test triggers of the owner's.
  const recordWrites = async () => {
    await owner.direct.exec(`
      CREATE TABLE test_writes (seq serial, tx bigint, kind text, object_id integer, state_id integer, by_fred boolean);
      CREATE FUNCTION test_write() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$ BEGIN
        INSERT INTO public.test_writes (tx, kind, object_id, state_id, by_fred)
        VALUES (txid_current(), TG_ARGV[0] || CASE WHEN TG_OP = 'UPDATE' THEN '-closed' ELSE '' END, NEW.object_id,
                (to_jsonb(NEW) ->> 'state_id')::integer,
                to_regclass('pg_temp.tmp_object_state_change') IS NOT NULL);
        RETURN NEW; END $$;
      CREATE TRIGGER test_write AFTER INSERT OR UPDATE ON object_state FOR EACH ROW EXECUTE FUNCTION test_write('state');
      CREATE TRIGGER test_write AFTER INSERT ON object_state_request_lock FOR EACH ROW EXECUTE FUNCTION test_write('lock');
      CREATE TRIGGER test_write AFTER INSERT OR UPDATE ON object_state_request FOR EACH ROW EXECUTE FUNCTION test_write('request');`);
    return {
      rows: () =>
        owner.sql.query<{ tx: string; kind: string; object_id: number; state_id: number | null; by_fred: boolean }>(
          "SELECT tx::text, kind, object_id, state_id, by_fred FROM test_writes ORDER BY seq",
        ),
      stop: () =>
        owner.direct.exec(`DROP TRIGGER test_write ON object_state; DROP TRIGGER test_write ON object_state_request_lock;
          DROP TRIGGER test_write ON object_state_request; DROP FUNCTION test_write(); DROP TABLE test_writes`),
    };
  };
  const requestRows = (objectIds: number[]) =>
    owner.sql.query<{
      id: number;
      object_id: number;
      state: string;
      valid_from: Date;
      valid_to: Date | null;
      crdate: Date;
      canceled: Date | null;
      reason_creation: string | null;
      reason_cancellation: string | null;
    }>(
      `SELECT r.id, r.object_id, s.name AS state, r.valid_from, r.valid_to, r.crdate, r.canceled, rr.reason_creation, rr.reason_cancellation
         FROM object_state_request r JOIN enum_object_states s ON s.id = r.state_id
         LEFT JOIN object_state_request_reason rr ON rr.object_state_request_id = r.id
        WHERE r.object_id = ANY ($1::int[]) ORDER BY r.object_id, r.id`,
      [objectIds],
    );
  const stateRows = (objectIds: number[]) =>
    owner.sql.query<{ id: number; object_id: number; state: string; valid_from: Date; valid_to: Date | null }>(
      `SELECT os.id, os.object_id, s.name AS state, os.valid_from, os.valid_to FROM object_state os
         JOIN enum_object_states s ON s.id = os.state_id WHERE os.object_id = ANY ($1::int[]) ORDER BY os.object_id, os.id`,
      [objectIds],
    );
  const ms = (d: Date) => Math.floor(d.getTime());
  const bulk = (input: Record<string, unknown>) =>
    actAs(operator, () => bulkStateChange({ reason: "beside bulk", batchId: randomUUID(), apply: true, ...input }));
  const namesOf = async (ids: number[]) =>
    (await owner.sql.query<{ name: string }>("SELECT name FROM object_registry WHERE id = ANY ($1::int[]) ORDER BY id", [ids])).map(
      (r) => r.name,
    );
  /** `seconds` pass for the given requests and the scheduler (FRED's function reads the database's own clock). */
  const passTime = async (requestIds: number[], seconds: number) => {
    const by = `interval '${seconds} s'`;
    await owner.sql.query(
      `UPDATE object_state_request SET valid_from = valid_from - ${by}, crdate = crdate - ${by}, valid_to = valid_to - ${by},
              canceled = canceled - ${by} WHERE id = ANY ($1::int[])`,
      [requestIds],
    );
    await owner.sql.query(
      `UPDATE object_state SET valid_from = valid_from - ${by}, valid_to = valid_to - ${by}
        WHERE object_id IN (SELECT object_id FROM object_state_request WHERE id = ANY ($1::int[]))`,
      [requestIds],
    );
    await owner.sql.query(`UPDATE console.fred_request_cursor SET at = at - ${by}`);
  };

  it("applies a bulk request over several domains as libfred writes it, FRED's function run for each in the same transaction", async () => {
    const ids = [domain(), domain(), domain()];
    const writes = await recordWrites();
    let recorded: Awaited<ReturnType<typeof writes.rows>>;
    try {
      const result = await bulk({ names: (await namesOf(ids)).join("\n"), kind: "request", state: "serverOutzoneManual" });
      expect(result.applied).toBe(true);
      recorded = await writes.rows();
    } finally {
      await writes.stop();
    }
    const requests = await requestRows(ids);
    // One row per domain, as CreateObjectStateRequestId writes it: from the transaction's start, no end, not canceled.
    expect(requests.map((r) => [r.object_id, r.state, r.valid_to, r.canceled, r.reason_creation, r.reason_cancellation])).toEqual(
      ids.map((id) => [id, "serverOutzoneManual", null, null, "beside bulk", null]),
    );
    const at = requests[0].valid_from;
    expect(requests.every((r) => r.valid_from.getTime() === at.getTime() && r.crdate.getTime() === at.getTime())).toBe(true);
    expect(
      await libfredViolations(
        owner.sql,
        ids.map((objectId) => ({ objectId, stateId: 5, acceptsNew: false })),
      ),
    ).toEqual([]);
    // One transaction: FRED's lock taken for each domain, and FRED's function wrote the states.
    expect(new Set(recorded.map((w) => w.tx)).size).toBe(1);
    expect([...new Set(recorded.filter((w) => w.kind === "lock").map((w) => w.object_id))].sort()).toEqual([...ids].sort());
    const opened = recorded.filter((w) => w.kind === "state");
    expect(opened.every((w) => w.by_fred)).toBe(true);
    const states = await stateRows(ids);
    for (const id of ids) {
      const open = states.filter((s) => s.object_id === id && s.valid_to === null && s.state === "serverOutzoneManual");
      // Dated by FRED's function at the transaction's start: the requests' instant.
      expect(open.map((s) => ms(s.valid_from))).toEqual([at.getTime()]);
      expect(await isOpen(id, "outzone")).toBe(true);
      expect(opened.some((w) => w.object_id === id && w.state_id === 5)).toBe(true);
    }
  });

  it("applies a bulk block over several domains as blockDomainsId writes it, FRED's function run in the same transaction", async () => {
    const ids = [domain(), domain(), domain()];
    const to = new Date(Date.now() + 30 * 86_400_000);
    const writes = await recordWrites();
    let recorded: Awaited<ReturnType<typeof writes.rows>>;
    try {
      const result = await bulk({
        names: (await namesOf(ids)).join(", "),
        kind: "block",
        to: to.toISOString(),
        prohibitions: ["serverUpdateProhibited", "serverTransferProhibited"],
      });
      expect(result.applied).toBe(true);
      recorded = await writes.rows();
    } finally {
      await writes.stop();
    }
    const requests = await requestRows(ids);
    expect(requests.map((r) => [r.object_id, r.state, r.valid_to?.getTime(), r.canceled])).toEqual(
      ids.flatMap((id) =>
        ["serverBlocked", "serverTransferProhibited", "serverUpdateProhibited"].map((state) => [id, state, to.getTime(), null]),
      ),
    );
    const at = requests[0].valid_from;
    expect(requests.every((r) => r.valid_from.getTime() === at.getTime() && r.crdate.getTime() === at.getTime())).toBe(true);
    // The reason against serverBlocked (libfred's CreateAdminObjectBlockRequestId).
    expect(requests.filter((r) => r.state === "serverBlocked").map((r) => r.reason_creation)).toEqual(ids.map(() => "beside bulk"));
    expect(
      await libfredViolations(
        owner.sql,
        ids.flatMap((objectId) => [7, 3, 4].map((stateId) => ({ objectId, stateId, acceptsNew: false }))),
      ),
    ).toEqual([]);
    expect(new Set(recorded.map((w) => w.tx)).size).toBe(1);
    expect([...new Set(recorded.filter((w) => w.kind === "lock").map((w) => w.object_id))].sort()).toEqual([...ids].sort());
    expect(recorded.filter((w) => w.kind === "state").every((w) => w.by_fred)).toBe(true);
    const states = await stateRows(ids);
    for (const id of ids)
      for (const state of ["serverBlocked", "serverTransferProhibited", "serverUpdateProhibited"]) {
        const open = states.filter((s) => s.object_id === id && s.state === state && s.valid_to === null);
        expect(open.map((s) => ms(s.valid_from))).toEqual([at.getTime()]);
      }
  });

  it("leaves a bulk request that starts later to the scheduler, whose pass applies it to every domain", async () => {
    const ids = [domain(), domain()];
    const soon = new Date(Date.now() + 2_000);
    const result = await bulk({
      names: (await namesOf(ids)).join("\n"),
      kind: "request",
      state: "serverOutzoneManual",
      from: soon.toISOString(),
    });
    expect(result.applied).toBe(true);
    const requests = await requestRows(ids);
    expect(requests.map((r) => [r.state, r.valid_from.getTime(), r.canceled])).toEqual(
      ids.map(() => ["serverOutzoneManual", soon.getTime(), null]),
    );
    expect(requests[0].crdate.getTime()).toBeLessThan(soon.getTime());
    for (const id of ids) expect(await isOpen(id, "serverOutzoneManual")).toBe(false);
    await fredSchedulePass(runtime.sql);
    for (const id of ids) expect(await isOpen(id, "serverOutzoneManual")).toBe(false);
    await passTime(
      requests.map((r) => r.id),
      3,
    );
    const pass = await fredSchedulePass(runtime.sql, { at: new Date() });
    expect(pass.objects).toBeGreaterThanOrEqual(2);
    for (const id of ids) {
      expect(await isOpen(id, "serverOutzoneManual")).toBe(true);
      expect(await isOpen(id, "outzone")).toBe(true);
    }
  });

  it("changes nothing when a bulk change fails in the middle: a refused domain, or FRED's function failing", async () => {
    const [first, refused, third] = [domain(), domain(), domain()];
    const ids = [first, refused, third];
    // The middle domain already has the state requested: refused, after the first was written and applied.
    await actAs(operator, () => createStateRequest({ objectId: refused, state: "serverOutzoneManual", reason: "already" }));
    const requestsBefore = await requestRows(ids);
    const statesBefore = await stateRows(ids);
    const names = await namesOf(ids);
    const result = await bulk({ names: names.join("\n"), kind: "request", state: "serverOutzoneManual" });
    expect(result.applied).toBe(false);
    expect(result.refused).toBe(1);
    expect(await requestRows(ids)).toEqual(requestsBefore);
    expect(await stateRows(ids)).toEqual(statesBefore);

    // FRED's function fails on the last domain (its own trigger on object_state raising): the whole change rolls back.
    await owner.direct.exec(`
      CREATE FUNCTION test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF NEW.object_id = ${third} THEN RAISE EXCEPTION 'test: FRED''s function failed'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER test_fail AFTER INSERT ON object_state FOR EACH ROW EXECUTE FUNCTION test_fail();`);
    try {
      await expect(
        bulk({ names: [names[0], names[2]].join("\n"), kind: "block", prohibitions: ["serverUpdateProhibited"] }),
      ).rejects.toThrow(/FRED's function failed/);
    } finally {
      await owner.direct.exec("DROP TRIGGER test_fail ON object_state; DROP FUNCTION test_fail()");
    }
    expect(await requestRows(ids)).toEqual(requestsBefore);
    expect(await stateRows(ids)).toEqual(statesBefore);
  });

  it("changes a begun block as updateBlockDomainsId does: old requests canceled with the reason, new ones from now, FRED's function in the transaction", async () => {
    const id = domain();
    const { blockId } = await actAs(operator, () =>
      blockObject({ objectId: id, reason: "court order", prohibitions: ["serverUpdateProhibited", "serverTransferProhibited"] }),
    );
    const before = await stateRows([id]);
    const soon = new Date(Date.now() + 2_000);
    const writes = await recordWrites();
    let recorded: Awaited<ReturnType<typeof writes.rows>>;
    let changed: { blockId: number };
    try {
      changed = await actAs(operator, () =>
        changeBlock({
          blockId,
          prohibitions: ["serverTransferProhibited", "serverDeleteProhibited"],
          to: soon.toISOString(),
          reason: "narrowed",
        }),
      );
      recorded = await writes.rows();
    } finally {
      await writes.stop();
    }
    expect(changed.blockId).not.toBe(blockId);
    const requests = await requestRows([id]);
    const old = requests.slice(0, 3);
    const fresh = requests.slice(3);
    const at = fresh[0].valid_from;
    // The old block's requests canceled at the change's instant, with its reason (as libfred's restore stores it).
    expect(old.map((r) => [r.state, r.canceled?.getTime(), r.valid_to, r.reason_cancellation])).toEqual([
      ["serverBlocked", at.getTime(), null, "narrowed"],
      ["serverTransferProhibited", at.getTime(), null, "narrowed"],
      ["serverUpdateProhibited", at.getTime(), null, "narrowed"],
    ]);
    // The new block's from that instant to its end.
    expect(fresh.map((r) => [r.state, r.valid_from.getTime(), r.crdate.getTime(), r.valid_to?.getTime(), r.canceled])).toEqual([
      ["serverBlocked", at.getTime(), at.getTime(), soon.getTime(), null],
      ["serverDeleteProhibited", at.getTime(), at.getTime(), soon.getTime(), null],
      ["serverTransferProhibited", at.getTime(), at.getTime(), soon.getTime(), null],
    ]);
    expect(fresh[0].reason_creation).toBe("narrowed");
    expect(
      await libfredViolations(
        owner.sql,
        [7, 1, 3, 4].map((stateId) => ({ objectId: id, stateId, acceptsNew: false })),
      ),
    ).toEqual([]);
    // One transaction: FRED's lock, and FRED's function closing the dropped prohibition and opening the new one.
    expect(new Set(recorded.map((w) => w.tx)).size).toBe(1);
    expect(recorded.some((w) => w.kind === "lock" && w.object_id === id)).toBe(true);
    expect(recorded.filter((w) => w.kind.startsWith("state")).every((w) => w.by_fred)).toBe(true);
    const after = await stateRows([id]);
    const row = (rows: typeof after, state: string) => rows.filter((s) => s.state === state);
    // serverBlocked and the kept prohibition hold without a gap: the same open rows as before.
    for (const state of ["serverBlocked", "serverTransferProhibited"]) expect(row(after, state)).toEqual(row(before, state));
    expect(row(after, "serverUpdateProhibited").map((s) => s.valid_to && ms(s.valid_to))).toEqual([at.getTime()]);
    expect(row(after, "serverDeleteProhibited").map((s) => [ms(s.valid_from), s.valid_to])).toEqual([[at.getTime(), null]]);

    // Its new end passes: the scheduler's pass ends it with FRED's function.
    await fredSchedulePass(runtime.sql);
    expect(await isOpen(id, "serverBlocked")).toBe(true);
    await passTime(
      fresh.map((r) => r.id),
      3,
    );
    await fredSchedulePass(runtime.sql, { at: new Date() });
    for (const state of ["serverBlocked", "serverDeleteProhibited", "serverTransferProhibited"])
      expect(await isOpen(id, state)).toBe(false);
  });

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

  it("keeps no index on object_registry and none on domain but the keyset one, and lists what FRED creates at the scheduler's next pass and not what FRED deleted", async () => {
    // FRED rewrites those rows in its commands: the list's keys are the console's own copy (console.object_key).
    const indexes = await owner.sql.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid IN ('public.object_registry'::regclass, 'public.domain'::regclass) AND c.relname LIKE 'console%'
          AND c.relname <> 'console_domain_keyset_idx'`,
    );
    expect(indexes).toEqual([]);
    const list = (q: string, extra: Record<string, string> = {}) => actAs(operator, () => listObjects({ q, ...extra }));
    const [{ id: created }] = await owner.sql.query<{ id: number }>(
      "INSERT INTO object_registry (roid, type, name, crid) VALUES ('C-RSC-BESIDE', 1, 'RSC-BESIDE-NEW', (SELECT min(id) FROM registrar)) RETURNING id",
    );
    // No trigger of the console's on FRED's tables: the copy learns of it at the next pass.
    expect((await list("rsc-beside-new")).rows).toEqual([]);
    expect((await fredSchedulePass(runtime.sql)).keys).toBeGreaterThanOrEqual(1);
    expect((await list("rsc-beside-new")).rows.map((r) => r.id)).toEqual([created]);

    // FRED deletes a domain: it leaves the list at once (FRED's row is asked), and is among the
    // deleted ones after the hourly sweep (FRED leaves no other trace of a deletion).
    const [gone] = await owner.sql.query<{ id: number; name: string }>(
      `SELECT o.id, o.name FROM object_registry o WHERE o.type = 3 AND o.erdate IS NULL AND o.id <> ALL ($1::int[])
        ORDER BY o.id DESC LIMIT 1`,
      [domains],
    );
    expect((await list(gone.name)).rows.map((r) => r.id)).toEqual([gone.id]);
    await owner.sql.query("UPDATE object_registry SET erdate = now() AT TIME ZONE 'UTC' WHERE id = $1", [gone.id]);
    expect((await list(gone.name)).rows).toEqual([]);
    expect((await list(gone.name, { deleted: "only" })).rows).toEqual([]);
    await owner.sql.query("UPDATE console.object_key_cursor SET swept_at = now() - interval '2 hours'");
    await fredSchedulePass(runtime.sql);
    expect((await list(gone.name, { deleted: "only" })).rows.map((r) => r.id)).toEqual([gone.id]);
  });
});
