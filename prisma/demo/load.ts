import type { DirectDriver, ScriptExecutor } from "../../lib/db/driver";
import { StartupError } from "../../lib/db/errors";
import { runStateEngine } from "../../lib/states/engine";
import {
  type DemoChunk,
  type DemoCounts,
  type DemoOptions,
  demoCounts,
  generateDemo,
  type Row,
  TABLE_ORDER,
  type TableName,
} from "./generate";

// The SQL type of every column the generator writes; rows may leave out nullable columns.
const COLUMNS: Record<TableName, Record<string, string>> = {
  registrar: {
    id: "int4",
    handle: "text",
    name: "text",
    organization: "text",
    dic: "text",
    street1: "text",
    city: "text",
    postalcode: "text",
    country: "text",
    telephone: "text",
    email: "text",
    url: "text",
    system: "bool",
  },
  zone: { id: "int4", fqdn: "text", ex_period_min: "int4", ex_period_max: "int4", val_period: "int4", dots_max: "int4", enum_zone: "bool" },
  history: { id: "int4", valid_from: "timestamp", valid_to: "timestamp", next: "int4" },
  object_registry: {
    id: "int4",
    roid: "text",
    type: "int2",
    name: "text",
    crid: "int4",
    crdate: "timestamp",
    erdate: "timestamp",
    crhistoryid: "int4",
    historyid: "int4",
  },
  object: { id: "int4", clid: "int4", upid: "int4", trdate: "timestamp", update: "timestamp", authinfopw: "text" },
  object_history: {
    historyid: "int4",
    id: "int4",
    clid: "int4",
    upid: "int4",
    trdate: "timestamp",
    update: "timestamp",
    authinfopw: "text",
  },
  contact: {
    id: "int4",
    name: "text",
    organization: "text",
    street1: "text",
    city: "text",
    postalcode: "text",
    country: "text",
    telephone: "text",
    email: "text",
    vat: "text",
    discloseaddress: "bool",
  },
  nsset: { id: "int4", checklevel: "int2" },
  keyset: { id: "int4" },
  host: { id: "int4", nssetid: "int4", fqdn: "text" },
  host_ipaddr_map: { id: "int4", hostid: "int4", nssetid: "int4", ipaddr: "inet" },
  domain: { id: "int4", zone: "int4", registrant: "int4", nsset: "int4", exdate: "date", keyset: "int4" },
  enumval: { domainid: "int4", exdate: "date", publish: "bool" },
  domain_contact_map: { domainid: "int4", contactid: "int4", role: "int4" },
  nsset_contact_map: { nssetid: "int4", contactid: "int4" },
  keyset_contact_map: { keysetid: "int4", contactid: "int4" },
  object_state_request: {
    id: "int4",
    object_id: "int4",
    state_id: "int4",
    valid_from: "timestamp",
    valid_to: "timestamp",
    crdate: "timestamp",
    canceled: "timestamp",
  },
  object_state_request_reason: { object_state_request_id: "int4", reason_creation: "text", reason_cancellation: "text" },
};

const SERIAL_TABLES = ["registrar", "zone", "history", "object_registry", "host", "host_ipaddr_map", "object_state_request"] as const;

/** One statement per table and chunk: each column travels as one array parameter. */
async function insertRows(tx: ScriptExecutor, table: TableName, rows: Row[]): Promise<void> {
  const columns = Object.entries(COLUMNS[table]);
  const names = columns.map(([name]) => `"${name}"`).join(", ");
  const arrays = columns.map(([name]) => rows.map((row) => row[name] ?? null));
  const unnest = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
  await tx.query(`INSERT INTO ${table} (${names}) SELECT * FROM unnest(${unnest})`, arrays);
}

/**
 * Bulk loading: the secondary indexes and the foreign-key, unique and exclusion constraints of the
 * loaded tables are dropped inside the loading transaction and built again after the rows are in,
 * which checks every row once in bulk instead of row by row. Primary keys stay. Returns the
 * statements that rebuild what was dropped.
 */
