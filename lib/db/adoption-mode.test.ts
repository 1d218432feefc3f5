// The adoption modes of a FRED registry (issue 40, docs/fred.md):
// a new adoption is beside FRED — FRED's update_object_states and triggers as it shipped them, no
// console trigger on FRED's tables, only the listed indexes —; moves between beside, shadow and
// charge, each one transaction, and db:unadopt from each, leave FRED's tables, rows and grants as
// they were. PostgreSQL only: the schema is loaded with psql as fred-db's README says.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFredDatabase, fredSchemaAvailable, type Grant, publicGrants } from "../../testing/fred";
import { checkDatabase } from "../check";
import { healthReport } from "../health";
import { runStateEngine } from "../states/engine";
import { planAdoption, unadopt } from "./adopt";
import { moveMode } from "./adoption-mode";
import { type CatalogEntry, catalog } from "./catalogue";
import { type Database, openDatabase } from "./client";
import { pgExecutor } from "./driver";
import { migrate } from "./migrations";
import { registryMode } from "./mode";

const adminUrl = process.env.TEST_DATABASE_URL;

/** A small registry FRED's programs wrote, far from any date-driven threshold, with no request the console would refuse. */
const REGISTRY = `
INSERT INTO registrar (id, handle, name, organization, dic, street1, city, postalcode, telephone, email, url)
VALUES (1, 'REG-FRED', 'FRED registrar', 'FRED registrar', 'CZ1', 'Street 1', 'Praha', '11000', '+420.1', 'r@example.cz', 'https://r.example.cz');
INSERT INTO zone (id, fqdn, ex_period_min, ex_period_max, val_period) VALUES (1, 'cz', 12, 120, 0);
INSERT INTO object_registry (id, roid, type, name, crid, crdate) VALUES
  (1, 'C0001-CZ', 1, 'CID-HOLDER', 1, '2020-01-01 10:00'),
  (2, 'N0002-CZ', 2, 'NSS-ONE', 1, '2020-01-01 10:00'),
  (3, 'D0003-CZ', 3, 'alpha.cz', 1, '2020-01-01 10:00'),
  (4, 'D0004-CZ', 3, 'beta.cz', 1, '2020-01-01 10:00');
INSERT INTO object (id, clid) VALUES (1, 1), (2, 1), (3, 1), (4, 1);
INSERT INTO contact (id, name) VALUES (1, 'Holder');
INSERT INTO nsset (id) VALUES (2);
INSERT INTO domain (id, zone, registrant, nsset, exdate) VALUES (3, 1, 1, 2, '2040-01-01'), (4, 1, 1, NULL, '2040-01-01');
SELECT setval('object_registry_id_seq', 10);
INSERT INTO object_state_request (id, object_id, state_id, valid_from, valid_to, crdate, canceled) VALUES
  (1, 3, 3, '2024-01-01', NULL, '2024-01-01', NULL);
SELECT setval('object_state_request_id_seq', 10);
`;

/** The indexes of the console that beside and shadow keep on FRED's tables (console.charge_objects `beside`). */
const BESIDE_INDEXES = [
  "console_domain_keyset_idx",
  "console_object_state_manual_idx",
  "console_object_state_open_idx",
  "console_object_state_request_active_idx",
  "console_object_state_request_object_idx",
  "console_object_state_request_valid_from_id_idx",
  "console_object_state_request_valid_to_idx",
];

const FRED_STATE_TRIGGERS = [
  "trigger_domain",
  "trigger_domain_contact_map",
  "trigger_enumval",
  "trigger_keyset_contact_map",
  "trigger_nsset_contact_map",
  "trigger_object_state",
];

