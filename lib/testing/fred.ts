import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";

/** The real fred-db 2.52.0 schema: GPL test data beside the repository (../shared/fred-db), never copied into it. */
export const FRED_STRUCTURE_SQL = path.join(process.cwd(), "..", "shared", "fred-db", "structure.sql");

export function fredSchemaAvailable(): boolean {
  return existsSync(FRED_STRUCTURE_SQL);
}

/** A PostgreSQL client program (psql, pg_dump): the PostgreSQL 15 one beside the server binaries, else the one on PATH. */
export function postgresProgram(name: string): string {
  const beside = `/usr/lib/postgresql/15/bin/${name}`;
  return existsSync(beside) ? beside : name;
}

/** One connection for `work`, closed afterwards. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A new database holding an empty FRED registry, loaded the way fred-db's README says: role fred,
 * a UTF8 database it owns, the extensions pgcrypto, pg_trgm and unaccent, then structure.sql run by
 * psql as fred with ON_ERROR_STOP. `url` connects as the admin user (a superuser in tests).
 */
export async function createFredDatabase(adminUrl: string): Promise<{ url: string; fredUrl: string; drop(): Promise<void> }> {
  const name = `rsc_fred_${randomBytes(6).toString("hex")}`;
  await withClient(adminUrl, async (client) => {
    await client.query("DO $$ BEGIN CREATE ROLE fred LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$");
    await client.query(`CREATE DATABASE ${name} OWNER fred TEMPLATE template0 ENCODING 'UTF8'`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await withClient(url.toString(), async (client) => {
    for (const extension of ["pgcrypto", "pg_trgm", "unaccent"]) await client.query(`CREATE EXTENSION ${extension}`);
  });
  const fredUrl = new URL(url.toString());
  fredUrl.username = "fred";
  fredUrl.password = "";
  // psql as the README says.
  execFileSync(postgresProgram("psql"), ["-q", "-X", "-v", "ON_ERROR_STOP=1", "-d", fredUrl.toString(), "-f", FRED_STRUCTURE_SQL], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, PGOPTIONS: "--client-min-messages=warning" },
  });
  return {
    url: url.toString(),
    fredUrl: fredUrl.toString(),
    drop: () => withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}

/**
 * Why FRED's update_object_states and the console's engine may differ on an object at instant `at`
 * (FRED's known bugs, README "States"), from the registry's data: keys `object:state`, or
 * `object:*` for every state of the object; values name the bug. `zone`: the registry's time zone.
 */
export async function fredKnownBugCauses(client: pg.Client, at: string, zone: string): Promise<Map<string, string>> {
  const causes = new Map<string, string>();
  // FRED applies requests for automatic states and for another type's states
  const wrong = await client.query<{ object_id: number; state_id: number }>(
    `SELECT r.object_id, r.state_id FROM object_state_request r JOIN object_registry o ON o.id = r.object_id
       JOIN enum_object_states s ON s.id = r.state_id
      WHERE r.valid_from <= $1::timestamptz AT TIME ZONE 'UTC' AND (r.valid_to IS NULL OR r.valid_to >= $1::timestamptz AT TIME ZONE 'UTC')
        AND r.canceled IS NULL AND (NOT s.manual OR NOT o.type = ANY (s.types))`,
    [at],
  );
  // (and FRED's trigger on object_state derives outzone from a requested serverOutzoneManual, on any object).
  for (const r of wrong.rows) causes.set(`${r.object_id}:*`, "a request for an automatic or another type's state (FRED applies it)");
  // FRED drops a request at once when canceled is set, even to a future instant (the object's
  // states that depend on it follow); FRED counts a request's valid_to as still in force.
  const requests = await client.query<{ object_id: number; cause: string }>(
    `SELECT DISTINCT r.object_id,
            CASE WHEN r.canceled > $1::timestamptz AT TIME ZONE 'UTC' THEN 'a request canceled in the future (FRED drops it at once)'
                 ELSE 'a request ending exactly at the run (FRED counts valid_to as in force)' END AS cause
       FROM object_state_request r
      WHERE r.valid_from <= $1::timestamptz AT TIME ZONE 'UTC'
        AND (r.canceled > $1::timestamptz AT TIME ZONE 'UTC' OR r.valid_to = $1::timestamptz AT TIME ZONE 'UTC')`,
    [at],
  );
  // FRED takes an unlinked object's dates as the UTC date it stores, the console as the registry's
  // calendar date (different for instants late in the evening UTC): deleteCandidate only.
  const late = await client.query<{ object_id: number }>(
    `SELECT o.id AS object_id FROM object_registry o JOIN object ob ON ob.id = o.id
      WHERE o.type IN (1, 2, 4) AND (o.crdate::date <> (o.crdate AT TIME ZONE 'UTC' AT TIME ZONE '${zone}')::date
             OR ob.update::date <> (ob.update AT TIME ZONE 'UTC' AT TIME ZONE '${zone}')::date
             OR EXISTS (SELECT FROM object_state s WHERE s.object_id = o.id AND s.state_id = 16
                          AND s.valid_to::date <> (s.valid_to AT TIME ZONE 'UTC' AT TIME ZONE '${zone}')::date))`,
  );
  // FRED's date rules compare with CURRENT_DATE, the session's date: in a UTC session late in the
  // evening that is not yet the registry's date (expirationWarning, expired, validation warnings, deleteWarning).
  const dates = await client.query<{ differ: boolean }>(
    `SELECT ($1::timestamptz AT TIME ZONE 'UTC')::date <> ($1::timestamptz AT TIME ZONE '${zone}')::date AS differ`,
    [at],
  );
  if (dates.rows[0].differ) {
    const domains = await client.query<{ id: number }>("SELECT id FROM domain");
    for (const d of domains.rows)
      for (const state of [8, 9, 11, 12, 19]) causes.set(`${d.id}:${state}`, "FRED's CURRENT_DATE: the session's date, not the registry's");
  }
  const perObject = new Map(requests.rows.map((r) => [r.object_id, r.cause]));
  for (const r of late.rows) causes.set(`${r.object_id}:17`, "a date late in the evening UTC (FRED takes the stored UTC date)");
  for (const [id, cause] of perObject) causes.set(`${id}:*`, cause);
  return causes;
}
