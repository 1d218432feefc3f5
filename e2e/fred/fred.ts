import { readFileSync } from "node:fs";
import pg from "pg";

/** How many demo domains e2e/fred/server.ts loads into the FRED database. */
export const FRED_E2E_DOMAINS = 3000;
/** Where e2e/fred/server.ts leaves the database's addresses for the spec. */
export const FRED_E2E_DATABASE = ".data/e2e-fred-database.json";
export const FRED_E2E_SERVER_LOG = ".data/e2e-fred-server.log";

/**
 * A connection to the FRED database as FRED's own programs open it: role fred, a session in the
 * registry's zone (FRED's cron does not set one).
 */
export async function fredConnection(): Promise<pg.Client> {
  const { fredUrl } = JSON.parse(readFileSync(FRED_E2E_DATABASE, "utf8")) as { fredUrl: string };
  const client = new pg.Client({ connectionString: fredUrl });
  await client.connect();
  await client.query("SET TimeZone TO 'Europe/Prague'");
  return client;
}
