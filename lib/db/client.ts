import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { type ConsoleConfig, readConfig } from "../config";
import { PrismaClient } from "../generated/prisma/client";
import { metrics } from "../metrics";
import { type DirectDriver, describePostgresUrl, pgliteDriver, postgresDriver, type SqlDriver, type SqlReader } from "./driver";
import { explainConnectionError, StartupError } from "./errors";
import { openPglite } from "./pglite";
import { prismaSql } from "./prisma-sql";

/**
 * The process's handle on the registry database. Every read and write of the console goes through
 * Prisma: `prisma`'s models for the plain tables, `sql` (Prisma's raw SQL and transactions) for the
 * rule-heavy queries. `direct` is the connection Prisma itself sits on, for what Prisma does not do:
 * the migration runner's and adoption's scripts of many statements, and start-up checks.
 */
export interface Database {
  prisma: PrismaClient;
  sql: SqlDriver;
  direct: DirectDriver;
  close(): Promise<void>;
  /** The PostgreSQL pool's connections now (the metrics'); null on the embedded database. */
  connections(): { total: number; idle: number; waiting: number } | null;
}

type DatabaseTarget = Pick<ConsoleConfig, "databaseUrl" | "pgliteDir"> & {
  /** The setting the URL came from, named in connection errors (default DATABASE_URL). */
  urlVariable?: string;
};

function database(prisma: PrismaClient, direct: DirectDriver): Database {
  const close = async () => {
    await prisma.$disconnect();
    await direct.close();
  };
  return {
    prisma,
    sql: prismaSql(prisma, direct.kind, direct.location, close),
    direct,
    close,
    connections: () => direct.connections?.() ?? null,
  };
}

/** What the console's sessions call themselves on the server (pg_stat_activity.application_name). */
export const APPLICATION_NAME = "registry-state-console";

/** How often PostgreSQL looks whether the console's end of a connection running a statement is still there. */
export const CONNECTION_CHECK_MS = 1000;

/** The longest a console's session may sit idle inside a transaction before PostgreSQL ends it. */
export const IDLE_IN_TRANSACTION_MS = 60_000;

async function openPostgres(url: string, variable?: string): Promise<Database> {
  const location = describePostgresUrl(url);
  // Prisma's pg adapter reads a timestamptz as if the session's zone were UTC (it drops the offset),
  // so every connection of the console starts in UTC, whatever the database's default zone is; the
  // console's SQL names every other zone it needs (the registry's) explicitly.
  // JIT off: the console's queries are short, and a list whose plan the planner prices above
  // jit_above_cost (a forecast over the stored plan, 1.5 million domains) spent 15–45 ms compiling
  // for a query that runs in 2 ms. The engine's long runs set it off in their functions too.
  // client_connection_check_interval: a console that is gone (killed, crashed, its machine lost)
  // leaves nothing running on the registry's server. PostgreSQL otherwise runs a statement whose
  // client has gone to its end: the overview's background counts (about 20 s of a core at 1.5
  // million domains) went on after every restart, beside FRED's work. With it, the server looks at
  // the connection each second while a statement runs and ends the statement once it is closed.
  // idle_in_transaction_session_timeout: a console that hangs inside a transaction (a stalled
  // process, a bug) holds its locks on FRED's rows for a minute at most; FRED's commands that wait
  // on them go on then. The console's own transactions never wait that long between statements.
  // application_name: FRED's DBAs tell the console's sessions from FRED's in pg_stat_activity
  // (an application_name in the URL wins, then PGAPPNAME, as with libpq).
  const pool = new pg.Pool({
    connectionString: url,
    application_name: process.env.PGAPPNAME || APPLICATION_NAME,
    connectionTimeoutMillis: 10_000,
    max: 20,
    options: [
      "-c TimeZone=UTC",
      "-c jit=off",
      `-c client_connection_check_interval=${CONNECTION_CHECK_MS}`,
      `-c idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_MS}`,
    ].join(" "),
  });
  // An idle connection that the server drops must not crash the process; the next query reconnects.
  pool.on("error", (error) => {
    metrics().poolErrors.inc();
    console.error(`PostgreSQL connection lost (${location}): ${error.message}`);
  });
  let zone: string;
  try {
    zone = (await pool.query<{ zone: string }>("SELECT current_setting('TimeZone') AS zone")).rows[0].zone;
  } catch (error) {
    await pool.end().catch(() => {});
    throw explainConnectionError(error, location, variable);
  }
  if (zone !== "UTC") {
    await pool.end().catch(() => {});
    throw new StartupError(
      `PostgreSQL at ${location} runs the console's sessions in time zone ${zone}, not UTC (the "options" in ${variable ?? "DATABASE_URL"}, ` +
        "or a connection pooler that drops the startup option, overrides the console's). Remove the TimeZone option, or set the login role's zone: " +
        "ALTER ROLE <role> SET TimeZone = 'UTC'.",
    );
  }
  // One pool for Prisma and plain SQL: one set of connections, one error handler.
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { onConnectionError: () => {} }) });
  return database(prisma, postgresDriver(pool, location));
}

async function openEmbedded(dataDir: string): Promise<Database> {
  const { db, release } = await openPglite(dataDir);
  return database(new PrismaClient({ adapter: new PrismaPGlite(db) }), pgliteDriver(db, `embedded database ${dataDir}`, release));
}

/**
 * The measured exception to "every read and write through Prisma": the registry-heavy page reads
 * (the object list, its count and CSV export, the object page, the request list, the overview) run
 * on the driver Prisma sits on, without Prisma. Through Prisma's raw SQL each statement costs
 * 0.1–0.6 ms more CPU in the console's one Node thread, and a page sends 5–15: bench:list's first
 * page went from 4.7 to 6.3 ms (p50), bench:detail's typical object page from 8.9 to 12.4 ms, and
 * bench:load's data access of every page kind grew by 1–3 ms (bench/RESULTS.md, "Prisma and the
 * page reads"). They only read: every change, and every read of the console's own tables, still
 * goes through Prisma. lib/imports.test.ts lists the files that may call this.
 */
export function pageReads(db: Database): SqlReader {
  return db.direct;
}

/** DATABASE_URL set: PostgreSQL through @prisma/adapter-pg; unset: the embedded PGlite at pgliteDir. */
export function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.databaseUrl ? openPostgres(target.databaseUrl, target.urlVariable) : openEmbedded(target.pgliteDir);
}

// Next's dev server re-evaluates modules on every change, and its bundles may each hold their own
// copy of this module; the process-wide slot keeps one client (and one PGlite) per process.
const slot = globalThis as typeof globalThis & { __registryConsoleDatabase?: Promise<Database> };

export function getDatabase(): Promise<Database> {
  if (!slot.__registryConsoleDatabase) {
    slot.__registryConsoleDatabase = openDatabase(readConfig()).catch((error: unknown) => {
      slot.__registryConsoleDatabase = undefined;
      throw error;
    });
  }
  return slot.__registryConsoleDatabase;
}
