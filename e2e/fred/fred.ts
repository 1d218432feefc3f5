import { readFileSync } from "node:fs";
import pg from "pg";

/** How many demo domains e2e/fred/server.ts loads into the FRED database. */
export const FRED_E2E_DOMAINS = 3000;
/**
 * The mode the registry is adopted in (issue 40): "charge" (the console's engine in FRED's place,
 * playwright.fred.config.ts) or "beside" (FRED keeps its own engine, playwright.fred-beside.config.ts,
 * which sets E2E_FRED_MODE for its server and its workers).
 */
export const FRED_E2E_MODE: "charge" | "beside" = process.env.E2E_FRED_MODE === "beside" ? "beside" : "charge";
const suffix = FRED_E2E_MODE === "beside" ? "-beside" : "";
/** Where e2e/fred/server.ts leaves the database's addresses for the spec (one file per mode). */
export const FRED_E2E_DATABASE = `.data/e2e-fred${suffix}-database.json`;
export const FRED_E2E_SERVER_LOG = `.data/e2e-fred${suffix}-server.log`;

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
