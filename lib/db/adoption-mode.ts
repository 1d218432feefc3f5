// Moving an adopted FRED registry between the modes (issue 40, docs/fred.md
// "Running on an existing FRED database"): beside and shadow leave FRED its own engine (its update_object_states and its six
// state triggers as FRED shipped them, no console trigger on FRED's tables, only the indexes
// console.charge_objects marks `beside`); charge puts the console's engine in its place. Each move
// is one transaction; its dry run is the same transaction rolled back, described from the catalogue.

import { shadowSummary } from "../states/shadow";
import { type CatalogEntry, catalog, fredTableSql } from "./catalogue";
import { type DirectDriver, rolledBack, type ScriptExecutor } from "./driver";
import { StartupError } from "./errors";
import { ADOPTION_MODES, type AdoptionMode } from "./mode";

/** The same lock as the migrations': a move never runs beside a migration or another move. */
const MIGRATION_LOCK_KEY = 7_353_001;

export function isAdoptionMode(value: string): value is AdoptionMode {
  return (ADOPTION_MODES as readonly string[]).includes(value);
}

/** What a move did (or, in a dry run, would do), as the catalogue shows it before and after. */
export interface ModeMove {
  database: string;
  from: AdoptionMode;
  to: AdoptionMode;
  added: string[];
  dropped: string[];
  /** FRED's own definitions given back (beside, shadow). */
  restored: string[];
  /** FRED's functions replaced by the console's (charge). */
  replaced: string[];
  enabled: string[];
  disabled: string[];
  /** The console's indexes that stay on FRED's tables in beside and shadow. */
  kept: string[];
  /** The console's engine run over every object when moving to charge. */
  engine: { objects: number; opened: number; closed: number } | null;
  /** What charge is reached with: from shadow (its report), or --force. */
  charge: string | null;
}

/**
 * Whether the registry is ready to be handed to the console's engine, as shadow's report says
 * (lib/states/shadow.ts: per run and per day, the differences by cause, and readiness: seven days of
 * runs without an unexplained difference). Returns the lines the dry run of charge quotes.
 */
export async function shadowReport(tx: ScriptExecutor, days = 7): Promise<string> {
  const [{ present }] = await tx.query<{ present: boolean }>("SELECT to_regclass('console.shadow_runs') IS NOT NULL AS present");
  if (!present)
    return "shadow's report is not available (the migration of console.shadow_runs is not applied): nothing backs this move but the operator's decision.";
  return `shadow's report (npm run db:shadow):\n${(await shadowSummary(tx, { days })).text}`;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The console's objects to add in charge, read from console.charge_objects (the owner's own table). */
async function chargeObjects(tx: ScriptExecutor) {
  return tx.query<{ kind: "function" | "trigger" | "index"; tbl: string; name: string; definition: string; beside: boolean }>(
    "SELECT kind, tbl, name, definition, beside FROM console.charge_objects ORDER BY kind, tbl, name",
  );
}

/**
 * Brings the catalogue to beside's (and shadow's): records the console's objects on FRED's tables
 * first (`all`: the registry was in charge, so what is there is the whole set), then gives FRED its
 * update_object_states back and enables its triggers, and drops every console_* trigger on FRED's
 * tables and the console_* indexes there that beside does not keep. Only what differs is touched.
 *
 * FRED's get_object_type_id and unaccent_streets keep pg_temp at the end of their search_path
 * (issue 39) in every mode: the owner's SECURITY DEFINER code still runs in other roles' sessions
 * in beside (console.state_engine_run_now for console_app, and the console's read functions), and
 * the planner evaluates get_object_type_id whenever it plans a query on object_registry; without
 * pg_temp last, a caller's pg_temp.enum_object_type would stand for FRED's table inside it.
 */
async function toBeside(tx: ScriptExecutor, all: boolean): Promise<void> {
  await tx.query("SELECT console.charge_objects_capture($1)", [all]);
  const functions = await tx.query<{ definition: string }>(
    `SELECT r.definition FROM console.replaced_fred_objects r
       JOIN console.charge_objects c ON c.kind = 'function' AND c.name = r.name
      WHERE r.kind = 'function'
        AND pg_get_functiondef(to_regprocedure('public.' || r.name)) IS DISTINCT FROM r.definition`,
  );
  for (const f of functions) await tx.exec(f.definition);
  const disabled = await tx.query<{ name: string; tbl: string }>(
    `SELECT t.tgname AS name, t.tgrelid::regclass::text AS tbl FROM console.replaced_fred_objects r
       JOIN pg_trigger t ON t.tgname = r.name AND t.tgrelid = ${fredTableSql("r.definition")}
      WHERE r.kind = 'trigger' AND t.tgenabled = 'D'`,
  );
  for (const t of disabled) await tx.exec(`ALTER TABLE ${t.tbl} ENABLE TRIGGER ${quoteIdent(t.name)}`);
  const triggers = await tx.query<{ name: string; tbl: string }>(
    `SELECT t.tgname AS name, t.tgrelid::regclass::text AS tbl FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace AND t.tgname LIKE 'console\\_%'`,
  );
  for (const t of triggers) await tx.exec(`DROP TRIGGER ${quoteIdent(t.name)} ON ${t.tbl}`);
  const indexes = await tx.query<{ name: string }>(
    `SELECT c.oid::regclass::text AS name FROM pg_class c
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'i' AND c.relname LIKE 'console\\_%'
        AND NOT EXISTS (SELECT FROM console.charge_objects o WHERE o.kind = 'index' AND o.name = c.relname AND o.beside)`,
  );
  for (const i of indexes) await tx.exec(`DROP INDEX ${i.name}`);
}

