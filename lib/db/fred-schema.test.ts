import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFredDatabase, FRED_STRUCTURE_SQL, fredSchemaAvailable, withClient } from "../../testing/fred";

// The real fred-db 2.52.0 schema (GPL test data beside the repository, see its README), and ours.
const MIGRATION_SQL = path.join(process.cwd(), "prisma", "migrations", "20261124000000_registry_fred_2_52", "migration.sql");

// The tables the migration creates, each as FRED has it.
const TABLES = [
  "enum_object_type",
  "registrar",
  "zone",
  "object_registry",
  "object",
  "contact",
  "nsset",
  "keyset",
  "host",
  "host_ipaddr_map",
  "domain",
  "enumval",
  "domain_contact_map",
  "nsset_contact_map",
  "keyset_contact_map",
  "enum_object_states",
  "enum_object_states_desc",
  "object_state",
  "object_state_request",
  "object_state_request_reason",
  "object_state_request_lock",
  "enum_parameters",
  "domain_lifecycle_parameters",
  "history",
  "object_history",
  "enum_country",
  "enum_ssntype",
  "enum_object_state_request_reason_external",
];
const VIEWS = ["object_state_now", "object_state_request_now"];
const FUNCTIONS = ["domain_name_syntax_check", "get_object_type_id"];

// What the migration leaves out on purpose (see its header): FRED has these, we do not.
const LEFT_OUT_CONSTRAINTS = ["contact.contact_country_fkey", "registrar.registrar_country_fkey"];
const LEFT_OUT_INDEXES = [
  "object_registry.object_registry_contact_name_trgm_idx",
  "object_registry.object_registry_domain_name_trgm_idx",
  "object_registry.object_registry_keyset_name_trgm_idx",
  "object_registry.object_registry_nsset_name_trgm_idx",
];

// Rows compared as JSON, in a fixed order.
const ROWS: Record<string, string> = {
  enum_object_type: "id",
  enum_object_states: "id",
  enum_object_states_desc: "state_id, lang",
  enum_parameters: "id",
  enum_ssntype: "id",
  domain_lifecycle_parameters: "id",
};

type Row = Record<string, unknown>;

function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function loadOurs(adminUrl: string, database: string, script: string): Promise<void> {
  await withClient(adminUrl, (admin) => admin.query(`CREATE DATABASE ${database}`));
  await withClient(databaseUrl(adminUrl, database), async (client) => {
    await client.query("BEGIN");
    await client.query(script);
    await client.query("COMMIT");
  });
}

interface Snapshot {
  /** Per table, one line per column / constraint / index, so that a failing diff names it. */
  columns: Map<string, string[]>;
  constraints: Map<string, string[]>;
  indexes: Map<string, string[]>;
  views: Row[];
  functions: Row[];
  sequences: Row[];
  rows: Map<string, Row[]>;
  /** The rows as one JSON line each, prefixed with the table. */
  rowLines: Map<string, string[]>;
  relations: string[];
  publicFunctions: string[];
  /** `function(argument) = result` for sample arguments. */
  functionResults: string[];
}

function byTable(rows: Row[], line: (row: Row) => string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const row of rows) {
    const key = String(row.table_name);
    map.set(key, [...(map.get(key) ?? []), line(row)]);
  }
  return map;
}

function columnLine(c: Row): string {
  const length = c.character_maximum_length === null ? "" : `(${c.character_maximum_length})`;
  return [
    `${c.table_name}.${c.column_name}: #${c.ordinal_position} ${c.data_type}${length} [${c.udt_name}]`,
    c.is_nullable === "NO" ? "NOT NULL" : "NULL",
    `default ${c.column_default ?? "-"}`,
    `owned sequence ${c.owned_sequence ?? "-"}`,
  ].join(", ");
}

