import { moveModeIn } from "./adoption-mode";
import { type CatalogEntry, catalog, fredTableSql } from "./catalogue";
import { type DirectDriver, rolledBack, type ScriptExecutor, type SqlExecutor } from "./driver";
import { StartupError } from "./errors";
import { applyPending, type Migration, prepareMigration, readMigrations } from "./migrations";
import type { AdoptionMode } from "./mode";
import { RUNTIME_GROUP } from "./roles";

/**
 * The rights the running console's group role has on FRED's tables (schema public), one line per
 * table and privilege: what adoption grants (docs/operating.md "Database roles"). FRED's own roles' rights
 * are not touched.
 */
async function runtimeGrants(tx: ScriptExecutor): Promise<string[]> {
  const rows = await tx.query<{ grant: string }>(
    `WITH app AS (SELECT oid FROM pg_roles WHERE rolname = $1),
     tbl AS (SELECT c.oid, a.privilege_type FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
               CROSS JOIN LATERAL aclexplode(c.relacl) a
              WHERE n.nspname = 'public' AND a.grantee IN (SELECT oid FROM app)),
     col AS (SELECT c.oid, a.privilege_type, string_agg(quote_ident(at.attname), ', ' ORDER BY at.attnum) AS columns
               FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute at ON at.attrelid = c.oid
               CROSS JOIN LATERAL aclexplode(at.attacl) a
              WHERE n.nspname = 'public' AND a.grantee IN (SELECT oid FROM app) AND at.attnum > 0 AND NOT at.attisdropped
                AND NOT EXISTS (SELECT FROM tbl WHERE tbl.oid = c.oid AND tbl.privilege_type = a.privilege_type)
              GROUP BY c.oid, a.privilege_type)
     SELECT format('%s on %s', privilege_type, oid::regclass) AS grant FROM tbl
     UNION ALL
     SELECT format('%s (%s) on %s', privilege_type, columns, oid::regclass) FROM col
     ORDER BY 1`,
    [RUNTIME_GROUP],
  );
  return rows.map((r) => r.grant);
}

export interface Anomaly {
  kind: string;
  objectId: number;
  object: string;
  requestId: number | null;
  /** The state of the request, and the other request of an overlap or zone conflict. */
  state: string | null;
  otherRequestId: number | null;
  detail: string;
}

/** What in the registry's data the console's rules do not accept; listed, never changed (console.registry_anomalies). */
export async function registryAnomalies(db: SqlExecutor, objectId?: number): Promise<Anomaly[]> {
  const rows = await db.query<{
    kind: string;
    object_id: number;
    object: string;
    request_id: number | null;
    state: string | null;
    other_request_id: number | null;
    detail: string;
  }>(
    `SELECT kind, object_id, object, request_id, state, other_request_id, detail
       FROM console.registry_anomalies($1) ORDER BY object_id, kind, request_id`,
    [objectId ?? null],
  );
  return rows.map((r) => ({
    kind: r.kind,
    objectId: r.object_id,
    object: r.object,
    requestId: r.request_id,
    state: r.state,
    otherRequestId: r.other_request_id,
    detail: r.detail,
  }));
}

export interface AdoptionPlan {
  database: string;
  /** The mode a FRED registry adopted now starts in; null when nothing is adopted now. */
  mode: AdoptionMode | null;
  found: string;
  created: string[];
  replaced: string[];
  disabled: string[];
  /** What the running console's role (console_app) may do on FRED's tables that it could not before. */
  granted: string[];
  anomalies: Anomaly[];
}

/**
 * What `db:migrate` would do to this database, found by doing it inside one transaction and rolling
 * that back: the objects it creates, the FRED functions it replaces and the FRED triggers it
 * disables, and what in the existing data the console will not accept.
 */