/**
 * Brings the catalogue to charge's: the console's indexes and triggers on FRED's tables and its
 * update_object_states from console.charge_objects, FRED's six state triggers disabled; the
 * parameters and the two triggers compiled from them made again from FRED's tables as they are
 * now; then the console's engine runs once over every object at this instant, so what FRED's
 * engine wrote meanwhile is brought to the console's rules (as at adoption: the history before
 * stays as it is).
 */
async function toCharge(tx: ScriptExecutor): Promise<{ objects: number; opened: number; closed: number }> {
  const objects = await chargeObjects(tx);
  for (const kind of ["index", "trigger", "function"] as const) {
    for (const o of objects.filter((x) => x.kind === kind)) {
      const [{ present }] =
        kind === "index"
          ? await tx.query<{ present: boolean }>("SELECT to_regclass('public.' || quote_ident($1)) IS NOT NULL AS present", [o.name])
          : kind === "trigger"
            ? await tx.query<{ present: boolean }>(
                "SELECT EXISTS (SELECT FROM pg_trigger WHERE tgrelid = to_regclass($1) AND tgname = $2) AS present",
                [o.tbl, o.name],
              )
            : await tx.query<{ present: boolean }>(
                "SELECT pg_get_functiondef(to_regprocedure('public.' || $1)) IS NOT DISTINCT FROM $2 AS present",
                [o.name, o.definition],
              );
      if (!present) await tx.exec(o.definition);
    }
  }
  const enabled = await tx.query<{ name: string; tbl: string }>(
    `SELECT t.tgname AS name, t.tgrelid::regclass::text AS tbl FROM console.replaced_fred_objects r
       JOIN pg_trigger t ON t.tgname = r.name AND t.tgrelid = ${fredTableSql("r.definition")}
      WHERE r.kind = 'trigger' AND t.tgenabled <> 'D'`,
  );
  for (const t of enabled) await tx.exec(`ALTER TABLE ${t.tbl} DISABLE TRIGGER ${quoteIdent(t.name)}`);
  await tx.exec("SELECT console.state_parameters_compile(); SELECT console.state_triggers_compile();");
  // The object list's copy of FRED's keys: its trigger keeps it from now on; what beside's passes
  // have not copied yet (objects, deletions) is copied now.
  await tx.exec("SELECT console.object_keys_catch_up(true)");
  // The console's history starts again at this instant: every object is compared with the rules now.
  await tx.exec("DELETE FROM console.state_pending; UPDATE console.state_engine SET cursor = now(), full_run_due = true");
  const [run] = await tx.query<{ objects: number; opened: number; closed: number }>(
    "SELECT objects, opened, closed FROM console.state_engine_run(now(), true, NULL)",
  );
  return { objects: run?.objects ?? 0, opened: run?.opened ?? 0, closed: run?.closed ?? 0 };
}

async function currentMode(tx: ScriptExecutor, location: string): Promise<{ origin: string; mode: AdoptionMode }> {
  const [{ ready }] = await tx.query<{ ready: boolean }>("SELECT to_regclass('console.charge_objects') IS NOT NULL AS ready");
  if (!ready)
    throw new StartupError(
      `the database at ${location} is not an adopted FRED registry with every migration applied: run \`npm run db:adopt\` first.`,
    );
  const [row] = await tx.query<{ origin: string; mode: AdoptionMode }>("SELECT origin, mode FROM console.registry_origin FOR UPDATE");
  if (!row) throw new StartupError(`the database at ${location} holds no console: run \`npm run db:adopt\` first.`);
  return row;
}

/** In beside and shadow, after a migration in its own transaction: whatever it added on FRED's tables goes again. */
export async function enforceMode(tx: ScriptExecutor): Promise<void> {
  const [{ ready }] = await tx.query<{ ready: boolean }>(
    "SELECT to_regclass('console.charge_objects') IS NOT NULL AND to_regclass('console.registry_origin') IS NOT NULL AS ready",
  );
  if (!ready) return;
  const [row] = await tx.query<{ mode: AdoptionMode | null }>(
    "SELECT CASE WHEN origin = 'adopted' THEN mode END AS mode FROM console.registry_origin",
  );
  if (row?.mode === "beside" || row?.mode === "shadow") await toBeside(tx, false);
}