// Inputs for the two functions, FRED's and ours must answer alike: edge cases and a seeded sample.
function sampleNames(): (string | null)[] {
  const label = (length: number) => "a".repeat(length);
  // Labels of at most 63 characters joined by dots, `length` characters in all.
  const nameOfLength = (length: number) => {
    const labels: string[] = [];
    for (let left = length; left > 0; ) {
      const size = left === 64 ? 62 : Math.min(63, left);
      labels.push(label(size));
      left -= size + 1;
    }
    return labels.join(".");
  };
  const fixed = [
    null,
    "",
    ".",
    "..",
    "a",
    "a.",
    "a..b",
    "cz.",
    "example.cz",
    "EXAMPLE.CZ",
    "Ex-Ample.cz.",
    "-a.cz",
    "a-.cz",
    "a-b.cz",
    "a--b.cz",
    "ex_ample.cz",
    "xn--bcher-kva.example",
    "bücher.cz",
    "a b.cz",
    "a\nb.cz",
    "1.2.3.4",
    `${label(63)}.cz`,
    `${label(64)}.cz`,
    // around the 254-character limit, with and without the final dot
    ...[252, 253, 254, 255, 256].flatMap((length) => [nameOfLength(length), `${nameOfLength(length)}.`]),
  ];
  const alphabet = "abZ09-._ é";
  let seed = 20261124;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const generated = Array.from({ length: 400 }, () =>
    Array.from({ length: Math.floor(random() * 12) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(""),
  );
  return [...fixed, ...generated];
}

async function snapshot(url: string): Promise<Snapshot> {
  return withClient(url, async (client) => {
    const q = async (text: string, values: unknown[] = []) => (await client.query(text, values)).rows as Row[];
    const relations = [...TABLES, ...VIEWS];
    const columns = await q(
      `SELECT table_name, column_name, ordinal_position, data_type, udt_name, character_maximum_length, is_nullable, column_default,
              pg_get_serial_sequence(format('public.%I', table_name), column_name) AS owned_sequence
         FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name = ANY($1)
        ORDER BY table_name, ordinal_position`,
      [relations],
    );
    const constraints = await q(
      `SELECT c.relname AS table_name, k.conname, k.contype, pg_get_constraintdef(k.oid) AS definition
         FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
        WHERE c.relnamespace = 'public'::regnamespace AND c.relname = ANY($1) AND k.contype IN ('c', 'p', 'u', 'f')
        ORDER BY c.relname, k.conname`,
      [TABLES],
    );
    const indexes = await q(
      `SELECT tablename AS table_name, indexname, indexdef
         FROM pg_indexes WHERE schemaname = 'public' AND tablename = ANY($1)
        ORDER BY tablename, indexname`,
      [TABLES],
    );
    const views = await q(
      "SELECT viewname, definition FROM pg_views WHERE schemaname = 'public' AND viewname = ANY($1) ORDER BY viewname",
      [VIEWS],
    );
    const functions = await q(
      `SELECT p.proname, oidvectortypes(p.proargtypes) AS argument_types, p.prorettype::regtype::text AS result_type,
              l.lanname, p.provolatile, p.proisstrict, p.proretset, p.prosecdef, p.proconfig
         FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
        WHERE p.pronamespace = 'public'::regnamespace AND p.proname = ANY($1)
        ORDER BY p.proname, 2`,
      [FUNCTIONS],
    );
    const sequenceNames = columns.map((c) => c.owned_sequence).filter((s): s is string => typeof s === "string");
    const sequences = await q(
      `SELECT sequencename, data_type::text, start_value::text, min_value::text, max_value::text, increment_by::text,
              cycle, cache_size::text, last_value::text
         FROM pg_sequences
        WHERE schemaname = 'public' AND format('public.%I', sequencename) = ANY($1)
        ORDER BY sequencename`,
      [sequenceNames],
    );
    const rows = new Map<string, Row[]>();
    const rowLines = new Map<string, string[]>();
    for (const [table, order] of Object.entries(ROWS)) {
      rows.set(table, await q(`SELECT to_jsonb(t) AS row FROM public.${table} AS t ORDER BY ${order}`));
      rowLines.set(
        table,
        (rows.get(table) ?? []).map(({ row }) => `${table} ${JSON.stringify(row)}`),
      );
    }
    const publicRelations = await q(
      `SELECT relname, relkind FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'v', 'm', 'p', 'f')
        ORDER BY relname`,
    );
    const publicFunctions = await q(
      `SELECT p.proname FROM pg_proc p
        WHERE p.pronamespace = 'public'::regnamespace
          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
        ORDER BY 1`,
    );
    const functionResults = await q(
      `SELECT 'domain_name_syntax_check' AS function, s.name AS argument, to_jsonb(public.domain_name_syntax_check(s.name)) AS result, s.n
         FROM unnest($1::text[]) WITH ORDINALITY AS s (name, n)
        UNION ALL
       SELECT 'get_object_type_id', t.name, to_jsonb(public.get_object_type_id(t.name)), 1000 + t.n
         FROM unnest(ARRAY['contact', 'nsset', 'domain', 'keyset', 'other', NULL]) WITH ORDINALITY AS t (name, n)
        ORDER BY n`,
      [sampleNames()],
    );
    return {
      columns: byTable(columns, columnLine),
      constraints: byTable(constraints, (k) => `${k.table_name}.${k.conname} (${k.contype}): ${k.definition}`),
      indexes: byTable(indexes, (i) => `${i.table_name}.${i.indexname}: ${i.indexdef}`),
      views,
      functions,
      sequences,
      rows,
      rowLines,
      relations: publicRelations.map((r) => `${r.relname} (${r.relkind})`).sort(),
      publicFunctions: publicFunctions.map((r) => String(r.proname)).sort(),
      functionResults: functionResults.map(({ function: name, argument, result }) => {
        const shown =
          typeof argument === "string" && argument.length > 40 ? `${argument.slice(0, 12)}…[${argument.length} chars]` : argument;
        return `${name}(${JSON.stringify(shown)}) = ${JSON.stringify(result)}`;
      }),
    };
  });
}

/** FRED's lines for a table minus those of the named objects the migration leaves out. */
function without(lines: string[] | undefined, leftOut: string[]): string[] {
  return (lines ?? []).filter((line) => !leftOut.some((name) => line.startsWith(`${name}:`) || line.startsWith(`${name} (`)));
}

/** "table.name" of each line. */
function names(lines: string[] | undefined): string[] {
  return (lines ?? []).map((line) => line.split(/[: ]/)[0]);
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("registry migration equals fred-db 2.52.0", () => {
  if (!fredSchemaAvailable()) {
    it.skip(`needs FRED's schema at ${FRED_STRUCTURE_SQL}, which is missing: comparison with fred-db skipped`, () => {});
    return;
  }

  const adminUrl = process.env.TEST_DATABASE_URL ?? "";
  const ourDatabase = `rsc_ours_${randomBytes(6).toString("hex")}`;
  let fredDatabase: Awaited<ReturnType<typeof createFredDatabase>> | undefined;
  let fred: Snapshot;
  let ours: Snapshot;

  beforeAll(async () => {
    fredDatabase = await createFredDatabase(adminUrl);
    await loadOurs(adminUrl, ourDatabase, await readFile(MIGRATION_SQL, "utf8"));
    [fred, ours] = await Promise.all([snapshot(fredDatabase.url), snapshot(databaseUrl(adminUrl, ourDatabase))]);
  });

  afterAll(async () => {
    await fredDatabase?.drop();
    await withClient(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${ourDatabase} WITH (FORCE)`));
  });

  it("the migration starts with its registry marker", async () => {
    const [firstLine] = (await readFile(MIGRATION_SQL, "utf8")).split("\n");
    expect(firstLine).toBe("-- console:registry fred-db 2.52.0");
  });

  it.each([...TABLES, ...VIEWS])("%s: columns (name, order, type, length, nullability, default, sequence)", (table) => {
    expect(fred.columns.get(table), `FRED has no ${table}`).toBeDefined();
    expect(ours.columns.get(table), `columns of ${table}`).toEqual(fred.columns.get(table));
  });

  it.each(TABLES)("%s: primary key, unique, check and foreign key constraints", (table) => {
    const expected = without(fred.constraints.get(table), LEFT_OUT_CONSTRAINTS);
    expect(ours.constraints.get(table) ?? [], `constraints of ${table}`).toEqual(expected);
  });

  it.each(TABLES)("%s: indexes", (table) => {
    const expected = without(fred.indexes.get(table), LEFT_OUT_INDEXES);
    expect(ours.indexes.get(table) ?? [], `indexes of ${table}`).toEqual(expected);
  });

  it("leaves out only the listed FRED constraints and indexes, which FRED does have", () => {
    const fredConstraints = TABLES.flatMap((t) => names(fred.constraints.get(t)));
    const fredIndexes = TABLES.flatMap((t) => names(fred.indexes.get(t)));
    expect(fredConstraints).toEqual(expect.arrayContaining(LEFT_OUT_CONSTRAINTS));
    expect(fredIndexes).toEqual(expect.arrayContaining(LEFT_OUT_INDEXES));
  });

  it("views object_state_now and object_state_request_now", () => {
    expect(ours.views).toEqual(fred.views);
    expect(ours.views).toHaveLength(2);
  });

  it("functions the checks use: same signature and attributes, same answers", () => {
    expect(ours.functions).toEqual(fred.functions);
    expect(ours.functions).toHaveLength(2);
    expect(ours.functionResults).toEqual(fred.functionResults);
  });

  it("serial sequences, where FRED sets them", () => {
    expect(ours.sequences).toEqual(fred.sequences);
    expect(ours.sequences.map((s) => s.sequencename)).toContain("enum_ssntype_id_seq");
  });

  it.each(Object.keys(ROWS).filter((t) => t !== "domain_lifecycle_parameters"))("%s: rows", (table) => {
    expect(ours.rowLines.get(table), `rows of ${table}`).toEqual(fred.rowLines.get(table));
    expect(ours.rowLines.get(table)?.length).toBeGreaterThan(0);
  });

  it("domain_lifecycle_parameters: FRED's row, valid from the install day minus 20 years", () => {
    const rest = (rows: Row[] | undefined) =>
      (rows ?? []).map(({ row }) => {
        const { valid_for_exdate_after, ...other } = row as Row;
        return other;
      });
    expect(rest(ours.rows.get("domain_lifecycle_parameters"))).toEqual(rest(fred.rows.get("domain_lifecycle_parameters")));
    const since = (rows: Row[] | undefined) => rows?.map(({ row }) => String((row as Row).valid_for_exdate_after));
    const [ourSince] = since(ours.rows.get("domain_lifecycle_parameters")) ?? [];
    const [fredSince] = since(fred.rows.get("domain_lifecycle_parameters")) ?? [];
    expect(ourSince).toMatch(/T00:00:00$/);
    // Both installed moments apart: the same day, or the next one across midnight.
    expect(Math.abs(Date.parse(`${ourSince}Z`) - Date.parse(`${fredSince}Z`))).toBeLessThanOrEqual(86_400_000);
  });

  it("creates nothing else in schema public", () => {
    const expected = [...TABLES.map((t) => `${t} (r)`), ...VIEWS.map((v) => `${v} (v)`)].sort();
    expect(ours.relations).toEqual(expected);
    expect(ours.publicFunctions).toEqual(FUNCTIONS);
  });
});