export async function planAdoption(db: DirectDriver, files?: Migration[], options: { adoptAs?: AdoptionMode } = {}): Promise<AdoptionPlan> {
  const migrations = files ?? (await readMigrations());
  const context = await prepareMigration(db, migrations);
  const { found } = context;
  const registry = migrations.find((m) => m.registry);
  const adoptAs = options.adoptAs ?? "beside";
  const adopting = context.adopted !== undefined && registry !== undefined && context.pending.includes(registry.name);
  return rolledBack(db, async (tx) => {
    // Names in full (schema.name) before and after: the migrations set their own search path.
    await tx.exec("SET LOCAL search_path TO pg_catalog");
    const before = await catalog(tx);
    const grantedBefore = new Set(await runtimeGrants(tx));
    await applyPending(tx, migrations, context);
    // As migrate() adopts: beside (or shadow) in the same transaction.
    if (adopting && adoptAs !== "charge") await moveModeIn(tx, db.location, adoptAs, { adoption: true });
    await tx.exec("SET LOCAL search_path TO pg_catalog");
    const after = await catalog(tx);
    const granted = (await runtimeGrants(tx)).filter((g) => !grantedBefore.has(g));
    const key = (e: CatalogEntry) => `${e.kind}\u0000${e.name}`;
    const had = new Set(before.map(key));
    const has = new Set(after.map(key));
    const added = after.filter((e) => !had.has(key(e)));
    const removed = before.filter((e) => !has.has(key(e)));
    const bare = (e: CatalogEntry) => e.name.replace(/ #\w+$/, "").replace(/ \(disabled\)$/, "");
    const addedNames = new Set(added.map(bare));
    const [{ engine }] = await tx.query<{ engine: boolean }>(
      "SELECT to_regprocedure('console.registry_anomalies(integer)') IS NOT NULL AS engine",
    );
    return {
      database: db.location,
      mode: adopting ? adoptAs : null,
      found:
        found.kind === "fred"
          ? `a FRED registry, model_version ${found.modelVersion}`
          : found.kind === "empty"
            ? "an empty database"
            : "a console database",
      created: added
        .filter((e) => !(e.kind === "trigger" && e.name.endsWith("(disabled)")) && !removed.some((r) => bare(r) === bare(e)))
        .map((e) => `${e.kind} ${e.name.replace(/ #\w+$/, "")}`),
      replaced: removed.filter((e) => e.kind === "function" && addedNames.has(bare(e))).map((e) => `function ${bare(e)}`),
      disabled: added.filter((e) => e.kind === "trigger" && e.name.endsWith("(disabled)")).map((e) => `trigger ${bare(e)}`),
      granted,
      anomalies: engine ? await registryAnomalies(tx) : [],
    };
  });
}

export interface UnadoptResult {
  restored: string[];
  enabled: string[];
  dropped: string[];
}

/**
 * Removes the console from an adopted FRED registry: FRED's replaced functions are restored, its
 * disabled triggers enabled again, the console's triggers and indexes on FRED's tables dropped, and
 * schema console with everything in it. FRED's tables and rows stay as they are, including the
 * state history the console wrote. `dryRun`: the same, rolled back.
 */
export async function unadopt(db: DirectDriver, options: { dryRun: boolean }): Promise<UnadoptResult> {
  const [{ tracked }] = await db.query<{ tracked: boolean }>("SELECT to_regclass('console.registry_origin') IS NOT NULL AS tracked");
  const [origin] = tracked ? await db.query<{ origin: string }>("SELECT origin FROM console.registry_origin") : [];
  if (!origin) throw new StartupError(`the database at ${db.location} holds no console objects to remove.`);
  if (origin.origin !== "adopted") {
    throw new StartupError(
      `the registry at ${db.location} was created by the console, not adopted from FRED: its tables are the console's. Drop the database instead.`,
    );
  }
  const remove = async (tx: ScriptExecutor): Promise<UnadoptResult> => {
    const restored: string[] = [];
    const enabled: string[] = [];
    const dropped: string[] = [];
    // Only what is replaced now: beside FRED and in shadow, update_object_states is FRED's and its triggers are on.
    const replaced = await tx.query<{ kind: string; name: string; definition: string }>(
      `SELECT r.kind, r.name, r.definition FROM console.replaced_fred_objects r
        WHERE CASE r.kind
                WHEN 'function' THEN pg_get_functiondef(to_regprocedure('public.' || r.name)) IS DISTINCT FROM r.definition
                ELSE EXISTS (SELECT FROM pg_trigger t WHERE t.tgrelid = ${fredTableSql("r.definition")} AND t.tgname = r.name AND t.tgenabled = 'D')
              END
        ORDER BY r.kind, r.name`,
    );
    for (const r of replaced) {
      if (r.kind === "function") {
        await tx.exec(r.definition);
        restored.push(`function ${r.name}`);
      } else {
        await tx.exec(`ALTER TABLE ${r.definition} ENABLE TRIGGER "${r.name.replaceAll('"', '""')}"`);
        enabled.push(`trigger ${r.name} on ${r.definition}`);
      }
    }
    const triggers = await tx.query<{ name: string; tbl: string }>(
      `SELECT t.tgname AS name, t.tgrelid::regclass::text AS tbl FROM pg_trigger t
         JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE NOT t.tgisinternal AND n.nspname = 'public' AND t.tgname LIKE 'console\\_%'`,
    );
    for (const t of triggers) {
      await tx.exec(`DROP TRIGGER "${t.name}" ON ${t.tbl}`);
      dropped.push(`trigger ${t.name} on ${t.tbl}`);
    }
    const indexes = await tx.query<{ name: string }>(
      `SELECT c.oid::regclass::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'i' AND c.relname LIKE 'console\\_%'`,
    );
    for (const i of indexes) {
      await tx.exec(`DROP INDEX ${i.name}`);
      dropped.push(`index ${i.name}`);
    }
    // The running console's role keeps no rights on FRED's tables (the role itself may serve other databases).
    const [{ app }] = await tx.query<{ app: boolean }>("SELECT EXISTS (SELECT FROM pg_roles WHERE rolname = $1) AS app", [RUNTIME_GROUP]);
    if (app && (await runtimeGrants(tx)).length > 0) {
      await tx.exec(
        `REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${RUNTIME_GROUP}; REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM ${RUNTIME_GROUP};
         REVOKE USAGE ON SCHEMA public FROM ${RUNTIME_GROUP};`,
      );
      dropped.push(`the rights of ${RUNTIME_GROUP} on FRED's tables`);
    }
    await tx.exec("DROP SCHEMA console CASCADE");
    dropped.push("schema console (users, audit log, engine bookkeeping, feed, and the extensions installed into it)");
    return { restored, enabled, dropped };
  };
  return options.dryRun ? rolledBack(db, remove) : db.transaction(remove);
}
