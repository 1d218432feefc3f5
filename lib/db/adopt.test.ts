// Adopting a real FRED registry (fred-db 2.52.0, ../shared/fred-db/structure.sql) that FRED's own
// programs have been writing: FRED's data as it is, anomalies included, survives adoption; FRED's
// entry point runs the console's engine; db:unadopt gives FRED its own back. PostgreSQL only: the
// schema is loaded with psql as fred-db's README says.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFredDatabase, fredSchemaAvailable } from "../../testing/fred";
import { libfredViolations } from "../../testing/libfred";
import { checkDatabase } from "../check";
import { planAdoption, registryAnomalies, unadopt } from "./adopt";
import { type Database, openDatabase } from "./client";
import { pgExecutor } from "./driver";
import { migrate } from "./migrations";

const adminUrl = process.env.TEST_DATABASE_URL;

/** FRED's registry data as FRED's programs write it: through its tables, with its triggers working. */
const REGISTRY = `
INSERT INTO registrar (id, handle, name, organization, dic, street1, city, postalcode, telephone, email, url)
VALUES (1, 'REG-FRED', 'FRED registrar', 'FRED registrar', 'CZ1', 'Street 1', 'Praha', '11000', '+420.1', 'r@example.cz', 'https://r.example.cz');
INSERT INTO zone (id, fqdn, ex_period_min, ex_period_max, val_period) VALUES (1, 'cz', 12, 120, 0);
INSERT INTO object_registry (id, roid, type, name, crid, crdate) VALUES
  (1, 'C0001-CZ', 1, 'CID-HOLDER', 1, '2020-01-01 10:00'),
  (2, 'N0002-CZ', 2, 'NSS-ONE', 1, '2020-01-01 10:00'),
  (3, 'D0003-CZ', 3, 'alpha.cz', 1, '2020-01-01 10:00'),
  (4, 'D0004-CZ', 3, 'beta.cz', 1, '2020-01-01 10:00'),
  (5, 'D0005-CZ', 3, 'gamma.cz', 1, '2020-01-01 10:00');
INSERT INTO object (id, clid) VALUES (1, 1), (2, 1), (3, 1), (4, 1), (5, 1);
INSERT INTO contact (id, name) VALUES (1, 'Holder');
INSERT INTO nsset (id) VALUES (2);
INSERT INTO domain (id, zone, registrant, nsset, exdate) VALUES
  (3, 1, 1, 2, '2030-01-01'), (4, 1, 1, 2, '2020-06-01'), (5, 1, 1, NULL, '2030-01-01');
SELECT setval('object_registry_id_seq', 10);
-- Anomalies a real registry may hold (FRED's procedure applies them all):
INSERT INTO object_state_request (id, object_id, state_id, valid_from, valid_to, crdate, canceled) VALUES
  (1, 3, 9, '2024-01-01', NULL, '2024-01-01', NULL),                           -- expired: an automatic state
  (2, 2, 7, '2024-01-01', NULL, '2024-01-01', NULL),                           -- serverBlocked on an nsset
  (3, 3, 3, '2024-01-01', NULL, '2024-01-01', NULL),                           -- serverTransferProhibited …
  (4, 3, 3, '2024-06-01', '2025-01-01', '2024-06-01', NULL),                   -- … and again, overlapping
  (5, 4, 5, '2024-01-01', NULL, '2024-01-01', NULL),                           -- out of zone …
  (6, 4, 6, '2024-02-01', NULL, '2024-02-01', NULL),                           -- … and in zone at once
  (7, 5, 4, '2024-01-01', NULL, '2024-01-01', now() + interval '30 days'),    -- canceled in the future
  -- Canceled before they began (FRED's legacy cancel_multiple_object_states): libfred's out_of_turn.
  (8, 3, 1, '2024-03-01', NULL, '2024-01-01', '2024-02-01 12:00'),
  (9, 5, 2, now() + interval '60 days', NULL, '2024-01-01', now() + interval '30 days');
SELECT setval('object_state_request_id_seq', 10);
`;

/** Rows as text, to compare before and after. */
async function rows(client: pg.Client, table: string): Promise<string[]> {
  const result = await client.query(`SELECT t::text AS row FROM ${table} t ORDER BY 1`);
  return result.rows.map((r) => r.row as string);
}

