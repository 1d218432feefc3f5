import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../lib/db/client";
import { migrate } from "../../lib/db/migrations";
import { testBackends } from "../../lib/testing/databases";
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

/** Every index and constraint of the registry's tables, as PostgreSQL would recreate them. */
const SCHEMA_SQL = `
SELECT 'index ' || indexrelid::regclass::text || ': ' || pg_get_indexdef(indexrelid) AS item FROM pg_index
 WHERE indrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace)
UNION ALL
SELECT 'constraint ' || conrelid::regclass::text || '.' || conname || ': ' || pg_get_constraintdef(oid) || ' valid=' || convalidated
  FROM pg_constraint WHERE connamespace = 'public'::regnamespace
ORDER BY 1`;

describe.each(testBackends())("demo registry on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let schemaBefore: string[];

  beforeAll(async () => {
    ({ db, drop } = await backend.create());
    await migrate(db.sql);
    schemaBefore = (await db.sql.query<{ item: string }>(SCHEMA_SQL)).map((r) => r.item);
    await seedDemo(db.sql, OPTIONS);
  });

  it("builds again every index and constraint it set aside for the bulk load, and they hold", async () => {
    const after = (await db.sql.query<{ item: string }>(SCHEMA_SQL)).map((r) => r.item);
    expect(after).toEqual(schemaBefore);
    expect(
      after.filter((i) => /domain_registrant_fkey|console_object_registry_name_trgm_idx|console_object_state_period_idx/.test(i)),
    ).toHaveLength(3);
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

  it("loads the same rows for the same seed into another database", async () => {
    const other = await backend.create();
    try {
      await migrate(other.db.sql);
      await seedDemo(other.db.sql, OPTIONS);
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
    await expect(seedDemo(db.sql, { ...OPTIONS, seed: 12 })).rejects.toThrow(/already holds \d+ objects/);
    expect(await fingerprint(db)).toEqual(before);
  });
});
