import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../prisma/demo/load";
import { testBackends } from "../../testing/databases";
import { Prisma } from "../generated/prisma/client";
import type { Database } from "./client";

// FRED's names (fred-db 2.52, see shared/STATES.md): a FRED-shaped database must look the same.
const FRED_COLUMNS: Record<string, string[]> = {
  enum_object_type: ["id", "name"],
  registrar: ["id", "handle", "name", "organization", "system"],
  zone: ["id", "fqdn", "ex_period_min", "ex_period_max", "val_period", "enum_zone"],
  object_registry: ["id", "roid", "type", "name", "crid", "crdate", "erdate"],
  object: ["id", "clid", "upid", "trdate", "update", "authinfopw"],
  contact: ["id", "name", "organization", "street1", "city", "postalcode", "country", "telephone", "email", "notifyemail", "vat"],
  nsset: ["id", "checklevel"],
  keyset: ["id"],
  host: ["id", "nssetid", "fqdn"],
  host_ipaddr_map: ["id", "hostid", "nssetid", "ipaddr"],
  domain: ["id", "zone", "registrant", "nsset", "exdate", "keyset"],
  enumval: ["domainid", "exdate", "publish"],
  domain_contact_map: ["domainid", "contactid", "role"],
  nsset_contact_map: ["nssetid", "contactid"],
  keyset_contact_map: ["keysetid", "contactid"],
  enum_object_states: ["id", "name", "types", "manual", "external", "importance"],
  enum_object_states_desc: ["state_id", "lang", "description"],
  object_state: ["id", "object_id", "state_id", "valid_from", "valid_to"],
  object_state_request: ["id", "object_id", "state_id", "valid_from", "valid_to", "crdate", "canceled"],
  object_state_request_reason: ["object_state_request_id", "reason_creation", "reason_cancellation"],
};

// The catalogue of fred-db 2.52 (STATES.md's 18 and FRED's 14 more): id, name, types, manual, external, EN and CS description.
const CATALOGUE: [number, string, number[], boolean, boolean, string, string][] = [
  [1, "serverDeleteProhibited", [1, 2, 3, 4], true, true, "Deletion forbidden", "Není povoleno smazání"],
  [2, "serverRenewProhibited", [3], true, true, "Registration renewal forbidden", "Není povoleno prodloužení registrace objektu"],
  [
    3,
    "serverTransferProhibited",
    [1, 2, 3, 4],
    true,
    true,
    "Sponsoring registrar change forbidden",
    "Není povolena změna určeného registrátora",
  ],
  [4, "serverUpdateProhibited", [1, 2, 3, 4], true, true, "Update forbidden", "Není povolena změna údajů"],
  [
    5,
    "serverOutzoneManual",
    [3],
    true,
    true,
    "The domain is administratively kept out of zone",
    "Doména je administrativně vyřazena ze zóny",
  ],
  [6, "serverInzoneManual", [3], true, true, "The domain is administratively kept in zone", "Doména je administrativně zařazena do zóny"],
  [7, "serverBlocked", [1, 3], true, true, "Administratively blocked", "Administrativně blokováno"],
  [8, "expirationWarning", [3], false, false, "The domain expires in 30 days", "Doména expiruje do 30 dní"],
  [9, "expired", [3], false, true, "Domain expired", "Doména je po expiraci"],
  [10, "unguarded", [3], false, false, "The domain is 30 days after expiration", "Doména je 30 dnů po expiraci"],
  [11, "validationWarning1", [3], false, false, "The domain validation expires in 30 days", "Validace domény skončí za 30 dní"],
  [12, "validationWarning2", [3], false, false, "The domain validation expires in 15 days", "Validace domény skončí za 15 dní"],
  [13, "notValidated", [3], false, true, "Domain not validated", "Doména není validována"],
  [14, "nssetMissing", [3], false, false, "The domain doesn't have associated nsset", "Doména nemá přiřazen nsset"],
  [15, "outzone", [3], false, true, "The domain isn't generated in the zone", "Doména není generována do zóny"],
  [16, "linked", [1, 2, 4], false, true, "Has relation to other records in the registry", "Je navázán na další záznam v registru"],
  [17, "deleteCandidate", [1, 2, 3, 4], false, true, "To be deleted", "Určeno ke zrušení"],
  [18, "serverRegistrantChangeProhibited", [3], true, true, "Registrant change forbidden", "Není povolena změna držitele"],
  [19, "deleteWarning", [3], false, false, "The domain will be deleted in 11 days", "Registrace domény bude zrušena za 11 dní"],
  [
    20,
    "outzoneUnguarded",
    [3],
    false,
    false,
    "The domain is out of zone after 30 days in expiration state",
    "Doména vyřazena ze zóny po 30 dnech od expirace",
  ],
  [21, "conditionallyIdentifiedContact", [1], true, true, "Contact is conditionally identified", "Kontakt je částečně identifikován"],
  [22, "identifiedContact", [1], true, true, "Contact is identified", "Kontakt je identifikován"],
  [23, "validatedContact", [1], true, true, "Contact is validated", "Kontakt je validován"],
  [24, "mojeidContact", [1], true, true, "MojeID contact", "MojeID kontakt"],
  [
    25,
    "contactPassedManualVerification",
    [1],
    true,
    true,
    "Contact has been verified by CZ.NIC customer support",
    "Kontakt byl ověřen zákaznickou podporou CZ.NIC",
  ],
  [
    26,
    "contactInManualVerification",
    [1],
    true,
    true,
    "Contact is being verified by CZ.NIC customer support",
    "Kontakt je ověřován zákaznickou podporou CZ.NIC",
  ],
  [
    27,
    "contactFailedManualVerification",
    [1],
    true,
    true,
    "Contact has failed the verification by CZ.NIC customer support",
    "Ověření kontaktu zákaznickou podporou bylo neúspěšné",
  ],
  [28, "outzoneUnguardedWarning", [3], false, false, "The domain is to be out of zone soon", "Doména bude brzy vyřazena ze zóny"],
  [29, "serverContactNameChangeProhibited", [1], true, true, "Name update forbidden", "Není povolena změna jména"],
  [30, "serverContactOrganizationChangeProhibited", [1], true, true, "Organization update forbidden", "Není povolena změna organizace"],
  [31, "serverContactIdentChangeProhibited", [1], true, true, "Ident update forbidden", "Není povolena změna dodatečného identifikátoru"],
  [
    32,
    "serverContactPermanentAddressChangeProhibited",
    [1],
    true,
    true,
    "Permanent address update forbidden",
    "Není povolena změna adresy trvalého bydliště",
  ],
];

