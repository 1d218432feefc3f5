import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { SqlDriver } from "./driver";
import { StartupError } from "./errors";

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationResult {
  applied: string[];
  total: number;
}

export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");
// One advisory lock key for schema changes, so console processes starting together on one
// PostgreSQL apply each migration once.
const MIGRATION_LOCK_KEY = 7_353_001;

export function checksum(sql: string): string {
  return createHash("sha256").update(sql).digest("hex");
}

/** The migrations in `dir`, in the order their folder names sort (Prisma's layout). */
export async function readMigrations(dir: string = MIGRATIONS_DIR): Promise<Migration[]> {
  // The folder is read at run time on purpose; it is not part of the traced server bundle.
  const entries = await readdir(/*turbopackIgnore: true*/ dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(/*turbopackIgnore: true*/ path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: checksum(sql) };
    }),
  );
}

interface AppliedRow {
  name: string;
  checksum: string;
}

async function assertConsoleDatabase(db: SqlDriver): Promise<void> {
  const [row] = await db.query<{ tracked: boolean; tables: number }>(
    `SELECT to_regclass('console.schema_migrations') IS NOT NULL AS tracked,
            (SELECT count(*)::int FROM information_schema.tables
              WHERE table_schema = 'public' AND table_type = 'BASE TABLE') AS tables`,
  );
  if (!row.tracked && row.tables > 0) {
    throw new StartupError(
      `the database at ${db.location} already holds ${row.tables} tables in schema public but no console migration record, ` +
        "so it is not a Registry State Console database and will not be changed. Point DATABASE_URL at an empty database.",
    );
  }
}

function checkAppliedAgainstFiles(applied: AppliedRow[], files: Migration[]): void {
  const byName = new Map(files.map((m) => [m.name, m]));
  for (const row of applied) {
    const file = byName.get(row.name);
    if (!file) {
      throw new StartupError(
        `the database has migration ${row.name} applied, which this version of the console does not have: ` +
          "the database was migrated by a newer version. Run that version, or use another database.",
      );
    }
    if (file.checksum !== row.checksum) {
      throw new StartupError(
        `migration ${row.name} was changed after it was applied (checksum ${row.checksum.slice(0, 12)}… in the database, ` +
          `${file.checksum.slice(0, 12)}… on disk). Restore the original file; put schema changes in a new migration.`,
      );
    }
  }
  const appliedNames = new Set(applied.map((r) => r.name));
  const lastApplied = applied
    .map((r) => r.name)
    .sort()
    .at(-1);
  const skipped = files.find((m) => !appliedNames.has(m.name) && lastApplied !== undefined && m.name < lastApplied);
  if (skipped) {
    throw new StartupError(
      `migration ${skipped.name} sorts before the already applied ${lastApplied} but was never applied; ` +
        "give it a name that sorts after the applied migrations.",
    );
  }
}

async function readApplied(db: SqlDriver): Promise<AppliedRow[]> {
  const [{ tracked }] = await db.query<{ tracked: boolean }>("SELECT to_regclass('console.schema_migrations') IS NOT NULL AS tracked");
  if (!tracked) return [];
  return db.query<AppliedRow>("SELECT name, checksum FROM console.schema_migrations ORDER BY name");
}

/** Checks applied migrations against the files without changing anything. */
export async function verifyMigrations(db: SqlDriver, files?: Migration[]): Promise<{ pending: string[] }> {
  const migrations = files ?? (await readMigrations());
  await assertConsoleDatabase(db);
  const applied = await readApplied(db);
  checkAppliedAgainstFiles(applied, migrations);
  const done = new Set(applied.map((r) => r.name));
  return { pending: migrations.filter((m) => !done.has(m.name)).map((m) => m.name) };
}

/**
 * Applies pending migrations in order, each in its own transaction together with its record.
 * Refuses a database that is not the console's, or whose applied migrations differ from the files.
 */
export async function migrate(db: SqlDriver, files?: Migration[]): Promise<MigrationResult> {
  const migrations = files ?? (await readMigrations());
  await verifyMigrations(db, migrations);
  await db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    await tx.exec(`
      CREATE SCHEMA IF NOT EXISTS console;
      CREATE TABLE IF NOT EXISTS console.schema_migrations (
        name text PRIMARY KEY,
        checksum char(64) NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      );`);
  });
  const appliedNow: string[] = [];
  for (const migration of migrations) {
    const applied = await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
      const rows = await tx.query<AppliedRow>("SELECT name, checksum FROM console.schema_migrations ORDER BY name");
      checkAppliedAgainstFiles(rows, migrations);
      if (rows.some((r) => r.name === migration.name)) return false;
      try {
        await tx.exec(migration.sql);
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        throw new StartupError(`migration ${migration.name} failed and was rolled back: ${detail}`);
      }
      await tx.query("INSERT INTO console.schema_migrations (name, checksum) VALUES ($1, $2)", [migration.name, migration.checksum]);
      return true;
    });
    if (applied) appliedNow.push(migration.name);
  }
  return { applied: appliedNow, total: migrations.length };
}
