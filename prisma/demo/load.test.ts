import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../lib/db/client";
import { migrate } from "../../lib/db/migrations";
import { testBackends } from "../../testing/databases";
import { createFredDatabase, fredSchemaAvailable } from "../../testing/fred";
import { TABLE_ORDER } from "./generate";
import { seedDemo } from "./load";

const NOW = "2026-11-22T10:00:00Z";
const TZ = "Europe/Prague";
const OPTIONS = { domains: 200, seed: 11, now: new Date(NOW), timeZone: TZ };

/** A digest of every table's content (but FRED's random uuid columns), independent of session settings. */
async function fingerprint(db: Database): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  await db.sql.transaction(async (tx) => {
    for (const table of TABLE_ORDER) {
      const [row] = await tx.query<{ digest: string }>(
        `SELECT md5(coalesce(string_agg((to_jsonb(t) - 'uuid')::text, '|' ORDER BY (to_jsonb(t) - 'uuid')::text), '')) AS digest FROM ${table} t`,
      );
      result[table] = row.digest;
    }
  });
  return result;
}

// The automatic states' conditions, evaluated on the raw data at NOW with fred-db 2.52's parameters
// (domain_lifecycle_parameters: warning 30 days before, unguarded 30 days after at 14:00 (enum_parameters
// 14), deleteCandidate 61 days after at 00:00 (enum_parameters 9); unlinked objects after 6 months).
// FRED's instants are UTC timestamps: p.utc is NOW as one.
const CONDITIONS_SQL = `
WITH p AS (SELECT $1::timestamptz AS now, $1::timestamptz AT TIME ZONE 'UTC' AS utc, ($1::timestamptz AT TIME ZONE $2)::date AS today, $2::text AS tz),
live AS (SELECT o.* FROM object_registry o WHERE o.erdate IS NULL),
referenced AS (
  SELECT registrant AS id FROM domain UNION SELECT contactid FROM domain_contact_map
  UNION SELECT contactid FROM nsset_contact_map UNION SELECT contactid FROM keyset_contact_map
  UNION SELECT nsset FROM domain WHERE nsset IS NOT NULL UNION SELECT keyset FROM domain WHERE keyset IS NOT NULL)
SELECT
  (SELECT count(*)::int FROM domain d, p WHERE d.exdate - 30 <= p.today AND d.exdate > p.today) AS "expirationWarning",
  (SELECT count(*)::int FROM domain d, p WHERE d.exdate <= p.today AND ((d.exdate + 30) + time '14:00') AT TIME ZONE p.tz > p.now) AS "expired",
  (SELECT count(*)::int FROM domain d, p WHERE ((d.exdate + 30) + time '14:00') AT TIME ZONE p.tz <= p.now
      AND ((d.exdate + 61) + time '00:00') AT TIME ZONE p.tz > p.now) AS "unguarded",
  (SELECT count(*)::int FROM domain d, p WHERE ((d.exdate + 61) + time '00:00') AT TIME ZONE p.tz <= p.now) AS "deleteCandidate (domain)",
  (SELECT count(*)::int FROM enumval e, p WHERE e.exdate - 30 <= p.today AND e.exdate - 15 > p.today) AS "validationWarning1",
  (SELECT count(*)::int FROM enumval e, p WHERE e.exdate - 15 <= p.today AND (e.exdate + time '14:00') AT TIME ZONE p.tz > p.now) AS "validationWarning2",
  (SELECT count(*)::int FROM enumval e, p WHERE (e.exdate + time '14:00') AT TIME ZONE p.tz <= p.now) AS "notValidated",
  (SELECT count(*)::int FROM domain d WHERE d.nsset IS NULL) AS "nssetMissing",
  (SELECT count(*)::int FROM live WHERE type IN (1, 2, 4) AND id IN (SELECT id FROM referenced)) AS "linked",
  (SELECT count(*)::int FROM live, p WHERE type = 1 AND id NOT IN (SELECT id FROM referenced)
      AND ((crdate AT TIME ZONE 'UTC' AT TIME ZONE p.tz)::date + interval '6 months') AT TIME ZONE p.tz <= p.now) AS "deleteCandidate (contact)",
  (SELECT count(*)::int FROM live, p WHERE type = 2 AND id NOT IN (SELECT id FROM referenced)
      AND ((crdate AT TIME ZONE 'UTC' AT TIME ZONE p.tz)::date + interval '6 months') AT TIME ZONE p.tz <= p.now) AS "deleteCandidate (nsset)",
  (SELECT count(*)::int FROM live, p WHERE type = 4 AND id NOT IN (SELECT id FROM referenced)
      AND ((crdate AT TIME ZONE 'UTC' AT TIME ZONE p.tz)::date + interval '6 months') AT TIME ZONE p.tz <= p.now) AS "deleteCandidate (keyset)",
  (SELECT count(*)::int FROM live, p WHERE type IN (1, 2, 4) AND id NOT IN (SELECT id FROM referenced)
      AND ((crdate AT TIME ZONE 'UTC' AT TIME ZONE p.tz)::date + interval '6 months') AT TIME ZONE p.tz > p.now) AS "unlinked but protected",
  (SELECT count(*)::int FROM object_registry WHERE erdate IS NOT NULL) AS "deleted objects",
  (SELECT count(*)::int FROM object_state_request r, p WHERE r.canceled IS NULL AND r.valid_to <= p.utc) AS "ended requests",
  (SELECT count(*)::int FROM object_state_request r, p WHERE r.canceled IS NULL AND r.valid_from <= p.utc AND (r.valid_to IS NULL OR r.valid_to > p.utc)) AS "requests in force",
  (SELECT count(*)::int FROM object_state_request r, p WHERE r.canceled IS NULL AND r.valid_from > p.utc) AS "future requests",
  (SELECT count(*)::int FROM object_state_request r, p WHERE r.canceled IS NOT NULL AND r.canceled <= r.valid_from) AS "requests canceled before start",
  (SELECT count(*)::int FROM object_state_request r, p WHERE r.canceled IS NOT NULL AND r.canceled > r.valid_from) AS "requests canceled in force",
  (SELECT count(DISTINCT object_id)::int FROM object_state_request WHERE state_id = 7) AS "administrative blocks",
  (SELECT count(*)::int FROM object_state_request WHERE state_id = 5) AS "serverOutzoneManual requests",
  (SELECT count(*)::int FROM object_state_request WHERE state_id = 6) AS "serverInzoneManual requests",
  (SELECT count(*)::int FROM object_state_request_reason WHERE reason_creation IS NULL) AS "requests without reason"`;