describe.each(testBackends())("registry schema on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
    await seedDemo(db.direct, { domains: 120, seed: 3, now: new Date("2026-11-22T10:00:00Z"), timeZone: "Europe/Prague" });
  });
  afterAll(() => drop());

  it("has FRED's tables and column names in schema public", async () => {
    const rows = await db.sql.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'",
    );
    for (const [table, columns] of Object.entries(FRED_COLUMNS)) {
      const actual = rows.filter((r) => r.table_name === table).map((r) => r.column_name);
      expect(actual, `columns of ${table}`).toEqual(expect.arrayContaining(columns));
    }
  });

  it("ships fred-db 2.52's catalogue of 32 states with English and Czech descriptions", async () => {
    const rows = await db.sql.query<{
      id: number;
      name: string;
      types: number[];
      manual: boolean;
      external: boolean;
      en: string;
      cs: string;
    }>(
      `SELECT s.id, s.name, s.types, s.manual, s.external, en.description AS en, cs.description AS cs
         FROM enum_object_states s
         JOIN enum_object_states_desc en ON en.state_id = s.id AND en.lang = 'EN'
         JOIN enum_object_states_desc cs ON cs.state_id = s.id AND cs.lang = 'CS'
        ORDER BY s.id`,
    );
    expect(rows.map((r) => [r.id, r.name, r.types, r.manual, r.external, r.en, r.cs])).toEqual(CATALOGUE);
  });

  it("allows at most one open interval per object and state, and keeps closed ones", async () => {
    const [{ id }] = await db.sql.query<{ id: number }>("SELECT id FROM object_registry WHERE type = 3 AND erdate IS NULL LIMIT 1");
    await db.sql.query(
      "INSERT INTO object_state (object_id, state_id, valid_from, valid_to) VALUES ($1, 7, now() - interval '2 days', now() - interval '1 day')",
      [id],
    );
    await db.sql.query("INSERT INTO object_state (object_id, state_id, valid_from) VALUES ($1, 7, now())", [id]);
    await expect(db.sql.query("INSERT INTO object_state (object_id, state_id, valid_from) VALUES ($1, 7, now())", [id])).rejects.toThrow(
      /object_state_now_idx/,
    );
  });

  it("enforces foreign keys and FRED's name case rule", async () => {
    await expect(db.sql.query("INSERT INTO object_state (object_id, state_id, valid_from) VALUES (999999, 1, now())")).rejects.toThrow(
      /foreign key/,
    );
    await expect(db.sql.query("INSERT INTO object_state_request (object_id, state_id) VALUES (1, 999)")).rejects.toThrow(/foreign key/);
    await expect(db.sql.query("INSERT INTO object_registry (roid, type, name, crid) VALUES ('D-X', 3, 'UPPER.cz', 1)")).rejects.toThrow(
      /name_case_check/,
    );
  });

  it("answers state filters through their indexes", async () => {
    // With sequential scans priced out, the planner shows which index serves each query shape.
    const plan = async (sql: string, bitmaps = true) =>
      db.sql.transaction(async (tx) => {
        await tx.run("SET LOCAL enable_seqscan = off");
        if (!bitmaps) await tx.run("SET LOCAL enable_bitmapscan = off");
        const rows = await tx.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`);
        return rows.map((r) => r["QUERY PLAN"]).join("\n");
      });
    expect(await plan("SELECT object_id FROM object_state WHERE state_id = 15 AND valid_to IS NULL")).toMatch(
      /console_object_state_open_idx/,
    );
    // "Had a manual state at instant T" for one object: the manual states' history index.
    expect(
      await plan(
        "SELECT 1 FROM object_state WHERE object_id = 5 AND state_id = 7 AND valid_from <= '2026-03-01' AND (valid_to IS NULL OR valid_to > '2026-03-01')",
      ),
    ).toMatch(/console_object_state_manual_idx/);
    // "Had a manual state at T" for every object (a list sorted by when): the period and its end from
    // the index alone, never FRED's rows (migration 20261209000000).
    expect(
      await plan(
        "SELECT object_id, valid_to FROM object_state WHERE state_id = 7 AND valid_from <= '2026-03-01' AND (valid_to IS NULL OR valid_to > '2026-03-01')",
        false,
      ),
    ).toMatch(/Index Only Scan using console_object_state_manual_idx/);
  });

  /** A table's indexes by name, with the predicate of each partial one. */
  const indexesOf = (table: string) =>
    db.sql.query<{ name: string; predicate: string | null }>(
      `SELECT c.relname AS name, pg_get_expr(i.indpred, i.indrelid) AS predicate
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = $1::regclass ORDER BY 1`,
      [table],
    );

  it("keeps only partial indexes of its own on object_state, none of which a closed automatic state's row enters", async () => {
    // FRED's most frequent state write closes an automatic state's row (valid_to set, never a HOT
    // update): an index of the console's that such a row enters costs every one of FRED's writes.
    const rows = (await indexesOf("public.object_state")).filter((r) => r.name.startsWith("console_"));
    expect(rows.map((r) => r.name)).toEqual(["console_object_state_manual_idx", "console_object_state_open_idx"]);
    for (const { name, predicate } of rows) {
      expect(predicate, name).not.toBeNull();
      const [{ enters }] = await db.sql.query<{ enters: boolean }>(
        `SELECT coalesce(bool_or(${predicate}), false) AS enters
           FROM (SELECT s.id AS state_id, timestamp '2026-01-01' AS valid_to FROM enum_object_states s WHERE NOT s.manual) os`,
      );
      expect(enters, name).toBe(false);
    }
  });

  it("writes a state change into the feed with two index entries; it enters the feed's indexes on seq when it is numbered", async () => {
    const rows = await indexesOf("console.state_changes");
    const entered: string[] = [];
    for (const { name, predicate } of rows) {
      const [{ enters }] = await db.sql.query<{ enters: boolean }>(
        `SELECT ${predicate ?? "true"} AS enters FROM (SELECT NULL::bigint AS seq) c`,
      );
      if (enters) entered.push(name);
    }
    expect(entered).toEqual(["state_changes_pkey", "state_changes_unsequenced_idx"]);
    // The feed's number stays unique.
    await expect(
      db.sql.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO console.state_changes (seq, object_id, state_id, change, at) VALUES
             (9000000001, 1, 15, 'entered', now()), (9000000001, 2, 15, 'entered', now())`,
        );
      }),
    ).rejects.toThrow(/state_changes_seq_key/);
  });

  it("maps every table in schema.prisma onto the migrated schema", async () => {
    const client = db.prisma as unknown as Record<string, { findFirst(): Promise<unknown> }>;
    for (const model of Object.values(Prisma.ModelName)) {
      const delegate = client[model.charAt(0).toLowerCase() + model.slice(1)];
      // A column or table the SQL does not have makes the query fail.
      await delegate.findFirst();
    }
    const domain = await db.prisma.domain.findFirst({
      include: {
        object: { include: { registry: true, sponsor: true } },
        registrant: true,
        nsset: { include: { hosts: true } },
        zone: true,
        contacts: true,
      },
    });
    expect(domain?.object.registry.name).toMatch(/\.(cz|arpa)$/);
    const created = await db.prisma.objectState.create({
      data: { objectId: domain?.id ?? 0, stateId: 9, validFrom: new Date("2026-01-01T00:00:00Z") },
    });
    // FRED's instants are UTC wall-clock timestamps; Prisma writes and reads them as UTC.
    const [raw] = await db.sql.query<{ at: string }>("SELECT valid_from::text AS at FROM object_state WHERE id = $1", [created.id]);
    expect(raw.at).toBe("2026-01-01 00:00:00");
    expect(await db.prisma.objectState.findUnique({ where: { id: created.id }, include: { state: true } })).toMatchObject({
      validFrom: new Date("2026-01-01T00:00:00Z"),
      validTo: null,
      state: { name: "expired" },
    });
  });
});
