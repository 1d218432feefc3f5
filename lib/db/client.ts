import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { type ConsoleConfig, readConfig } from "../config";
import { PrismaClient } from "../generated/prisma/client";
import { describePostgresUrl, pgliteDriver, postgresDriver, type SqlDriver } from "./driver";
import { explainConnectionError } from "./errors";
import { openPglite } from "./pglite";

/** The process's handle on the registry database: Prisma for typed reads and writes, SQL for the rest. */
export interface Database {
  prisma: PrismaClient;
  sql: SqlDriver;
  close(): Promise<void>;
}

type DatabaseTarget = Pick<ConsoleConfig, "databaseUrl" | "pgliteDir"> & {
  /** The setting the URL came from, named in connection errors (default DATABASE_URL). */
  urlVariable?: string;
};

function database(prisma: PrismaClient, sql: SqlDriver): Database {
  return {
    prisma,
    sql,
    async close() {
      await prisma.$disconnect();
      await sql.close();
    },
  };
}

async function openPostgres(url: string, variable?: string): Promise<Database> {
  const location = describePostgresUrl(url);
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 10_000, max: 20 });
  // An idle connection that the server drops must not crash the process; the next query reconnects.
  pool.on("error", (error) => console.error(`PostgreSQL connection lost (${location}): ${error.message}`));
  try {
    await pool.query("SELECT 1");
  } catch (error) {
    await pool.end().catch(() => {});
    throw explainConnectionError(error, location, variable);
  }
  // One pool for Prisma and plain SQL: one set of connections, one error handler.
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { onConnectionError: () => {} }) });
  return database(prisma, postgresDriver(pool, location));
}

async function openEmbedded(dataDir: string): Promise<Database> {
  const { db, release } = await openPglite(dataDir);
  return database(new PrismaClient({ adapter: new PrismaPGlite(db) }), pgliteDriver(db, `embedded database ${dataDir}`, release));
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