/**
 * FRED's object history as its programs leave it, each promise with the number of rows breaking it:
 * every object's versions form one chain from crhistoryid to historyid (each version's valid_to and
 * next are the following one's start and id; the last one open, or ended at erdate), the last
 * version holds the object's current data, and every state row names the version in force when it
 * opened (ohid_from) and closed (ohid_to), as FRED's trigger_object_state_hid records them.
 */
const HISTORY_CHECKS_SQL = `
WITH version AS (
  SELECT v.id AS object_id, h.*, r.crhistoryid, r.historyid AS last, r.erdate,
         EXISTS (SELECT FROM history p WHERE p.next = h.id) AS has_previous
    FROM object_history v JOIN history h ON h.id = v.historyid JOIN object_registry r ON r.id = v.id
), in_force AS (
  SELECT s.*, (SELECT v.id FROM version v WHERE v.object_id = s.object_id AND v.valid_from <= s.valid_from
                ORDER BY v.valid_from DESC LIMIT 1) AS at_from,
              (SELECT v.id FROM version v WHERE v.object_id = s.object_id AND v.valid_from <= s.valid_to
                ORDER BY v.valid_from DESC LIMIT 1) AS at_to,
              (SELECT r.crhistoryid FROM object_registry r WHERE r.id = s.object_id) AS first
    FROM object_state s
)
SELECT 'object without its first or last version' AS "check", count(*)::int AS violations FROM object_registry r
 WHERE NOT EXISTS (SELECT FROM version v WHERE v.id = r.crhistoryid AND v.object_id = r.id AND v.valid_from = r.crdate)
    OR NOT EXISTS (SELECT FROM version v WHERE v.id = r.historyid AND v.object_id = r.id)
UNION ALL
SELECT 'version that is not the creation and follows none', count(*)::int FROM version WHERE has_previous = (id = crhistoryid)
UNION ALL
SELECT 'version whose next is another object''s or starts elsewhere', count(*)::int FROM version v
 WHERE v.next IS NOT NULL AND NOT EXISTS (SELECT FROM version n WHERE n.id = v.next AND n.object_id = v.object_id
                                                                    AND n.valid_from = v.valid_to AND n.valid_from > v.valid_from)
UNION ALL
SELECT 'last version not the current one, or not ended at erdate', count(*)::int FROM version
 WHERE (next IS NULL) <> (id = last) OR (next IS NULL AND valid_to IS DISTINCT FROM erdate)
UNION ALL
SELECT 'history without an object', count(*)::int FROM history h WHERE NOT EXISTS (SELECT FROM object_history v WHERE v.historyid = h.id)
UNION ALL
SELECT 'current version differs from the object', count(*)::int FROM object o JOIN object_registry r ON r.id = o.id
  JOIN object_history v ON v.historyid = r.historyid
 WHERE (v.clid, v.upid, v.trdate, v.update, v.authinfopw) IS DISTINCT FROM (o.clid, o.upid, o.trdate, o.update, o.authinfopw)
UNION ALL
SELECT 'open state without ohid_from', count(*)::int FROM object_state WHERE valid_to IS NULL AND ohid_from IS NULL
UNION ALL
SELECT 'state whose ohid_from is not the version in force at valid_from', count(*)::int FROM in_force
 WHERE ohid_from IS DISTINCT FROM coalesce(at_from, first)
UNION ALL
SELECT 'state whose ohid_to is not the version in force at valid_to', count(*)::int FROM in_force
 WHERE ohid_to IS DISTINCT FROM CASE WHEN valid_to IS NOT NULL THEN coalesce(at_to, first) END`;

