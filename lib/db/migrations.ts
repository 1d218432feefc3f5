import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { enforceMode, moveModeIn } from "./adoption-mode";
import { type DirectDriver, rolledBack, type ScriptExecutor, type SqlExecutor } from "./driver";
import { StartupError } from "./errors";
import type { AdoptionMode } from "./mode";
import { databaseRole, RUNTIME_GROUP } from "./roles";

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
  /** Creates FRED's registry tables: run only in an empty database, recorded as adopted in a FRED one. */
  registry: boolean;
}

export interface MigrationResult {
  applied: string[];
  total: number;
  /** Set when this run adopted an existing FRED registry. */
  adopted?: { modelVersion: string };
}

/** The first line that marks the migration creating FRED's registry tables. */
const REGISTRY_MARKER = "-- console:registry";
/** FRED data model versions (enum_parameters id 1, model_version) whose registry the console adopts. */
const SUPPORTED_FRED_VERSIONS = ["2.52.0"];
/** Migrations of console versions before the registry became FRED's own schema (timestamptz, 18 states). */
const RETIRED_MIGRATIONS = /^2026112[23]\d{6}_/;

const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");
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
      return { name, sql, checksum: checksum(sql), registry: sql.startsWith(REGISTRY_MARKER) };
    }),
  );
}

interface AppliedRow {
  name: string;
  checksum: string;
}

type DatabaseKind = { kind: "console" } | { kind: "empty" } | { kind: "fred"; modelVersion: string } | { kind: "foreign"; tables: number };

/** What the database holds: the console's, nothing, a FRED registry, or something else. */
async function inspectDatabase(db: SqlExecutor): Promise<DatabaseKind> {
  const [row] = await db.query<{ tracked: boolean; tables: number; fred: boolean }>(
    `SELECT to_regclass('console.schema_migrations') IS NOT NULL AS tracked,
            (SELECT count(*)::int FROM information_schema.tables
              WHERE table_schema = 'public' AND table_type = 'BASE TABLE') AS tables,
            to_regclass('public.enum_parameters') IS NOT NULL AS fred`,
  );
  if (row.tracked) return { kind: "console" };
  if (row.tables === 0) return { kind: "empty" };
  if (row.fred) {
    const [version] = await db.query<{ val: string }>("SELECT val FROM enum_parameters WHERE id = 1 AND name = 'model_version'");
    if (version) return { kind: "fred", modelVersion: version.val };
  }
  return { kind: "foreign", tables: row.tables };
}

/**
 * The registry tables and columns (with their types) the console's registry migration creates, read
 * by running it in a scratch schema inside a transaction that is rolled back: what a FRED database
 * must have for the console to work on it, with one source of truth.
 */
async function registryColumns(db: DirectDriver, registry: Migration): Promise<Map<string, string>> {
  const rows = await rolledBack(db, async (tx) => {
    // The registry migration names schema public; here it builds its tables in the scratch schema.
    const scratch = registry.sql.replace(/\bpublic\./g, "console_registry_probe.");
    await tx.exec(`CREATE SCHEMA console_registry_probe; SET LOCAL search_path TO console_registry_probe, pg_catalog;\n${scratch}`);
    return tx.query<{ tbl: string; col: string; type: string }>(
      `SELECT table_name AS tbl, column_name AS col, format_type(a.atttypid, a.atttypmod) AS type
         FROM information_schema.columns c
         JOIN pg_attribute a ON a.attrelid = format('%I.%I', c.table_schema, c.table_name)::regclass AND a.attname = c.column_name
        WHERE c.table_schema = 'console_registry_probe'
          AND EXISTS (SELECT FROM information_schema.tables t
                       WHERE t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE')`,
    );
  });
  return new Map(rows.map((r) => [`${r.tbl}.${r.col}`, r.type]));
}