describe.skipIf(!adminUrl || !fredSchemaAvailable())("adoption modes of a FRED 2.52 registry (PostgreSQL)", () => {
  let fred: Awaited<ReturnType<typeof createFredDatabase>>;
  /** The superuser's session, names in full (search_path pg_catalog). */
  let client: pg.Client;
  let db: Database;
  let before: { catalogue: CatalogEntry[]; functions: Map<string, string>; rows: string; grants: Grant[] };

  /** Every object of schema public (tables, indexes, functions with a digest of their text, triggers and whether enabled). */
  const fredCatalogue = async (): Promise<CatalogEntry[]> =>
    (await catalog(pgExecutor(client)))
      .filter(
        (e) =>
          !(e.kind === "schema" || e.name.startsWith("console.") || / \(in schema console\)$/.test(e.name) || / on console\./.test(e.name)),
      )
      .sort((a, b) => `${a.kind} ${a.name}`.localeCompare(`${b.kind} ${b.name}`));
  const functions = async (): Promise<Map<string, string>> =>
    new Map(
      (
        await client.query<{ fn: string; def: string }>(
          `SELECT p.oid::regprocedure::text AS fn, pg_get_functiondef(p.oid) AS def FROM pg_proc p
            WHERE p.pronamespace = 'public'::regnamespace AND p.prokind IN ('f', 'p')
              AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`,
        )
      ).rows.map((r) => [r.fn, r.def]),
    );
  /** A digest of FRED's rows the modes could touch: the state history, the requests, the objects. */
  const rows = async (): Promise<string> => {
    const parts: string[] = [];
    for (const table of ["object_state", "object_state_request", "object_registry", "domain", "object", "enum_parameters"]) {
      const { rows: r } = await client.query<{ digest: string }>(
        `SELECT md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS digest FROM public.${table} t`,
      );
      parts.push(`${table} ${r[0].digest}`);
    }
    return parts.join("; ");
  };
  /** FRED's own roles' rights (console_app's are the console's, granted in every mode). */
  const fredGrants = async (): Promise<Grant[]> => (await publicGrants(client)).filter((g) => g.grantee !== "console_app");
  const consoleTriggersOnFred = async (): Promise<string[]> =>
    (
      await client.query<{ name: string }>(
        `SELECT t.tgname || ' on ' || t.tgrelid::regclass::text AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
          WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace AND t.tgname LIKE 'console%' ORDER BY 1`,
      )
    ).rows.map((r) => r.name);
  const fredTriggers = async (): Promise<string[]> =>
    (
      await client.query<{ name: string }>(
        `SELECT t.tgname || ' ' || t.tgenabled::text AS name FROM pg_trigger t
          WHERE NOT t.tgisinternal AND t.tgname = ANY ($1) ORDER BY 1`,
        [FRED_STATE_TRIGGERS],
      )
    ).rows.map((r) => r.name);
  const consoleIndexesOnFred = async (): Promise<string[]> =>
    (
      await client.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
          WHERE t.relnamespace = 'public'::regnamespace AND c.relname LIKE 'console%' ORDER BY 1`,
      )
    ).rows.map((r) => r.name);

  beforeAll(async () => {
    fred = await createFredDatabase(adminUrl as string);
    client = new pg.Client({ connectionString: fred.url });
    await client.connect();
    await client.query(REGISTRY);
    // FRED's own procedure builds its history, in UTC as FRED runs.
    await client.query("SET TimeZone TO 'UTC'");
    await client.query("SELECT update_object_states(0)");
    await client.query("SET search_path TO pg_catalog");
    before = { catalogue: await fredCatalogue(), functions: await functions(), rows: await rows(), grants: await fredGrants() };
    db = await openDatabase({ databaseUrl: fred.fredUrl, pgliteDir: "" });
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    await client?.end();
    await fred?.drop();
  });

  let beside: CatalogEntry[];

  it("adopts a new registry beside FRED: FRED's function and triggers as shipped, no console trigger on FRED's tables, only the listed indexes", async () => {
    const plan = await planAdoption(db.direct);
    expect(plan.mode).toBe("beside");
    expect(plan.disabled).toEqual([]);
    expect(plan.created.filter((c) => /^trigger .* on public\./.test(c))).toEqual([]);
    expect(
      plan.created
        .filter((c) => c.startsWith("index public."))
        .map((c) => c.split(" ")[1].replace("public.", ""))
        .sort(),
    ).toEqual([...BESIDE_INDEXES].sort());
    expect(await fredCatalogue()).toEqual(before.catalogue); // the dry run changed nothing

    await migrate(db.direct);
    expect((await registryMode(db.sql)).mode).toBe("beside");
    expect((await healthReport(db.sql, 0)).mode).toBe("beside");
    expect(await consoleTriggersOnFred()).toEqual([]);
    expect(await fredTriggers()).toEqual(FRED_STATE_TRIGGERS.map((t) => `${t} O`));
    expect(await consoleIndexesOnFred()).toEqual([...BESIDE_INDEXES].sort());
    // Every function of FRED's as shipped; get_object_type_id and unaccent_streets only with pg_temp
    // at the end of their search_path (issue 39, kept in every mode: lib/db/adoption-mode.ts toBeside).
    const now = await functions();
    expect([...now.keys()].sort()).toEqual([...before.functions.keys()].sort());
    const changed = [...now].filter(([fn, def]) => before.functions.get(fn) !== def).map(([fn]) => fn);
    expect(changed.sort()).toEqual(["public.get_object_type_id(text)", "public.unaccent_streets(text,text,text)"]);
    for (const fn of changed) {
      const was = before.functions.get(fn) as string;
      expect(now.get(fn)).toBe(was.replace(/(\n SET search_path TO [^\n]*)/, "$1, 'pg_temp'"));
    }
    expect(now.get("public.update_object_states(integer)")).toMatch(/tmp_object_state_change/);
    // FRED's rows, and its roles' rights, as they were; FRED's procedure still runs.
    expect(await rows()).toBe(before.rows);
    expect(await fredGrants()).toEqual(before.grants);
    await client.query("SET search_path TO public; SELECT update_object_states(0); SET search_path TO pg_catalog");
    expect(await rows()).toBe(before.rows);
    beside = await fredCatalogue();
  });

  it("refuses charge from beside without --force, with a clear message, and changes nothing", async () => {
    await expect(moveMode(db.direct, "charge")).rejects.toThrow(
      /is in beside: charge is reached from shadow, .* or with --force .* Nothing was changed\./,
    );
    await expect(moveMode(db.direct, "charge", { dryRun: true })).rejects.toThrow(/charge is reached from shadow/);
    expect((await registryMode(db.sql)).mode).toBe("beside");
    expect(await fredCatalogue()).toEqual(beside);
    // The dry run with --force says what charge adds, and changes nothing either.
    const dry = await moveMode(db.direct, "charge", { force: true, dryRun: true });
    expect(dry.charge).toMatch(/forced from beside/);
    expect(dry.added.filter((a) => a.startsWith("trigger console_")).length).toBe(27);
    expect(dry.added).toContain("index public.console_keyset_contact_map_contactid_idx on public.keyset_contact_map");
    expect(dry.replaced).toEqual(["function public.update_object_states(integer)"]);
    expect(dry.disabled).toEqual(
      FRED_STATE_TRIGGERS.map((t) => `trigger ${t} on public.${t === "trigger_object_state" ? "object_state" : t.replace("trigger_", "")}`),
    );
    expect(dry.engine).not.toBeNull();
    expect(await fredCatalogue()).toEqual(beside);
    expect((await registryMode(db.sql)).mode).toBe("beside");
  });

  it("refuses the console's engine beside, with a message naming the mode, and writes nothing", async () => {
    for (const run of [() => runStateEngine(db.sql), () => runStateEngine(db.sql, { full: true }), () => runStateEngine(db.direct)])
      await expect(run()).rejects.toThrow(/is in beside mode, where FRED's own update_object_states writes object_state/);
    expect(await rows()).toBe(before.rows);
    // db:check holds FRED's history to the console's engine's promises only in charge.
    const check = await checkDatabase(db.sql);
    expect(check.checks.map((c) => c.name)).not.toContain("history order");
    expect(check.checks.map((c) => c.name)).toContain("history overlaps");
    expect(check.notes.join(" ")).toMatch(/in beside mode: FRED's own engine writes the state history/);
  });

  it("changes nothing when a move fails half-way (one transaction)", async () => {
    await client.query(
      `CREATE FUNCTION public.rsc_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$;
       CREATE TRIGGER rsc_fail BEFORE UPDATE ON console.state_engine FOR EACH ROW EXECUTE FUNCTION public.rsc_fail()`,
    );
    try {
      // The move fails at the engine's start, after the mode, every trigger, index and function.
      await expect(moveMode(db.direct, "charge", { force: true })).rejects.toThrow(/injected failure/);
    } finally {
      await client.query("DROP TRIGGER rsc_fail ON console.state_engine; DROP FUNCTION public.rsc_fail()");
    }
    expect(await fredCatalogue()).toEqual(beside);
    expect(await rows()).toBe(before.rows);
    expect((await registryMode(db.sql)).mode).toBe("beside");
  });

  it("moves beside → shadow → charge → beside, leaving FRED's tables, rows and grants as they were", async () => {
    const shadow = await moveMode(db.direct, "shadow");
    expect([shadow.added, shadow.dropped, shadow.restored, shadow.enabled, shadow.disabled].flat()).toEqual([]);
    expect(await fredCatalogue()).toEqual(beside);

    const charge = await moveMode(db.direct, "charge");
    expect(charge.from).toBe("shadow");
    expect(charge.charge).toMatch(/shadow's report/);
    expect((await registryMode(db.sql)).mode).toBe("charge");
    expect((await healthReport(db.sql, 0)).mode).toBe("charge");
    expect((await consoleTriggersOnFred()).length).toBe(27);
    expect(await fredTriggers()).toEqual(FRED_STATE_TRIGGERS.map((t) => `${t} D`));
    expect((await functions()).get("public.update_object_states(integer)")).toMatch(/console\.state_engine_run/);
    // The console's engine compared every object with its rules at the move: FRED's history agreed.
    expect(charge.engine).toEqual({ objects: 4, opened: 0, closed: 0 });
    expect(await rows()).toBe(before.rows);
    // In charge FRED's call runs the console's engine.
    await client.query("SET search_path TO public; SELECT update_object_states(0); SET search_path TO pg_catalog");
    const [{ kind }] = (await client.query<{ kind: string }>("SELECT last_run_kind AS kind FROM console.state_engine")).rows;
    expect(kind).toBe("incremental");

    const back = await moveMode(db.direct, "beside");
    expect(back.restored).toEqual(["function public.update_object_states(integer)"]);
    expect(back.enabled.length).toBe(6);
    expect(back.kept.map((k) => k.split(" ")[1].replace("public.", ""))).toEqual([...BESIDE_INDEXES].sort());
    expect(await fredCatalogue()).toEqual(beside);
    expect(await rows()).toBe(before.rows);
    expect(await fredGrants()).toEqual(before.grants);
  });

  it.each(["beside", "shadow", "charge"] as const)(
    "is removed by db:unadopt from %s, leaving FRED's tables, rows and grants as before adoption",
    async (mode) => {
      if ((await client.query("SELECT FROM pg_namespace WHERE nspname = 'console'")).rowCount === 0) {
        await migrate(db.direct, undefined, { adoptAs: mode });
      } else if ((await registryMode(db.sql)).mode !== mode) await moveMode(db.direct, mode, { force: true });
      expect((await registryMode(db.sql)).mode).toBe(mode);
      const dry = await unadopt(db.direct, { dryRun: true });
      // Only what is replaced now is restored.
      expect(dry.restored).toEqual(
        mode === "charge"
          ? ["function get_object_type_id(text)", "function unaccent_streets(text,text,text)", "function update_object_states(integer)"]
          : ["function get_object_type_id(text)", "function unaccent_streets(text,text,text)"],
      );
      expect(dry.enabled.length).toBe(mode === "charge" ? 6 : 0);
      await unadopt(db.direct, { dryRun: false });
      expect(await fredCatalogue()).toEqual(before.catalogue);
      expect(await functions()).toEqual(before.functions);
      expect(await rows()).toBe(before.rows);
      expect(await publicGrants(client)).toEqual(before.grants);
    },
  );
});
