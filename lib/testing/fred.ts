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