/** Refuses, before anything changes, a FRED database of another version or without a column the console needs. */
async function assertAdoptable(db: DirectDriver, modelVersion: string, registry: Migration): Promise<void> {
  if (!SUPPORTED_FRED_VERSIONS.includes(modelVersion)) {
    throw new StartupError(
      `the database at ${db.location} holds a FRED registry of model_version ${modelVersion}, which this console does not support ` +
        `(it supports ${SUPPORTED_FRED_VERSIONS.join(", ")}); nothing was changed.`,
    );
  }
  const needed = await registryColumns(db, registry);
  const present = await db.query<{ tbl: string; col: string; type: string }>(
    `SELECT c.relname AS tbl, a.attname AS col, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped`,
  );
  const have = new Map(present.map((r) => [`${r.tbl}.${r.col}`, r.type]));
  for (const [column, type] of needed) {
    const found = have.get(column);
    if (found === undefined) {
      throw new StartupError(
        `the FRED registry at ${db.location} (model_version ${modelVersion}) lacks the column ${column} (${type}) the console needs; nothing was changed.`,
      );
    }
    if (found !== type) {
      throw new StartupError(
        `the FRED registry at ${db.location} (model_version ${modelVersion}) has ${column} as ${found}, the console needs ${type}; nothing was changed.`,
      );
    }
  }
}

async function assertConsoleDatabase(db: SqlExecutor & { readonly location: string }): Promise<DatabaseKind> {
  const found = await inspectDatabase(db);
  if (found.kind === "foreign") {
    throw new StartupError(
      `the database at ${db.location} already holds ${found.tables} tables in schema public but neither a console migration record ` +
        "nor a FRED registry (enum_parameters model_version), so it will not be changed. Point DATABASE_URL at an empty database or a FRED registry.",
    );
  }
  return found;
}

