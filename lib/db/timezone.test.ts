// FRED's instants are `timestamp`s holding UTC, and FRED's programs call in with whatever session
// time zone they have (a registry's cron runs in Europe/Prague). The key queries — the engine's full
// build of history, the rules, the reasons, the anomalies, "who had state X at instant T" — give
// identical results in every session time zone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { createDomain, createObject, createRequest, registryAt, TYPE, wholeHistory } from "../../testing/registry";
import { registryAnomalies } from "./adopt";
import type { Database } from "./client";
import { rolledBack, type SqlExecutor } from "./driver";

const AT = new Date("2026-11-22T12:00:00Z");
const ZONES = ["UTC", "Europe/Prague", "America/Los_Angeles", "Asia/Tokyo"];

async function build(tx: SqlExecutor): Promise<void> {
  // Created at 23:30 UTC: another calendar day in Prague and Tokyo than in UTC and Los Angeles.
  const holder = await createObject(tx, TYPE.contact, "TZ-HOLDER", "2025-12-31T23:30:00Z");
  const nsset = await createObject(tx, TYPE.nsset, "TZ-NS", "2025-12-31T23:30:00Z");
  await createObject(tx, TYPE.contact, "TZ-LONELY", "2026-03-31T23:30:00Z");
  await createDomain(tx, { name: "tz-expired.cz", crdate: "2020-01-01T00:00:00Z", exdate: "2026-09-25", registrant: holder, nsset });
  await createDomain(tx, { name: "tz-dst.cz", crdate: "2020-01-01T00:00:00Z", exdate: "2026-10-25", registrant: holder, nsset });
  const kept = await createDomain(tx, {
    name: "tz-kept.cz",
    crdate: "2020-01-01T00:00:00Z",
    exdate: "2030-01-01",
    registrant: holder,
    nsset,
  });
  await createRequest(tx, kept, "serverOutzoneManual", "2026-10-24T22:30:00Z", "2026-10-25T01:30:00Z");
  await createRequest(tx, kept, "serverBlocked", "2026-11-01T00:00:00Z", null, "2026-11-20T23:59:59Z");
}

/** The results of the key queries in one session time zone; the engine's history is built anew inside. */
async function keyResults(db: Database, zone: string): Promise<unknown> {
  return rolledBack(db.sql, async (tx) => {
    await tx.query("SELECT set_config('TimeZone', $1, true)", [zone]);
    await tx.run("DELETE FROM object_state");
    await tx.run("UPDATE console.state_engine SET cursor = NULL");
    await tx.run("DELETE FROM console.state_next_event");
    await tx.query("SELECT * FROM console.state_engine_run($1, true)", [AT]);
    const epoch = (column: string) => `extract(epoch FROM ${column})::float8`;
    return {
      history: await wholeHistory(tx),
      periods: await tx.query(
        `SELECT object_id, state_id, ${epoch("valid_from")} AS f, ${epoch("valid_to")} AS t FROM console.object_state_periods()
            ORDER BY 1, 2, 3`,
      ),
      reasons: await tx.query(
        `SELECT o.id, r.state_id, r.code, (r.args - 'at' - 'from' - 'to' - 'since' - 'manualFrom' - 'unguardedAt' - 'notValidatedAt')::text AS args,
                  ${epoch("(r.args->>'at')::timestamptz")} AS at, ${epoch("(r.args->>'from')::timestamptz")} AS "from",
                  ${epoch("(r.args->>'since')::timestamptz")} AS since, ${epoch("(r.args->>'manualFrom')::timestamptz")} AS manual_from,
                  ${epoch("(r.args->>'unguardedAt')::timestamptz")} AS unguarded_at,
                  ${epoch("(r.args->>'notValidatedAt')::timestamptz")} AS not_validated_at
             FROM object_registry o CROSS JOIN LATERAL console.state_reasons(o.id, $1) r ORDER BY 1, 2, 3`,
        [AT],
      ),
      heldAt: await tx.query(
        `SELECT os.object_id, os.state_id FROM object_state os
            WHERE tsrange(os.valid_from, os.valid_to, '[)') @> ($1::timestamptz AT TIME ZONE 'UTC') ORDER BY 1, 2`,
        [new Date("2026-10-25T00:00:00Z")],
      ),
      anomalies: await registryAnomalies(tx),
    };
  });
}

describe.each(testBackends())("session time zones on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await registryAt(backend, AT, build));
  });
  afterAll(() => drop());

  it("gives identical results for the key queries in UTC, Europe/Prague, America/Los_Angeles and Asia/Tokyo", async () => {
    const reference = await keyResults(db, ZONES[0]);
    expect((reference as { history: unknown[] }).history.length).toBeGreaterThan(10);
    for (const zone of ZONES.slice(1)) expect(await keyResults(db, zone), zone).toEqual(reference);
  });

  it("stores the instants it writes as UTC wall-clock time", async () => {
    const [row] = await db.sql.query<{ from: string }>(
      `SELECT os.valid_from::text AS from FROM object_state os JOIN object_registry o ON o.id = os.object_id
        WHERE o.name = 'tz-dst.cz' AND os.state_id = 9`,
    );
    // expired: 2026-10-25 00:00 CEST, on the day summer time ends.
    expect(row.from).toBe("2026-10-24 22:00:00");
  });
});
