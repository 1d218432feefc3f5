import path from "node:path";
import type { SqlExecutor } from "./driver";

/**
 * The current text of every function, view and trigger the console defines, one file per object
 * under prisma/sql/ (as Nomulus keeps a golden schema beside its migrations): the rules as they
 * stand after all migrations, readable without reading every migration that replaced them.
 * `npm run db:definitions` writes the folder from a freshly migrated database; a test fails when
 * the migrations and the folder disagree, so a rule change is one readable diff here.
 *
 * Objects: the functions of schema console (an extension's excluded) and FRED's functions it
 * replaces; the views of schema console; the triggers the console
 * puts on any table (their names begin with "console_"). Each file's text is PostgreSQL's own
 * rendering (pg_get_functiondef, pg_get_viewdef, pg_get_triggerdef), which keeps a function's body
 * as written.
 */
export const DEFINITIONS_DIR = path.join(process.cwd(), "prisma", "sql");

/** FRED's functions the console replaces (FRED's regular procedure calls them): kept here too, as public.<name>. */
const REPLACED_FRED_FUNCTIONS = ["update_object_states"];

/** File name (relative to DEFINITIONS_DIR) -> its text. */
export async function currentDefinitions(db: SqlExecutor): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const functions = await db.query<{ name: string; args: string; def: string }>(
    `SELECT CASE WHEN n.nspname = 'console' THEN '' ELSE n.nspname || '.' END || p.proname AS name,
            pg_get_function_identity_arguments(p.oid) AS args, pg_get_functiondef(p.oid) AS def
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE (n.nspname = 'console' OR (n.nspname = 'public' AND p.proname = ANY ($1::text[]))) AND p.prokind IN ('f', 'p')
        -- not an extension's (btree_gist's operators live in schema console)
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
      ORDER BY 1, 2`,
    [REPLACED_FRED_FUNCTIONS],
  );
  const overloaded = new Set(functions.filter((f, i) => functions.findIndex((g) => g.name === f.name) !== i).map((f) => f.name));
  for (const f of functions) {
    const suffix = overloaded.has(f.name) ? `(${f.args.replace(/[^a-z0-9_, ]/gi, "").replace(/\s+/g, "_")})` : "";
    files.set(`functions/${f.name}${suffix}.sql`, `${f.def.trimEnd()};\n`);
  }
  const views = await db.query<{ name: string; def: string }>(
    `SELECT c.relname AS name, pg_get_viewdef(c.oid, true) AS def
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'console' AND c.relkind IN ('v', 'm') ORDER BY 1`,
  );
  for (const v of views) files.set(`views/${v.name}.sql`, `CREATE OR REPLACE VIEW console.${v.name} AS\n${v.def.trimEnd()}\n`);
  const triggers = await db.query<{ tab: string; name: string; def: string }>(
    `SELECT c.relname AS tab, t.tgname AS name, pg_get_triggerdef(t.oid, true) AS def
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE NOT t.tgisinternal AND t.tgname LIKE 'console\\_%' ORDER BY 1, 2`,
  );
  for (const t of triggers) files.set(`triggers/${t.tab}.${t.name}.sql`, `${t.def.trimEnd()};\n`);
  return files;
}