function checkAppliedAgainstFiles(applied: AppliedRow[], files: Migration[]): void {
  const byName = new Map(files.map((m) => [m.name, m]));
  const retired = applied.find((row) => RETIRED_MIGRATIONS.test(row.name) && !byName.has(row.name));
  if (retired) {
    throw new StartupError(
      `the database was created by an earlier development version of the console (migration ${retired.name}), whose registry tables ` +
        "were not FRED's; this version uses FRED's own schema. Create a new database (for the embedded demo: remove PGLITE_DIR).",
    );
  }
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

async function readApplied(db: SqlExecutor): Promise<AppliedRow[]> {
  const [{ tracked }] = await db.query<{ tracked: boolean }>("SELECT to_regclass('console.schema_migrations') IS NOT NULL AS tracked");
  if (!tracked) return [];
  return db.query<AppliedRow>("SELECT name, checksum FROM console.schema_migrations ORDER BY name");
}

/** The applied migrations checked against the files; the names of those still pending. */
async function pendingMigrations(db: SqlExecutor, migrations: Migration[]): Promise<string[]> {
  const applied = await readApplied(db);
  checkAppliedAgainstFiles(applied, migrations);
  const done = new Set(applied.map((r) => r.name));
  return migrations.filter((m) => !done.has(m.name)).map((m) => m.name);
}

/** Checks applied migrations against the files without changing anything. */
export async function verifyMigrations(
  db: SqlExecutor & { readonly location: string },
  files?: Migration[],
): Promise<{ pending: string[] }> {
  const migrations = files ?? (await readMigrations());
  await assertConsoleDatabase(db);
  return { pending: await pendingMigrations(db, migrations) };
}

/**
 * The registry's origin, written once, as soon as its table exists: adopted when the registry
 * migration was recorded as adopted (so also when an interrupted adoption is finished later).
 */
async function recordOrigin(tx: ScriptExecutor): Promise<void> {
  const [{ ready }] = await tx.query<{ ready: boolean }>("SELECT to_regclass('console.registry_origin') IS NOT NULL AS ready");
  if (!ready) return;
  await tx.query(
    `WITH o AS (SELECT CASE WHEN EXISTS (SELECT FROM console.schema_migrations WHERE how = 'adopted') THEN 'adopted' ELSE 'created' END AS origin)
     INSERT INTO console.registry_origin (origin, model_version, last_inherited_request)
     SELECT o.origin, (SELECT val FROM enum_parameters WHERE id = 1),
            CASE WHEN o.origin = 'adopted' THEN (SELECT max(id) FROM object_state_request) END
       FROM o
     ON CONFLICT DO NOTHING`,
  );
}

export interface MigrationContext {
  /** What the database held before this run. */
  found: DatabaseKind;
  /** The migrations not applied yet, by name. */
  pending: string[];
  /** Set when the database holds a FRED registry that the console adopts. */
  adopted?: { modelVersion: string };
}

/**
 * Everything that must hold before a migration runs, checked without changing anything: applied
 * migrations match the files, the database is empty, the console's, or a FRED registry of a
 * supported version with every column the console needs.
 */
export async function prepareMigration(db: DirectDriver, migrations: Migration[]): Promise<MigrationContext> {
  const found = await assertConsoleDatabase(db);
  const pending = await pendingMigrations(db, migrations);
  const registry = migrations.find((m) => m.registry);
  const adopted = found.kind === "fred" ? { modelVersion: found.modelVersion } : undefined;
  if (adopted && registry) await assertAdoptable(db, adopted.modelVersion, registry);
  return adopted ? { found, pending, adopted } : { found, pending };
}

/**
 * Refuses, before anything changes, to migrate as the running console's role (console_app), which
 * may not change the schema: the owner role (DATABASE_OWNER_URL) migrates.
 */
async function assertMayMigrate(db: DirectDriver, pending: string[]): Promise<void> {
  const role = await databaseRole(db);
  if (role.owner) return;
  throw new StartupError(
    `${pending.length} migration(s) are pending (${pending.join(", ")}), and ${role.name} at ${db.location} ` +
      `${role.runtime ? `is the console's runtime role (${RUNTIME_GROUP}), which` : "does not own schema console and"} may not change the schema. ` +
      "Run `npm run db:migrate` with DATABASE_OWNER_URL set to the owner role, or set DATABASE_OWNER_URL for the console so that it migrates at start-up.",
  );
}

const MIGRATIONS_TABLE = `
  CREATE SCHEMA IF NOT EXISTS console;
  CREATE TABLE IF NOT EXISTS console.schema_migrations (
    name text PRIMARY KEY,
    checksum char(64) NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(),
    -- 'adopted': the registry migration of a FRED database whose tables already existed.
    how text NOT NULL DEFAULT 'applied'
  );`;

/**
 * Migrations act as the owner of schema console: a superuser (or another member of the owner's
 * role) who runs them on a registry FRED's role owns makes its objects that role's, so the
 * SECURITY DEFINER triggers FRED's sessions run keep reaching them (a function owned by postgres
 * with EXECUTE revoked from PUBLIC refused every renew of FRED's: permission denied).
 */
const AS_SCHEMA_OWNER = `DO $$
DECLARE
    v_owner name := (SELECT pg_get_userbyid(n.nspowner) FROM pg_namespace n WHERE n.nspname = 'console');
BEGIN
    IF v_owner IS NOT NULL AND v_owner <> current_user AND pg_has_role(current_user, v_owner, 'MEMBER') THEN
        EXECUTE format('SET LOCAL ROLE %I', v_owner);
    END IF;
END
$$`;

/** Applies one migration in the caller's transaction, unless it is applied already; true when it was. */
async function applyMigration(
  tx: ScriptExecutor,
  migration: Migration,
  migrations: Migration[],
  context: MigrationContext,
): Promise<boolean> {
  await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
  await tx.exec(AS_SCHEMA_OWNER);
  const rows = await tx.query<AppliedRow>("SELECT name, checksum FROM console.schema_migrations ORDER BY name");
  checkAppliedAgainstFiles(rows, migrations);
  if (rows.some((r) => r.name === migration.name)) return false;
  const adopting = migration.registry && context.adopted !== undefined;
  if (!adopting) {
    try {
      // Console objects are named in full (console.…); FRED's tables are found in public.
      await tx.exec(`SET LOCAL search_path TO public, console;\n${migration.sql}`);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new StartupError(`migration ${migration.name} failed and was rolled back: ${detail}`);
    }
  }
  await tx.query("INSERT INTO console.schema_migrations (name, checksum, how) VALUES ($1, $2, $3)", [
    migration.name,
    migration.checksum,
    adopting ? "adopted" : "applied",
  ]);
  await recordOrigin(tx);
  return true;
}

/** Every pending migration in the caller's one transaction (the dry run of adoption). */
export async function applyPending(tx: ScriptExecutor, migrations: Migration[], context: MigrationContext): Promise<string[]> {
  await tx.exec(MIGRATIONS_TABLE);
  const applied: string[] = [];
  for (const migration of migrations) if (await applyMigration(tx, migration, migrations, context)) applied.push(migration.name);
  return applied;
}

/**
 * Applies pending migrations in order, each in its own transaction together with its record.
 * An empty database gets FRED's registry tables and the console's objects; a FRED registry of a
 * supported version is adopted: its tables stay as they are (the registry migration is recorded,
 * not run) and only the console's objects are added. Refuses any other database, and one whose
 * applied migrations differ from the files.
 */
export interface MigrateOptions {
  /**
   * The mode a FRED registry adopted by this run starts in (docs/fred.md
   * "Running on an existing FRED database"): beside unless said otherwise. A registry adopted before keeps its mode.
   */
  adoptAs?: AdoptionMode;
}

export async function migrate(db: DirectDriver, files?: Migration[], options: MigrateOptions = {}): Promise<MigrationResult> {
  const migrations = files ?? (await readMigrations());
  const context = await prepareMigration(db, migrations);
  const { adopted } = context;
  const appliedNow: string[] = [];
  // Nothing pending: nothing is written, so the running console's role may check an up-to-date database.
  if (context.pending.length > 0) {
    await assertMayMigrate(db, context.pending);
    const registry = migrations.find((m) => m.registry);
    const adoptAs = options.adoptAs ?? "beside";
    if (adopted && registry && context.pending.includes(registry.name) && adoptAs !== "charge") {
      // A new adoption beside FRED (or in shadow): every migration and the move to the mode in one
      // transaction, so FRED's programs never meet the console's triggers or engine.
      await db.transaction(async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
        appliedNow.push(...(await applyPending(tx, migrations, context)));
        await moveModeIn(tx, db.location, adoptAs, { adoption: true });
      });
    } else {
      await db.transaction(async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
        await tx.exec(AS_SCHEMA_OWNER);
        await tx.exec(MIGRATIONS_TABLE);
      });
      for (const migration of migrations) {
        const applied = await db.transaction(async (tx) => {
          const done = await applyMigration(tx, migration, migrations, context);
          // Beside FRED or in shadow, what a migration put on FRED's tables goes again in its transaction.
          if (done) await enforceMode(tx);
          return done;
        });
        if (applied) appliedNow.push(migration.name);
      }
    }
  }
  // An adopted registry's history before adoption is FRED's and stays; the first engine run compares
  // every object with the rules at the adoption instant and opens or closes rows there.
  const [{ engine, now }] = await db.query<{ engine: boolean; now: boolean }>(
    `SELECT to_regclass('console.state_engine') IS NOT NULL AS engine,
            to_regprocedure('console.state_engine_run_now(boolean, integer)') IS NOT NULL AS now`,
  );
  // Beside FRED and in shadow the console's engine never writes FRED's object_state.
  const due =
    engine &&
    (
      await db.query<{ due: boolean }>(
        `SELECT e.full_run_due AND NOT EXISTS (
                  SELECT FROM console.registry_origin o WHERE o.origin = 'adopted' AND to_jsonb(o) ->> 'mode' IN ('beside', 'shadow')) AS due
           FROM console.state_engine e`,
      )
    )[0]?.due;
  if (due)
    await db.transaction((tx) =>
      tx.query(now ? "SELECT * FROM console.state_engine_run_now(true)" : "SELECT * FROM console.state_engine_run(now(), true)"),
    );
  return { applied: appliedNow, total: migrations.length, ...(adopted && appliedNow.length > 0 ? { adopted } : {}) };
}