/** How much history the demo has: objects with more than one version, state rows opened before the current one. */
const HISTORY_EXTENT_SQL = `
SELECT (SELECT count(*)::int FROM object_registry WHERE historyid <> crhistoryid) AS "changed objects",
       (SELECT count(*)::int FROM object_registry WHERE erdate IS NOT NULL AND historyid IS NOT NULL) AS "deleted objects with history",
       (SELECT count(*)::int FROM object_state s JOIN object_registry r ON r.id = s.object_id
         WHERE s.valid_to IS NULL AND s.ohid_from <> r.historyid) AS "open states from an earlier version",
       (SELECT count(*)::int FROM object_state WHERE ohid_to IS NOT NULL) AS "closed states"`;

/**
 * FRED's per-type history (fred-db 2.52 only): every version of every object has its type's row, and
 * the current version's rows are the object's live rows (the demo's objects keep their data).
 */
const TYPE_HISTORY_CHECKS_SQL = `
WITH version AS (SELECT v.historyid, r.id, r.type, r.historyid = v.historyid AS current, r.erdate IS NULL AS live
                   FROM object_history v JOIN object_registry r ON r.id = v.id)
SELECT 'version without its type''s row' AS "check", count(*)::int AS violations FROM version v
 WHERE NOT EXISTS (SELECT FROM domain_history t WHERE v.type = 3 AND t.historyid = v.historyid AND t.id = v.id)
   AND NOT EXISTS (SELECT FROM contact_history t WHERE v.type = 1 AND t.historyid = v.historyid AND t.id = v.id)
   AND NOT EXISTS (SELECT FROM nsset_history t WHERE v.type = 2 AND t.historyid = v.historyid AND t.id = v.id)
   AND NOT EXISTS (SELECT FROM keyset_history t WHERE v.type = 4 AND t.historyid = v.historyid AND t.id = v.id)
UNION ALL
SELECT 'current domain_history differs from domain', count(*)::int FROM domain d JOIN object_registry r ON r.id = d.id
 WHERE NOT EXISTS (SELECT FROM domain_history t WHERE t.historyid = r.historyid
                     AND (t.id, t.zone, t.exdate, t.registrant, t.nsset, t.keyset) IS NOT DISTINCT FROM (d.id, d.zone, d.exdate, d.registrant, d.nsset, d.keyset))
UNION ALL
SELECT 'current contact_history differs from contact', count(*)::int FROM contact c JOIN object_registry r ON r.id = c.id
 WHERE NOT EXISTS (SELECT FROM contact_history t WHERE t.historyid = r.historyid AND t.id = c.id
                     AND (t.name, t.email, t.discloseaddress) IS NOT DISTINCT FROM (c.name, c.email, c.discloseaddress))
UNION ALL
SELECT 'maps of the current version differ from the live maps', count(*)::int FROM (
  (SELECT 'd', t.domainid, t.contactid, t.role FROM domain_contact_map_history t JOIN version v ON v.historyid = t.historyid AND v.current AND v.live
   EXCEPT SELECT 'd', domainid, contactid, role FROM domain_contact_map)
  UNION ALL (SELECT 'd', domainid, contactid, role FROM domain_contact_map
   EXCEPT SELECT 'd', t.domainid, t.contactid, t.role FROM domain_contact_map_history t JOIN version v ON v.historyid = t.historyid AND v.current)
  UNION ALL (SELECT 'n', nssetid, contactid, 0 FROM nsset_contact_map
   EXCEPT SELECT 'n', t.nssetid, t.contactid, 0 FROM nsset_contact_map_history t JOIN version v ON v.historyid = t.historyid AND v.current)
  UNION ALL (SELECT 'k', keysetid, contactid, 0 FROM keyset_contact_map
   EXCEPT SELECT 'k', t.keysetid, t.contactid, 0 FROM keyset_contact_map_history t JOIN version v ON v.historyid = t.historyid AND v.current)
  UNION ALL (SELECT 'h', nssetid, id, 0 FROM host
   EXCEPT SELECT 'h', t.nssetid, t.id, 0 FROM host_history t JOIN version v ON v.historyid = t.historyid AND v.current)
  UNION ALL (SELECT 'a', nssetid, id, 0 FROM host_ipaddr_map
   EXCEPT SELECT 'a', t.nssetid, t.id, 0 FROM host_ipaddr_map_history t JOIN version v ON v.historyid = t.historyid AND v.current)
  UNION ALL (SELECT 'e', domainid, exdate - date '2000-01-01', publish::int FROM enumval
   EXCEPT SELECT 'e', t.domainid, t.exdate - date '2000-01-01', t.publish::int FROM enumval_history t JOIN version v ON v.historyid = t.historyid AND v.current)
) differing`;