describe.skipIf(!adminUrl || !fredSchemaAvailable())("adopting a FRED 2.52 registry (PostgreSQL)", () => {
  let fred: Awaited<ReturnType<typeof createFredDatabase>>;
  let client: pg.Client;
  let db: Database;
  const before: Record<string, string[]> = {};

  beforeAll(async () => {
    fred = await createFredDatabase(adminUrl as string);
    client = new pg.Client({ connectionString: fred.url });
    await client.connect();
    // Written before the constraint that forbids it (FRED #18356): a handle in lower case.
    await client.query("ALTER TABLE object_registry DROP CONSTRAINT name_case_check");
    await client.query(REGISTRY);
    await client.query("INSERT INTO object_registry (id, roid, type, name, crid) VALUES (6, 'C0006-CZ', 1, 'cid-lower', 1)");
    await client.query("INSERT INTO object (id, clid) VALUES (6, 1)");
    await client.query("INSERT INTO contact (id) VALUES (6)");
    await client.query(
      `ALTER TABLE object_registry ADD CONSTRAINT name_case_check CHECK ((type <> get_object_type_id('domain') AND name = upper(name))
         OR (type = get_object_type_id('domain') AND name = lower(name))) NOT VALID`,
    );
    // FRED's own procedure builds its history (stamped at the run time), in UTC as FRED runs.
    await client.query("SET TimeZone TO 'UTC'");
    await client.query("SELECT update_object_states(0)");
    // From here on, the sessions of the registry's people and programs are in its own zone.
    await client.query("SET TimeZone TO 'Europe/Prague'");
    for (const table of [
      "object_registry",
      "object_state_request",
      "object_state",
      "domain",
      "enum_parameters",
      "domain_lifecycle_parameters",
    ])
      before[table] = await rows(client, table);
    db = await openDatabase({ databaseUrl: fred.url, pgliteDir: "" });
  });

  afterAll(async () => {
    await db?.close();
    await client?.end();
    await fred?.drop();
  });

  it("plans adoption without changing anything: what it creates, replaces and disables, and what it will not accept", async () => {
    const catalogue = async () =>
      rows(client, "(SELECT oid::regprocedure::text FROM pg_proc UNION ALL SELECT tgname || tgenabled::text FROM pg_trigger) ");
    const untouched = await catalogue();
    const plan = await planAdoption(db.direct, undefined, { adoptAs: "charge" });
    expect(await catalogue()).toEqual(untouched);
    expect(plan.found).toBe("a FRED registry, model_version 2.52.0");
    expect(plan.created).toContain("schema console");
    expect(plan.created).toContain("trigger console_state_apply on public.domain");
    expect(plan.created).toContain("trigger console_state_catch_up on public.domain");
    expect(plan.created.some((c) => c.startsWith("index public.console_object_state_open_idx on public.object_state"))).toBe(true);
    // Outside schema console only objects named console_*: indexes and triggers on FRED's tables.
    const outside = plan.created.filter(
      (c) =>
        !/^(schema console|extension \w+ \(in schema console\)|\w+ console\.|\w+ public\.console_|trigger console_|trigger \w+ on console\.)/.test(
          c,
        ),
    );
    expect(outside, outside.join("; ")).toEqual([]);
    // FRED's functions that pinned a search_path without pg_temp get it last (issue 39); update_object_states runs the console's engine.
    expect(plan.replaced).toEqual([
      "function public.get_object_type_id(text)",
      "function public.update_object_states(integer)",
      "function public.unaccent_streets(text,text,text)",
    ]);
    // The running console's role: reads the registry (not the transfer passwords), writes requests.
    expect(plan.granted).toContain("SELECT on public.domain");
    expect(plan.granted).toContain("INSERT on public.object_state_request");
    expect(plan.granted).toContain("UPDATE (valid_to, canceled) on public.object_state_request");
    expect(plan.granted.find((g) => g.startsWith("SELECT (") && g.endsWith(" on public.object"))).not.toMatch(/authinfopw/);
    expect(plan.granted.filter((g) => /^(UPDATE|INSERT|DELETE) on /.test(g)).sort()).toEqual(
      [
        "DELETE on public.object_state_request_lock",
        "INSERT on public.object_state_request",
        "INSERT on public.object_state_request_lock",
        "INSERT on public.object_state_request_reason",
      ].sort(),
    );
    expect(plan.disabled.sort()).toEqual(
      [
        "trigger trigger_domain on public.domain",
        "trigger trigger_domain_contact_map on public.domain_contact_map",
        "trigger trigger_enumval on public.enumval",
        "trigger trigger_keyset_contact_map on public.keyset_contact_map",
        "trigger trigger_nsset_contact_map on public.nsset_contact_map",
        "trigger trigger_object_state on public.object_state",
      ].sort(),
    );
    expect(new Set(plan.anomalies.map((a) => a.kind))).toEqual(
      new Set(["automatic_state", "wrong_type", "overlap", "zone_conflict", "canceled_in_future", "out_of_turn", "handle_case"]),
    );
    // The rows FRED's programs refuse to go past, each with its id, object, state and instants;
    // the same ones libfred's own rule finds. Canceled before its start, 9 is not "canceled in the future".
    const outOfTurn = plan.anomalies.filter((a) => a.kind === "out_of_turn");
    expect(outOfTurn.map((a) => [a.requestId, a.object, a.state])).toEqual([
      [8, "alpha.cz", "serverDeleteProhibited"],
      [9, "gamma.cz", "serverRenewProhibited"],
    ]);
    expect(outOfTurn[0].detail).toBe(
      "request 8 for serverDeleteProhibited on alpha.cz (from 2024-03-01 00:00:00, canceled 2024-02-01 12:00:00, until - UTC) ends " +
        "before it begins: FRED's programs refuse every new serverDeleteProhibited request for this object while it stands (libfred out_of_turn)",
    );
    const pairs = (
      await client.query<{ objectId: number; stateId: number }>(
        `SELECT DISTINCT object_id AS "objectId", state_id AS "stateId" FROM object_state_request`,
      )
    ).rows.map((p) => ({ ...p, acceptsNew: false }));
    expect((await libfredViolations(db.sql, pairs)).map((v) => [v.rule, v.requestId])).toEqual([
      ["out_of_turn", 8],
      ["out_of_turn", 9],
    ]);
    expect(plan.anomalies.filter((a) => a.kind === "canceled_in_future").map((a) => a.requestId)).toEqual([7]);
  });

  it("adopts it: FRED's rows stay, the console's engine answers FRED's cron, the anomalies are listed as inherited", async () => {
    const result = await migrate(db.direct, undefined, { adoptAs: "charge" });
    expect(result.adopted).toEqual({ modelVersion: "2.52.0" });
    // Nothing of FRED's data is lost or changed; history before adoption is kept as it was.
    for (const table of ["object_registry", "object_state_request", "domain", "enum_parameters", "domain_lifecycle_parameters"])
      expect(await rows(client, table), table).toEqual(before[table]);
    const [{ since }] = await db.sql.query<{ since: Date }>("SELECT since FROM console.registry_origin WHERE origin = 'adopted'");
    const history = await db.sql.query<{ id: number; valid_from: Date; valid_to: Date | null }>(
      "SELECT id, valid_from, valid_to FROM object_state ORDER BY id",
    );
    expect(history.length).toBeGreaterThanOrEqual(before.object_state.length);
    for (const row of history.slice(0, before.object_state.length)) {
      expect(row.valid_from.getTime(), JSON.stringify({ row, since, before: before.object_state })).toBeLessThanOrEqual(
        since.getTime() + 1000,
      );
    }

    // FRED's cron, in its own session and time zone, runs the console's engine.
    await client.query("SELECT update_object_states(0)");
    await client.query("SELECT update_object_states(3)");
    // The regular procedure does the due work; adoption already compared every object with the rules.
    const [{ kind }] = await db.sql.query<{ kind: string }>("SELECT last_run_kind AS kind FROM console.state_engine");
    expect(kind).toBe("incremental");

    // The requests FRED applied that the console does not honour are ended at adoption (expired by
    // request, serverBlocked on an nsset); what the rules give stays (gamma.cz has no nsset: outzone).
    const open = await db.sql.query<{ object_id: number; name: string }>(
      `SELECT os.object_id, s.name FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
        WHERE os.valid_to IS NULL ORDER BY 1, 2`,
    );
    const has = (id: number, state: string) => open.some((o) => o.object_id === id && o.name === state);
    expect(has(2, "serverBlocked")).toBe(false);
    expect(has(3, "expired")).toBe(false);
    expect(has(3, "serverTransferProhibited")).toBe(true);
    expect(has(4, "serverOutzoneManual") && has(4, "serverInzoneManual") && has(4, "outzone")).toBe(true);
    expect(has(5, "nssetMissing") && has(5, "outzone")).toBe(true);
    expect(has(5, "serverUpdateProhibited")).toBe(true); // canceled in 30 days: in force until then

    const check = await checkDatabase(db.sql);
    expect(check.checks.filter((c) => c.violations > 0)).toEqual([]);
    expect(new Set(check.inherited.map((a) => a.kind))).toEqual(
      new Set(["automatic_state", "wrong_type", "overlap", "zone_conflict", "canceled_in_future", "out_of_turn", "handle_case"]),
    );
    expect(check.inherited.filter((a) => a.kind === "out_of_turn").map((a) => a.requestId)).toEqual([8, 9]);
    expect((await registryAnomalies(db.sql, 4)).map((a) => a.kind)).toEqual(["zone_conflict"]);
  });

  it("refuses new requests the rules do not allow, from any writer, and takes a new one into effect", async () => {
    await expect(
      client.query("INSERT INTO object_state_request (object_id, state_id, valid_from) VALUES (3, 9, now() AT TIME ZONE 'UTC')"),
    ).rejects.toThrow(/expired is an automatic state/);
    await expect(
      client.query("INSERT INTO object_state_request (object_id, state_id, valid_from) VALUES (2, 7, now() AT TIME ZONE 'UTC')"),
    ).rejects.toThrow(/serverBlocked is not valid for a nsset/);
    // A request FRED's server writes from now, then FRED's call for that object a moment later: the
    // state holds from the request's exact start, not from when the call ran.
    const [{ start }] = (
      await client.query<{ start: string }>(
        `INSERT INTO object_state_request (object_id, state_id, valid_from) VALUES (3, 4, now() AT TIME ZONE 'UTC')
         RETURNING valid_from::text AS start`,
      )
    ).rows;
    await new Promise((resolve) => setTimeout(resolve, 50));
    await client.query("SELECT update_object_states(3)");
    const [row] = (
      await client.query<{ from: string }>(
        "SELECT valid_from::text AS from FROM object_state WHERE object_id = 3 AND state_id = 4 AND valid_to IS NULL",
      )
    ).rows;
    expect(row.from).toBe(start);
  });

  it("pairs every two overlapping requests of an object and state as an anomaly, and no others", async () => {
    // A long period holding two short ones, a period that only touches another, one canceled before
    // it began (empty): the overlaps are the long one with each short one.
    await client.query("BEGIN");
    try {
      await client.query("SET LOCAL session_replication_role = replica");
      await client.query(
        `INSERT INTO object_state_request (id, object_id, state_id, valid_from, valid_to, crdate, canceled) VALUES
           (101, 4, 1, '2024-01-01', '2024-12-01', '2024-01-01', NULL),
           (102, 4, 1, '2024-02-01', '2024-03-01', '2024-01-01', NULL),
           (103, 4, 1, '2024-05-01', '2024-06-01', '2024-01-01', NULL),
           (104, 4, 1, '2024-12-01', '2025-01-01', '2024-01-01', NULL),
           (105, 4, 1, '2024-04-01', NULL, '2024-01-01', '2024-04-01'),
           (106, 4, 2, '2024-02-01', '2024-03-01', '2024-01-01', NULL)`,
      );
      const anomalies = await registryAnomalies(pgExecutor(client), 4);
      expect(anomalies.filter((a) => a.kind === "overlap").map((a) => [a.otherRequestId, a.requestId])).toEqual([
        [101, 102],
        [101, 103],
      ]);
    } finally {
      await client.query("ROLLBACK");
    }
  });

  it("is removed again by db:unadopt: FRED's procedure and triggers back, its data kept", async () => {
    const dry = await unadopt(db.direct, { dryRun: true });
    expect(dry.restored).toEqual([
      "function get_object_type_id(text)",
      "function unaccent_streets(text,text,text)",
      "function update_object_states(integer)",
    ]);
    expect(await rows(client, "(SELECT nspname FROM pg_namespace WHERE nspname = 'console') ")).toEqual(["(console)"]);
    const historyRows = (await rows(client, "object_state")).length;
    await unadopt(db.direct, { dryRun: false });
    expect(await rows(client, "(SELECT nspname FROM pg_namespace WHERE nspname = 'console') ")).toEqual([]);
    const triggers = await client.query<{ tgname: string; tgenabled: string }>(
      "SELECT tgname, tgenabled FROM pg_trigger WHERE NOT tgisinternal AND (tgname LIKE 'console%' OR tgenabled = 'D')",
    );
    expect(triggers.rows).toEqual([]);
    expect((await rows(client, "object_state")).length).toBe(historyRows);
    // The running console's role keeps no right on FRED's tables.
    const [{ grants }] = (
      await client.query<{ grants: number }>(
        `SELECT (SELECT count(*) FROM pg_class c, aclexplode(c.relacl) a
                  WHERE c.relnamespace = 'public'::regnamespace AND a.grantee = 'console_app'::regrole)
              + (SELECT count(*) FROM pg_attribute t JOIN pg_class c ON c.oid = t.attrelid, aclexplode(t.attacl) a
                  WHERE c.relnamespace = 'public'::regnamespace AND a.grantee = 'console_app'::regrole) AS grants`,
      )
    ).rows;
    expect(Number(grants)).toBe(0);
    // FRED's own procedure works again on the data.
    await client.query("SELECT update_object_states(0)");
    const [{ body }] = (await client.query<{ body: string }>("SELECT prosrc AS body FROM pg_proc WHERE proname = 'update_object_states'"))
      .rows;
    expect(body).toMatch(/tmp_object_state_change/);
  });
});