/**
 * The move itself, in the caller's transaction: refused, with nothing changed, when `to` is charge
 * and the registry is not in shadow (unless `force`), or when the registry was created by the console.
 */
export async function moveModeIn(
  tx: ScriptExecutor,
  location: string,
  to: AdoptionMode,
  options: { force?: boolean; adoption?: boolean } = {},
): Promise<ModeMove> {
  await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
  const { origin, mode: from } = await currentMode(tx, location);
  if (origin !== "adopted") {
    throw new StartupError(
      `the registry at ${location} was created by the console: its engine is always in charge (modes are for an adopted FRED registry).`,
    );
  }
  let charge: string | null = null;
  if (to === "charge" && from !== "charge") {
    if (from !== "shadow" && !options.force) {
      throw new StartupError(
        `the registry at ${location} is in ${from}: charge is reached from shadow, once its report shows the console's engine agrees with FRED's, ` +
          "or with --force (`npm run db:adopt -- --mode charge --force`). Nothing was changed.",
      );
    }
    charge = from === "shadow" ? await shadowReport(tx) : `forced from ${from} (--force), without shadow's report`;
  }
  await tx.exec("SET LOCAL search_path TO pg_catalog");
  const before = await catalog(tx);
  let engine: ModeMove["engine"] = null;
  // The mode first: the console's engine runs only in charge (console.state_engine_run), and the
  // move into charge runs it.
  await tx.query("UPDATE console.registry_origin SET mode = $1, mode_since = CASE WHEN mode = $1 THEN mode_since ELSE now() END", [to]);
  if (to === "charge") {
    if (from !== "charge" || options.adoption) engine = await toCharge(tx);
  } else {
    await toBeside(tx, from === "charge");
    if (from === "charge" || options.adoption) {
      // FRED's engine writes object_state from now on: the change feed is read from it (no trigger)
      // from this instant, and the scheduler hands FRED's function the requests due from now.
      await tx.exec("SELECT console.fred_feed_start(); UPDATE console.fred_request_cursor SET at = now(), last_run_at = NULL");
    }
  }
  await tx.exec("SET LOCAL search_path TO pg_catalog");
  const after = await catalog(tx);
  const originals = await tx.query<{ name: string; digest: string }>(
    `SELECT 'public.' || r.name AS name, left(md5(r.definition), 8) AS digest FROM console.replaced_fred_objects r WHERE r.kind = 'function'`,
  );
  const kept = await tx.query<{ name: string }>(
    `SELECT format('index public.%s on %s', c.relname, i.indrelid::regclass) AS name
       FROM console.charge_objects o JOIN pg_class c ON c.relname = o.name AND c.relnamespace = 'public'::regnamespace
       JOIN pg_index i ON i.indexrelid = c.oid
      WHERE o.kind = 'index' AND o.beside ORDER BY 1`,
  );
  return {
    database: location,
    from,
    to,
    ...catalogueChange(before, after, originals),
    kept: to === "charge" ? [] : kept.map((k) => k.name),
    engine,
    charge,
  };
}

/** The catalogue's difference, in the dry run's words. */
function catalogueChange(
  before: CatalogEntry[],
  after: CatalogEntry[],
  originals: { name: string; digest: string }[],
): Pick<ModeMove, "added" | "dropped" | "restored" | "replaced" | "enabled" | "disabled"> {
  const bare = (e: CatalogEntry) => `${e.kind} ${e.name.replace(/ #\w+$/, "").replace(/ \(disabled\)$/, "")}`;
  const full = (e: CatalogEntry) => `${e.kind} ${e.name}`;
  const had = new Map(before.map((e) => [bare(e), e]));
  const has = new Map(after.map((e) => [bare(e), e]));
  const result = {
    added: [] as string[],
    dropped: [] as string[],
    restored: [] as string[],
    replaced: [] as string[],
    enabled: [] as string[],
    disabled: [] as string[],
  };
  for (const [name, e] of has) {
    const old = had.get(name);
    if (!old) result.added.push(name);
    else if (full(old) !== full(e)) {
      if (e.kind === "trigger") (e.name.endsWith("(disabled)") ? result.disabled : result.enabled).push(name);
      else if (e.kind === "function") {
        const digest = e.name.match(/ #(\w+)$/)?.[1];
        const original = originals.find((o) => name === `function ${o.name}`);
        (original && original.digest === digest ? result.restored : result.replaced).push(name);
      }
    }
  }
  for (const name of had.keys()) if (!has.has(name)) result.dropped.push(name);
  for (const list of Object.values(result)) list.sort();
  return result;
}

/**
 * `npm run db:adopt -- --mode X [--force] [--dry-run]` on an adopted registry: the move in one
 * transaction (a dry run: the same, rolled back).
 */
export async function moveMode(db: DirectDriver, to: AdoptionMode, options: { force?: boolean; dryRun?: boolean } = {}): Promise<ModeMove> {
  const work = (tx: ScriptExecutor) => moveModeIn(tx, db.location, to, options);
  return options.dryRun ? rolledBack(db, work) : db.transaction(work);
}