/** Every index and constraint of the registry's tables, as PostgreSQL would recreate them. */
const SCHEMA_SQL = `
SELECT 'index ' || indexrelid::regclass::text || ': ' || pg_get_indexdef(indexrelid) AS item FROM pg_index
 WHERE indrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace) OR indrelid = 'console.object_key'::regclass
UNION ALL
SELECT 'constraint ' || conrelid::regclass::text || '.' || conname || ': ' || pg_get_constraintdef(oid) || ' valid=' || convalidated
  FROM pg_constraint WHERE connamespace = 'public'::regnamespace
ORDER BY 1`;

describe.each(testBackends())("demo registry on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let schemaBefore: string[];

  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
    schemaBefore = (await db.sql.query<{ item: string }>(SCHEMA_SQL)).map((r) => r.item);
    await seedDemo(db.direct, OPTIONS);
  });

  it("builds again every index and constraint it set aside for the bulk load, and they hold", async () => {
    const after = (await db.sql.query<{ item: string }>(SCHEMA_SQL)).map((r) => r.item);
    expect(after).toEqual(schemaBefore);
    expect(after.filter((i) => /domain_registrant_fkey|object_key_name_trgm_idx|console_object_state_open_idx/.test(i))).toHaveLength(3);
    await expect(db.sql.query("UPDATE domain SET registrant = -1 WHERE id = (SELECT min(id) FROM domain)")).rejects.toThrow(/foreign key/);
  });
  afterAll(() => drop());

  it("covers the condition of every automatic state, and every kind of request", async () => {
    const [counts] = await db.sql.query<Record<string, number>>(CONDITIONS_SQL, [NOW, TZ]);
    const { "requests without reason": withoutReason, ...mustOccur } = counts;
    expect(withoutReason).toBe(0);
    for (const [condition, count] of Object.entries(mustOccur)) {
      expect(count, condition).toBeGreaterThan(0);
    }
  });

  it("writes FRED's object history: one chain of versions per object, and each state row's versions", async () => {
    const checks = await db.sql.query<{ check: string; violations: number }>(HISTORY_CHECKS_SQL);
    expect(checks).toHaveLength(9);
    for (const { check, violations } of checks) expect(violations, check).toBe(0);
    const [extent] = await db.sql.query<Record<string, number>>(HISTORY_EXTENT_SQL);
    for (const [what, count] of Object.entries(extent)) expect(count, what).toBeGreaterThan(0);
  });

  it("loads the same rows for the same seed into another database", async () => {
    const other = await backend.create();
    try {
      await migrate(other.db.direct);
      await seedDemo(other.db.direct, OPTIONS);
      expect(await fingerprint(other.db)).toEqual(await fingerprint(db));
    } finally {
      await other.drop();
    }
  });

  it("leaves the sequences after the loaded ids, so new objects and requests can be created", async () => {
    const [{ id }] = await db.sql.query<{ id: number }>(
      "INSERT INTO object_state_request (object_id, state_id, valid_from) SELECT min(id), 4, now() + interval '1 day' FROM object_registry RETURNING id",
    );
    const [{ max }] = await db.sql.query<{ max: number }>("SELECT max(id) AS max FROM object_state_request WHERE id <> $1", [id]);
    expect(id).toBeGreaterThan(max);
  });

  it("refuses to load into a registry that already has data, and changes nothing", async () => {
    const before = await fingerprint(db);
    await expect(seedDemo(db.direct, { ...OPTIONS, seed: 12 })).rejects.toThrow(/already holds \d+ objects/);
    expect(await fingerprint(db)).toEqual(before);
  });
});