async function deferIndexes(tx: ScriptExecutor, tables: readonly string[]): Promise<string[]> {
  const constraints = await tx.query<{ tbl: string; name: string; def: string }>(
    `SELECT c.conrelid::regclass::text AS tbl, c.conname AS name, pg_get_constraintdef(c.oid) AS def
       FROM pg_constraint c
      WHERE c.conrelid = ANY($1::regclass[]) AND c.contype IN ('f', 'u', 'x')
      ORDER BY c.contype, c.conname`,
    [tables],
  );
  const indexes = await tx.query<{ name: string; def: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i
      WHERE i.indrelid = ANY($1::regclass[]) AND NOT i.indisprimary
        AND NOT EXISTS (SELECT FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid)
      ORDER BY 1`,
    [tables],
  );
  // FRED's deferred constraint triggers (the contact address-disclosure checks, which only warn)
  // would queue one event per loaded row, and a table with queued events cannot be indexed: they
  // are off while the empty registry is loaded and on again with its indexes.
  const deferred = await tx.query<{ tbl: string; name: string }>(
    `SELECT t.tgrelid::regclass::text AS tbl, t.tgname AS name
       FROM pg_trigger t
      WHERE t.tgrelid = ANY($1::regclass[]) AND t.tgdeferrable AND NOT t.tgisinternal AND t.tgenabled <> 'D'
      ORDER BY 1, 2`,
    [tables],
  );
  for (const t of deferred) await tx.query(`ALTER TABLE ${t.tbl} DISABLE TRIGGER "${t.name}"`);
  // Foreign keys first (they may lean on unique constraints), then the rest.
  for (const c of constraints) await tx.query(`ALTER TABLE ${c.tbl} DROP CONSTRAINT "${c.name}"`);
  for (const i of indexes) await tx.query(`DROP INDEX ${i.name}`);
  return [
    ...indexes.map((i) => i.def),
    // Unique and exclusion constraints before the foreign keys that need them.
    ...[...constraints].reverse().map((c) => `ALTER TABLE ${c.tbl} ADD CONSTRAINT "${c.name}" ${c.def}`),
    ...deferred.map((t) => `ALTER TABLE ${t.tbl} ENABLE TRIGGER "${t.name}"`),
  ];
}

/**
 * FRED's per-type history tables (fred-db 2.52) beside the live tables they copy, and the column
 * that names the object. The console's own schema has neither: only a FRED database gets them.
 */
const TYPE_HISTORY = [
  ["contact_history", "contact", "id"],
  ["contact_address_history", "contact_address", "contactid"],
  ["nsset_history", "nsset", "id"],
  ["nsset_contact_map_history", "nsset_contact_map", "nssetid"],
  ["host_history", "host", "nssetid"],
  ["host_ipaddr_map_history", "host_ipaddr_map", "nssetid"],
  ["keyset_history", "keyset", "id"],
  ["keyset_contact_map_history", "keyset_contact_map", "keysetid"],
  ["dsrecord_history", "dsrecord", "keysetid"],
  ["dnskey_history", "dnskey", "keysetid"],
  ["domain_history", "domain", "id"],
  ["domain_contact_map_history", "domain_contact_map", "domainid"],
  ["enumval_history", "enumval", "domainid"],
] as const;

async function existingTypeHistory(tx: ScriptExecutor): Promise<(typeof TYPE_HISTORY)[number][]> {
  const present = new Set(
    (
      await tx.query<{ name: string }>("SELECT relname AS name FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'")
    ).map((r) => r.name),
  );
  return TYPE_HISTORY.filter(([history, live]) => present.has(history) && present.has(live));
}

/**
 * The per-type history of every version the generator wrote (history, object_history): the demo's
 * objects keep their data from creation on, so each version's rows are the live rows, copied in
 * bulk. A deleted object's live rows are gone: its one version gets the type's row with the data a
 * deletion leaves behind (a deleted domain expired 61 days before it was deleted).
 */
async function writeTypeHistory(tx: ScriptExecutor, tables: (typeof TYPE_HISTORY)[number][]): Promise<void> {
  for (const [history, live, key] of tables) {
    const columns = (
      await tx.query<{ name: string }>(
        `SELECT quote_ident(column_name) AS name FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name = $1 AND column_name <> 'historyid' ORDER BY ordinal_position`,
        [history],
      )
    ).map((c) => c.name);
    await tx.query(
      `INSERT INTO ${history} (historyid, ${columns.join(", ")})
       SELECT v.historyid, ${columns.map((c) => `l.${c}`).join(", ")} FROM object_history v JOIN ${live} l ON l.${key} = v.id`,
    );
  }
  const names = new Set(tables.map(([history]) => history));
  const deleted = "FROM object_history v JOIN object_registry r ON r.id = v.id WHERE r.erdate IS NOT NULL";
  if (names.has("domain_history")) {
    await tx.query(
      `WITH c AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM contact)
       INSERT INTO domain_history (historyid, zone, id, exdate, registrant)
       SELECT v.historyid, (SELECT min(id) FROM zone WHERE NOT enum_zone), r.id, (r.erdate - interval '61 days')::date, c.id
         ${deleted.replace("WHERE", "JOIN c ON c.n = r.id % (SELECT count(*) FROM contact) WHERE")} AND r.type = 3`,
    );
  }
  if (names.has("contact_history")) {
    await tx.query(
      `INSERT INTO contact_history (historyid, id, name, disclosename, discloseorganization, discloseaddress, disclosetelephone,
                                    disclosefax, discloseemail, disclosevat, discloseident, disclosenotifyemail)
       SELECT v.historyid, r.id, initcap(split_part(r.name, '-', 1)), true, true, true, false, false, false, false, false, false
         ${deleted} AND r.type = 1`,
    );
  }
  if (names.has("nsset_history")) {
    await tx.query(`INSERT INTO nsset_history (historyid, id, checklevel) SELECT v.historyid, r.id, 0 ${deleted} AND r.type = 2`);
  }
}

/**
 * Each state row's object versions, as FRED's trigger_object_state_hid records them when a state
 * opens and closes: the version in force at its valid_from (ohid_from) and at its valid_to
 * (ohid_to). The first build of history writes the registry's past at once, after the objects'
 * last versions, so the trigger would give every row the last one.
 */
const STATE_VERSIONS_SQL = `
WITH version AS (
  SELECT v.id AS object_id, v.historyid,
         CASE WHEN h.id = r.crhistoryid THEN '-infinity'::timestamp ELSE h.valid_from END AS since,
         CASE WHEN h.next IS NULL THEN 'infinity'::timestamp ELSE h.valid_to END AS until
    FROM object_history v JOIN history h ON h.id = v.historyid JOIN object_registry r ON r.id = v.id
), versions AS (
  SELECT s.id, f.historyid AS ohid_from, t.historyid AS ohid_to
    FROM object_state s
    JOIN version f ON f.object_id = s.object_id AND s.valid_from >= f.since AND s.valid_from < f.until
    LEFT JOIN version t ON t.object_id = s.object_id AND s.valid_to >= t.since AND s.valid_to < t.until
)
UPDATE object_state s SET ohid_from = versions.ohid_from, ohid_to = versions.ohid_to FROM versions WHERE versions.id = s.id`;

/** FRED's row trigger on `table` named `name`, when it is there and enabled. */
async function enabledTrigger(tx: ScriptExecutor, table: string, name: string): Promise<boolean> {
  const [row] = await tx.query<{ on: boolean }>(
    "SELECT EXISTS (SELECT FROM pg_trigger WHERE tgrelid = to_regclass($1) AND tgname = $2 AND tgenabled <> 'D') AS on",
    [table, name],
  );
  return row.on;
}

/** Demo data never mixes with existing registry data. */
export class RegistryNotEmptyError extends StartupError {}

export interface SeedProgress {
  phase: string;
  done: number;
  total: number;
}

/**
 * Loads the demo registry into an empty registry in one transaction, so an interrupted seed
 * leaves nothing behind.
 */
export async function seedDemo(
  db: DirectDriver,
  options: DemoOptions,
  onProgress: (progress: SeedProgress) => void = () => {},
  /** The instant the state engine builds history up to after loading; null leaves it to the caller. */
  statesAt: Date | null = new Date(),
): Promise<DemoCounts> {
  await db.transaction(async (tx) => {
    const [{ objects }] = await tx.query<{ objects: number }>("SELECT count(*)::int AS objects FROM object_registry");
    if (objects > 0) {
      throw new RegistryNotEmptyError(
        `the registry at ${db.location} already holds ${objects} objects; demo data is only loaded into an empty registry`,
      );
    }
    // Row by row marking is for live changes; the full run below computes every object at once.
    await tx.query("SELECT set_config('registry.state_marks', 'off', true)");
    await tx.query("SELECT set_config('maintenance_work_mem', '512MB', true)");
    const typeHistory = await existingTypeHistory(tx);
    // The object list's copy of the keys (console.object_key, issue 40) is filled once, in bulk,
    // after the rows, and indexed after that, instead of by its trigger row by row.
    const [{ keys }] = await tx.query<{ keys: boolean }>("SELECT to_regclass('console.object_key') IS NOT NULL AS keys");
    const rebuild = await deferIndexes(tx, [
      ...TABLE_ORDER,
      ...typeHistory.map(([history]) => history),
      ...(keys ? ["console.object_key"] : []),
    ]);
    const keysTrigger = await enabledTrigger(tx, "public.object_registry", "console_object_key_copy");
    if (keysTrigger) await tx.query("ALTER TABLE object_registry DISABLE TRIGGER console_object_key_copy");
    // FRED's trigger on object_history fills ohid_from of the object's states that lack it, row by
    // row; there are no states yet: it is off while the versions are loaded.
    const objectHistoryTrigger = await enabledTrigger(tx, "public.object_history", "trigger_object_history");
    if (objectHistoryTrigger) await tx.query("ALTER TABLE object_history DISABLE TRIGGER trigger_object_history");
    // The console's request rules check each new request against the object's others, row by row:
    // for the generated requests they are checked once, in bulk, after loading (below).
    await tx.query("ALTER TABLE object_state_request DISABLE TRIGGER console_1_request_check");
    let total = 0;
    // The next chunk is generated while the database writes the previous one.
    let writing: Promise<void> = Promise.resolve();
    for (const chunk of generateDemo(options) as Generator<DemoChunk>) {
      await writing;
      total = chunk.total;
      writing = (async () => {
        for (const batch of chunk.batches) await insertRows(tx, batch.table, batch.rows);
        onProgress({ phase: chunk.phase, done: chunk.done, total: chunk.total });
      })();
      // Awaited below; until then a failure must not count as unhandled (the generator may throw first).
      writing.catch(() => {});
    }
    await writing;
    onProgress({ phase: "object history", done: total, total });
    await writeTypeHistory(tx, typeHistory);
    if (objectHistoryTrigger) await tx.query("ALTER TABLE object_history ENABLE TRIGGER trigger_object_history");
    if (keys)
      await tx.query(
        `INSERT INTO console.object_key (id, type, name, crdate, erdate)
         SELECT id, type, name, crdate, erdate FROM object_registry ON CONFLICT (id) DO NOTHING`,
      );
    if (keysTrigger) await tx.query("ALTER TABLE object_registry ENABLE TRIGGER console_object_key_copy");
    const build = async (statements: string[]) => {
      for (const [i, statement] of statements.entries()) {
        onProgress({ phase: `indexes and constraints (${i + 1} of ${statements.length})`, done: total, total });
        await tx.query(statement);
      }
    };
    await build(rebuild);
    await tx.query("ALTER TABLE object_state_request ENABLE TRIGGER console_1_request_check");
    const broken = await tx.query<{ detail: string }>("SELECT detail FROM console.registry_anomalies() LIMIT 3");
    if (broken.length > 0)
      throw new Error(`the demo generator made requests the console's rules refuse: ${broken.map((b) => b.detail).join("; ")}`);
    for (const table of SERIAL_TABLES) {
      await tx.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), GREATEST((SELECT max(id) FROM ${table}), 1))`);
    }
    await tx.query("SELECT set_config('registry.state_marks', 'on', true)");
    if (statesAt) {
      // The first build writes all history at once: its table's indexes are built after it too.
      const history = await deferIndexes(tx, ["object_state"]);
      // The registry's past, not news: the state change feed starts after the load.
      await tx.query("SELECT set_config('registry.state_feed', 'off', true)");
      onProgress({ phase: "state history", done: total, total });
      // The registry was empty, so there is no history to keep: the demo's is built from its start
      // (an adopted FRED registry's engine cursor would otherwise keep it from before adoption).
      await tx.query("UPDATE console.state_engine SET cursor = NULL, full_run_due = false");
      // FRED's trigger would stamp every row with the object's last version, row by row: the rows'
      // versions are set once, in bulk, after the build.
      const versionTrigger = await enabledTrigger(tx, "public.object_state", "trigger_object_state_hid");
      if (versionTrigger) await tx.query("ALTER TABLE object_state DISABLE TRIGGER trigger_object_state_hid");
      await runStateEngine(tx, { at: statesAt, full: true });
      await tx.query(STATE_VERSIONS_SQL);
      if (versionTrigger) await tx.query("ALTER TABLE object_state ENABLE TRIGGER trigger_object_state_hid");
      await tx.query("SELECT set_config('registry.state_feed', 'on', true)");
      await build(history);
    }
  });
  // Planner statistics for the new rows: PGlite has no autovacuum to gather them, and without them
  // the object list's state filters take nested loops over every object (37 s instead of 70 ms).
  await db.exec("ANALYZE");
  return demoCounts(options.domains);
}
