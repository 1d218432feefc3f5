import type { SqlDriver, SqlExecutor } from "../../lib/db/driver";
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
  object_registry: { id: "int4", roid: "text", type: "int2", name: "text", crid: "int4", crdate: "timestamp", erdate: "timestamp" },
  object: { id: "int4", clid: "int4", upid: "int4", trdate: "timestamp", update: "timestamp", authinfopw: "text" },
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

const SERIAL_TABLES = ["registrar", "zone", "object_registry", "host", "host_ipaddr_map", "object_state_request"] as const;

/** One statement per table and chunk: each column travels as one array parameter. */
async function insertRows(tx: SqlExecutor, table: TableName, rows: Row[]): Promise<void> {
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
async function deferIndexes(tx: SqlExecutor, tables: readonly string[]): Promise<string[]> {
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
  db: SqlDriver,
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
    const rebuild = await deferIndexes(tx, TABLE_ORDER);
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
      await runStateEngine(tx, { at: statesAt, full: true });
      await tx.query("SELECT set_config('registry.state_feed', 'on', true)");
      await build(history);
    }
  });
  // Planner statistics for the new rows: PGlite has no autovacuum to gather them, and without them
  // the object list's state filters take nested loops over every object (37 s instead of 70 ms).
  await db.exec("ANALYZE");
  return demoCounts(options.domains);
}