const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl || !fredSchemaAvailable())("demo registry on a FRED 2.52 database (PostgreSQL)", () => {
  let fred: Awaited<ReturnType<typeof createFredDatabase>>;
  let db: Database;

  beforeAll(async () => {
    fred = await createFredDatabase(adminUrl as string);
    db = await openDatabase({ databaseUrl: fred.url, pgliteDir: "" });
    await migrate(db.direct, undefined, { adoptAs: "charge" });
    await seedDemo(db.direct, OPTIONS);
  });
  afterAll(async () => {
    await db?.close();
    await fred?.drop();
  });

  it("writes the history FRED's programs write: versions, per-type rows, and each state row's versions", async () => {
    const checks = [
      ...(await db.sql.query<{ check: string; violations: number }>(HISTORY_CHECKS_SQL)),
      ...(await db.sql.query<{ check: string; violations: number }>(TYPE_HISTORY_CHECKS_SQL)),
    ];
    expect(checks).toHaveLength(13);
    for (const { check, violations } of checks) expect(violations, check).toBe(0);
    const [extent] = await db.sql.query<Record<string, number>>(HISTORY_EXTENT_SQL);
    for (const [what, count] of Object.entries(extent)) expect(count, what).toBeGreaterThan(0);
    const [rows] = await db.sql.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM domain_contact_map_history) AS "domain_contact_map_history",
              (SELECT count(*)::int FROM host_ipaddr_map_history) AS "host_ipaddr_map_history",
              (SELECT count(*)::int FROM enumval_history) AS "enumval_history"`,
    );
    for (const [table, count] of Object.entries(rows)) expect(count, table).toBeGreaterThan(0);
  });

  it("leaves FRED's history triggers on, so the states FRED's programs and the engine open next get their versions", async () => {
    const triggers = await db.sql.query<{ name: string; enabled: string }>(
      `SELECT tgname AS name, tgenabled::text AS enabled FROM pg_trigger
        WHERE tgname IN ('trigger_object_state_hid', 'trigger_object_history', 'trigger_object_registry_update_history_rec') ORDER BY 1`,
    );
    expect(triggers).toEqual([
      { name: "trigger_object_history", enabled: "O" },
      { name: "trigger_object_registry_update_history_rec", enabled: "O" },
      { name: "trigger_object_state_hid", enabled: "O" },
    ]);
  });
});
