// The catalogue of the objects the console may add to or change in a database (adoption, mode moves).
import type { ScriptExecutor } from "./driver";

/** One database object, as the catalogue names it. */
export interface CatalogEntry {
  kind: string;
  name: string;
}

/**
 * The objects of schemas public and console that are not part of an extension: what adoption may
 * add or change. A function is listed with a digest of its definition, so a replaced one shows.
 */
export async function catalog(tx: ScriptExecutor): Promise<CatalogEntry[]> {
  return tx.query<CatalogEntry>(
    `WITH ext AS (SELECT objid FROM pg_depend WHERE deptype = 'e')
     SELECT 'schema' AS kind, nspname::text AS name FROM pg_namespace WHERE nspname = 'console'
     UNION ALL
     SELECT 'extension', e.extname || ' (in schema ' || n.nspname || ')'
       FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
     UNION ALL
     SELECT CASE c.relkind WHEN 'v' THEN 'view' WHEN 'S' THEN 'sequence' ELSE 'table' END, c.oid::regclass::text
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname IN ('public', 'console') AND c.relkind IN ('r', 'p', 'v', 'S') AND c.oid NOT IN (SELECT objid FROM ext)
     UNION ALL
     SELECT 'index', i.indexrelid::regclass::text || ' on ' || i.indrelid::regclass::text
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname IN ('public', 'console')
     UNION ALL
     SELECT 'function', p.oid::regprocedure::text || ' #' || left(md5(pg_get_functiondef(p.oid)), 8)
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname IN ('public', 'console') AND p.prokind IN ('f', 'p') AND p.oid NOT IN (SELECT objid FROM ext)
     UNION ALL
     SELECT 'trigger', t.tgname || ' on ' || t.tgrelid::regclass::text || CASE WHEN t.tgenabled = 'D' THEN ' (disabled)' ELSE '' END
       FROM pg_trigger t WHERE NOT t.tgisinternal`,
  );
}

/**
 * SQL for the FRED table console.replaced_fred_objects names for a disabled trigger: stored as the
 * migration's search path printed it ("domain"), found in schema public whatever the session's path.
 */
export function fredTableSql(column: string): string {
  return `CASE WHEN strpos(${column}, '.') > 0 THEN to_regclass(${column}) ELSE to_regclass('public.' || ${column}) END`;
}
