import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { createDomain, createObject, createRegistrar, createRequest, registryAt, TYPE } from "../../testing/registry";
import { english, render } from "../actions/message";
import type { Database } from "../db/client";
import {
  type Catalogue,
  chooseForecastForm,
  filterSql,
  isBareNameSearch,
  likePattern,
  type Params,
  parseDate,
  parseFilter,
  parseInstant,
  searchedName,
} from "./filter";
import { LISTED_OBJECTS } from "./paging";

const NOW = new Date("2026-11-22T10:00:00Z");

describe("object list filters from URL parameters", () => {
  const catalogue: Catalogue = {
    types: [
      { id: 1, name: "contact" },
      { id: 3, name: "domain" },
    ],
    states: [
      { id: 7, name: "serverBlocked" },
      { id: 15, name: "outzone" },
    ],
    registrars: [{ id: 1, handle: "REG-A" }],
  };

  it("reads every filter", () => {
    const { filter, notices } = parseFilter(
      {
        type: "domain",
        q: "Example",
        match: "prefix",
        registrar: "REG-A",
        created_from: "2026-01-01",
        expires_to: "2027-01-01",
        deleted: "include",
        states: "outzone,serverBlocked",
        mode: "at",
        at: "2026-03-01T12:00:00+01:00",
        state_match: "any",
        pending: "1",
        request_state: "serverBlocked",
        request_from: "2026-12-01",
      },
      catalogue,
    );
    expect(notices).toEqual([]);
    expect(filter).toMatchObject({
      type: 3,
      name: { text: "Example", match: "prefix" },
      registrar: "REG-A",
      created: { from: new Date("2026-01-01T00:00:00Z") },
      expires: { to: "2027-01-01" },
      deleted: "include",
      state: { states: [15, 7], mode: "at", match: "any", at: new Date("2026-03-01T11:00:00Z") },
      pendingRequest: true,
      request: { state: 7, from: new Date("2026-12-01T00:00:00Z") },
    });
  });

  it.each<[string, Params, string]>([
    ["an unknown state", { states: "blocked" }, "Unknown state “blocked”; it was left out of the state filter."],
    ["an impossible date", { expires_from: "2026-02-30" }, "Expires from “2026-02-30” is not a date (YYYY-MM-DD); it was left out."],
    ["an impossible instant", { created_to: "2026-13-01T00:00Z" }, "Created before “2026-13-01T00:00Z” is not a date or time"],
    ["a reversed range", { states: "outzone", mode: "during", from: "2026-05-01", to: "2026-04-01" }, "The range ends before it starts"],
    ["an instant missing", { states: "outzone", mode: "at" }, "“had at” needs an instant; showing who has the states now."],
    ["SQL-looking text as a registrar", { registrar: "x' OR 1=1 --" }, "is not a registrar handle; it was left out."],
    [
      "an unknown mode",
      { states: "outzone", mode: "ever" },
      "State mode “ever” is not one of now, at, during, entered, left, not; using “now”.",
    ],
    ["an unknown type", { type: "registrar" }, "Unknown object type “registrar”; showing all types."],
    ["a state mode with no state", { mode: "ever" }, "“mode” belongs to the state filter, but no state was chosen; it was left out."],
    ["a range with no state", { from: "2026-01-01", to: "2026-02-01" }, "“from, to” belong to the state filter, but no state was chosen"],
    ["a request period with no state", { request_to: "2026-01-01" }, "“request_to” belongs to the request filter, but no state was chosen"],
    ["a name match with no name", { match: "prefix" }, "“match” belongs to the name search, but no name was given; it was left out."],
    ["a bad deleted mode", { deleted: "yes" }, "is not include, only or exclude"],
  ])("names %s in a notice and falls back", (_, params, notice) => {
    const { filter, notices } = parseFilter(params, catalogue);
    expect(notices.map(english).join(" ")).toContain(notice);
    expect(filter.state === null || filter.state.mode === "now" || filter.state.mode === "not").toBe(true);
  });

  it("names the filters and modes in a notice as the form does, in each language", () => {
    const { notices } = parseFilter(
      { created_from: "soon", expires_to: "2026-02-30", states: "outzone", mode: "during", from: "2026-01-01" },
      catalogue,
    );
    expect(notices.map(english)).toEqual([
      "Created from “soon” is not a date or time (use YYYY-MM-DD or YYYY-MM-DDTHH:MM); it was left out.",
      "Expires before “2026-02-30” is not a date (YYYY-MM-DD); it was left out.",
      "“had at any time in” needs a start and an end; showing who has the states now.",
    ]);
    expect(notices.map((notice) => render(notice, "cs"))).toEqual([
      "Vytvořeno od: „soon“ není datum ani čas (použijte RRRR-MM-DD nebo RRRR-MM-DDTHH:MM); filtr byl vynechán.",
      "Expiruje před: „2026-02-30“ není datum (RRRR-MM-DD); filtr byl vynechán.",
      "Volba „měl kdykoli v období“ vyžaduje začátek i konec období; zobrazují se objekty, které mají stavy nyní.",
    ]);
  });

  it("takes instants within 100 years of now only, and says so, in each language (year 9999 is a date, not a filter)", () => {
    const { filter, notices } = parseFilter(
      {
        created_from: "9999-01-01",
        created_to: "1900-06-01T10:00",
        states: "outzone",
        mode: "at",
        at: "2200-01-01",
        request_state: "outzone",
        request_from: "2127-01-01",
      },
      catalogue,
    );
    expect(filter.created).toEqual({ from: undefined, to: undefined });
    expect(filter.state?.mode).toBe("now");
    expect(filter.request?.from).toBeUndefined();
    const said = notices.map(english);
    expect(said).toHaveLength(5);
    expect(said[0]).toMatch(
      /^Created from “9999-01-01” is more than 100 years from now \(filters take instants from .+ to .+\); it was left out\.$/,
    );
    expect(said[1]).toMatch(/^Created before “1900-06-01T10:00” is more than 100 years from now/);
    expect(said[2]).toMatch(/^The instant “2200-01-01” is more than 100 years from now/);
    expect(said[3]).toBe("“had at” needs an instant; showing who has the states now.");
    expect(said[4]).toMatch(/^Request start from “2127-01-01” is more than 100 years from now/);
    expect(render(notices[0], "cs")).toMatch(
      /^Vytvořeno od: „9999-01-01“ je více než 100 let od nynějška \(filtry berou okamžiky od .+ do .+\); filtr byl vynechán\.$/,
    );
    // Within the bounds: taken.
    const near = parseFilter({ created_from: "1930-01-01", created_to: "2120-01-01" }, catalogue);
    expect(near.notices).toEqual([]);
    expect(near.filter.created).toEqual({ from: new Date("1930-01-01T00:00:00Z"), to: new Date("2120-01-01T00:00:00Z") });
  });

  it("parses only real calendar dates and instants", () => {
    expect(parseDate("2028-02-29")).toBe("2028-02-29");
    expect(parseDate("2027-02-29")).toBeUndefined();
    expect(parseInstant("2026-03-29T02:30:00+02:00")?.toISOString()).toBe("2026-03-29T00:30:00.000Z");
    expect(parseInstant("yesterday")).toBeUndefined();
  });

  it("reads times without an offset, and dates, in the registry's time zone, across DST changes", () => {
    const prague = (text: string) => parseInstant(text, "Europe/Prague")?.toISOString();
    expect(prague("2026-01-15T10:00")).toBe("2026-01-15T09:00:00.000Z");
    expect(prague("2026-07-15T10:00:30")).toBe("2026-07-15T08:00:30.000Z");
    expect(prague("2026-07-15")).toBe("2026-07-14T22:00:00.000Z");
    // 02:30 does not exist on 29 March (clocks go 02:00 → 03:00): read with the winter offset.
    expect(prague("2026-03-29T02:30")).toBe("2026-03-29T01:30:00.000Z");
    // 02:30 happens twice on 25 October: the first time, still summer time.
    expect(prague("2026-10-25T02:30")).toBe("2026-10-25T00:30:00.000Z");
    expect(prague("2026-10-25T03:30")).toBe("2026-10-25T02:30:00.000Z");
    expect(prague("2026-02-30T10:00")).toBeUndefined();
    expect(prague("2026-01-15T24:00")).toBeUndefined();
    expect(parseInstant("2026-01-15T10:00")?.toISOString()).toBe("2026-01-15T10:00:00.000Z");
  });

  it("takes name text literally in LIKE patterns", () => {
    expect(likePattern("A_b%c\\", "prefix")).toBe("a\\_b\\%c\\\\%");
    expect(likePattern("x", "contains")).toBe("%x%");
  });

  it("searches a domain name written with its trailing dot (the root) as the registry stores it, without the dot", () => {
    expect(searchedName("advokat-brno.cz.")).toBe("advokat-brno.cz");
    expect(searchedName("  Advokat-Brno.CZ.  ")).toBe("Advokat-Brno.CZ");
    // Not a whole dotted name: taken as typed.
    for (const text of ["advokat.", "brno", ".cz.", "a..", "a.cz..", ".", "CID-1."]) expect(searchedName(text)).toBe(text);
    const { filter, notices } = parseFilter({ q: "advokat-brno.cz.", match: "prefix" }, catalogue);
    expect(notices).toEqual([]);
    expect(filter.name).toEqual({ text: "advokat-brno.cz", match: "prefix" });
  });

  it("is a bare name search (the only one that may go straight to an object) with a name, a type and a match only", () => {
    const bare = (params: Params) => isBareNameSearch(parseFilter(params, catalogue).filter);
    expect(bare({ q: "advokat-beton.cz" })).toBe(true);
    expect(bare({ q: "advokat-beton.cz", type: "domain", match: "prefix" })).toBe(true);
    expect(bare({})).toBe(false);
    for (const other of [
      { states: "serverBlocked" },
      { states: "serverBlocked", mode: "at", at: "2026-01-01T00:00" },
      { states: "serverBlocked", mode: "not" },
      { registrar: "REG-A" },
      { created_from: "2026-01-01" },
      { created_to: "2026-01-01" },
      { expires_from: "2026-01-01" },
      { expires_to: "2026-01-01" },
      { deleted: "include" },
      { deleted: "only" },
      { pending: "1" },
      { request_state: "serverBlocked" },
    ])
      expect(bare({ q: "advokat-beton.cz", ...other }), JSON.stringify(other)).toBe(false);
    // Whatever else is chosen with a name, it is no bare search.
    const choices = fc.record(
      {
        registrar: fc.constant("REG-A"),
        created_from: fc.constant("2026-01-01"),
        expires_to: fc.constant("2027-01-01"),
        deleted: fc.constantFrom("include", "only"),
        states: fc.constantFrom("serverBlocked", "outzone,serverBlocked"),
        pending: fc.constant("1"),
        request_state: fc.constant("outzone"),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(choices, (chosen) => bare({ q: "x.cz", type: "domain", ...chosen }) === (Object.keys(chosen).length === 0)),
      { numRuns: 200 },
    );
  });

  it("looks a ROID-shaped search up by ROID too, as a parameter, and no other search", () => {
    const roid = filterSql(parseFilter({ q: "d0000019547-cz" }, catalogue).filter, NOW);
    expect(roid.where).toContain("r.roid IN ($2::varchar, upper($2)::varchar)");
    expect(roid.params).toEqual(["%d0000019547-cz%", "d0000019547-cz"]);
    for (const q of ["advokat-brno.cz", "CID-ADMIN", "D0000019547", "0000019547-CZ", "D00 19547-CZ"])
      expect(filterSql(parseFilter({ q }, catalogue).filter, NOW).where, q).not.toContain("roid");
  });

  it("keeps values out of the SQL text", () => {
    const { filter } = parseFilter({ q: "'; DROP TABLE domain; --", states: "outzone", mode: "not" }, catalogue);
    const { where, params } = filterSql(filter, NOW);
    expect(where).not.toContain("DROP");
    expect(params).toContain("%'; drop table domain; --%");
  });
});

describe.each(testBackends())("object list filters on $name: known answers", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let catalogue: Catalogue;
  const names = async (params: Params) => {
    const { filter, notices } = parseFilter(params, catalogue);
    expect(notices).toEqual([]);
    const { where, params: values } = filterSql(filter, NOW);
    const rows = await db.sql.query<{ name: string }>(`SELECT o.name FROM ${LISTED_OBJECTS} WHERE ${where} ORDER BY o.name`, values);
    return rows.map((r) => r.name);
  };

  beforeAll(async () => {
    ({ db, drop } = await registryAt(backend, NOW, async (tx) => {
      await createRegistrar(tx, 2, "REG-OTHER", "Other registrar");
      const holder = await createObject(tx, TYPE.contact, "HOLDER", "2020-01-01T00:00:00Z");
      const ns = await createObject(tx, TYPE.nsset, "NS-1", "2020-01-01T00:00:00Z");
      const domain = (name: string, exdate: string, extra: { nsset?: number | null; crdate?: string } = {}) =>
        createDomain(tx, {
          name,
          crdate: extra.crdate ?? "2021-01-01T00:00:00Z",
          exdate,
          registrant: holder,
          nsset: extra.nsset === undefined ? ns : extra.nsset,
        });
      // blocked last year only: the trap, FRED's list shows it under "serverBlocked"
      const blockedLastYear = await domain("blocked-last-year.cz", "2030-01-01");
      await createRequest(tx, blockedLastYear, "serverBlocked", "2025-03-01T00:00:00Z", "2025-06-01T00:00:00Z");
      const blockedNow = await domain("blocked-now.cz", "2030-01-01");
      await createRequest(tx, blockedNow, "serverBlocked", "2026-10-01T00:00:00Z");
      const outzoneNow = await domain("expired-long-ago.cz", "2026-01-10");
      await domain("no-nsset.cz", "2030-01-01", { nsset: null });
      const future = await domain("future-block.cz", "2030-01-01");
      await createRequest(tx, future, "serverBlocked", "2026-12-24T00:00:00Z", "2027-01-02T00:00:00Z");
      const canceled = await domain("canceled-block.cz", "2030-01-01");
      await createRequest(tx, canceled, "serverBlocked", "2026-12-01T00:00:00Z", null, "2026-11-20T00:00:00Z");
      await domain("new-one.cz", "2031-06-01", { crdate: "2026-11-01T00:00:00Z" });
      // FRED allows no "_" in domain names; a handle may have one (a LIKE wildcard to escape).
      await createObject(tx, TYPE.contact, "OLD_ONE", "2020-01-01T00:00:00Z");
      const deleted = await domain("deleted.cz", "2030-01-01");
      await tx.query("UPDATE object_registry SET erdate = '2026-06-01T00:00:00Z' WHERE id = $1", [deleted]);
      await tx.query("UPDATE object SET clid = 2 WHERE id = $1", [outzoneNow]);
    }));
    catalogue = {
      types: await db.sql.query("SELECT id, name FROM enum_object_type"),
      states: await db.sql.query("SELECT id, name FROM enum_object_states"),
      registrars: await db.sql.query("SELECT id, handle FROM registrar"),
    };
  });
  afterAll(() => drop());

  it("has now: an object blocked last year is not blocked now", async () => {
    expect(await names({ states: "serverBlocked" })).toEqual(["blocked-now.cz"]);
    expect(await names({ states: "outzone", type: "domain" })).toEqual(["expired-long-ago.cz", "no-nsset.cz"]);
  });

  it("had at an instant, and at any time in a range", async () => {
    expect(await names({ states: "serverBlocked", mode: "at", at: "2025-04-01T00:00:00Z" })).toEqual(["blocked-last-year.cz"]);
    expect(await names({ states: "serverBlocked", mode: "at", at: "2025-06-01T00:00:00Z" })).toEqual([]);
    expect(await names({ states: "serverBlocked", mode: "during", from: "2025-05-31", to: "2026-10-02" })).toEqual([
      "blocked-last-year.cz",
      "blocked-now.cz",
    ]);
  });

  it("entered in and left in a range: the history row begins (ends) inside it", async () => {
    expect(await names({ states: "serverBlocked", mode: "entered", from: "2025-03-01", to: "2025-03-02" })).toEqual([
      "blocked-last-year.cz",
    ]);
    expect(await names({ states: "serverBlocked", mode: "entered", from: "2025-03-02", to: "2026-09-30" })).toEqual([]);
    expect(await names({ states: "serverBlocked", mode: "left", from: "2025-05-31", to: "2025-06-02" })).toEqual(["blocked-last-year.cz"]);
    expect(await names({ states: "serverBlocked", mode: "left", from: "2026-01-01", to: "2026-11-22" })).toEqual([]);
    expect(
      await names({ states: "serverBlocked,outzone", state_match: "any", mode: "entered", from: "2026-09-30", to: "2026-10-02" }),
    ).toEqual(["blocked-now.cz"]);
    expect(parseFilter({ states: "outzone", mode: "left" }, catalogue).notices.map(english)).toEqual([
      "“left in” needs a start and an end; showing who has the states now.",
    ]);
  });

  it("does not have now: the opposite of has now, in the same words (not all of = lacks one; not any of = has none)", async () => {
    const domains = [
      "blocked-last-year.cz",
      "blocked-now.cz",
      "canceled-block.cz",
      "expired-long-ago.cz",
      "future-block.cz",
      "new-one.cz",
      "no-nsset.cz",
    ];
    // No domain has both, so every one lacks at least one of them.
    expect(await names({ type: "domain", states: "serverBlocked,outzone", mode: "not" })).toEqual(domains);
    expect(await names({ type: "domain", states: "serverBlocked,outzone", mode: "not", state_match: "any" })).toEqual(
      domains.filter((n) => !["blocked-now.cz", "expired-long-ago.cz", "no-nsset.cz"].includes(n)),
    );
  });

  it("all-of and any-of", async () => {
    expect(await names({ states: "expired,outzone" })).toEqual(["expired-long-ago.cz"]);
    expect(await names({ states: "serverBlocked,nssetMissing", state_match: "any" })).toEqual(["blocked-now.cz", "no-nsset.cz"]);
  });

  it("pending requests and requests for a state starting in a range (canceled ones do not count)", async () => {
    expect(await names({ pending: "1" })).toEqual(["future-block.cz"]);
    expect(await names({ request_state: "serverBlocked", request_from: "2025-01-01", request_to: "2026-01-01" })).toEqual([
      "blocked-last-year.cz",
    ]);
    expect(await names({ request_state: "serverBlocked", request_from: "2026-11-01" })).toEqual(["future-block.cz"]);
  });

  it("a name with its trailing dot, and an object's ROID (FRED's shape, any case), with the other filters kept", async () => {
    expect(await names({ q: "blocked-now.cz." })).toEqual(["blocked-now.cz"]);
    expect(await names({ q: "blocked-now.cz.", states: "outzone" })).toEqual([]);
    await db.sql.query("UPDATE object_registry SET roid = 'D0000000777-CZ' WHERE name = 'blocked-now.cz'");
    await db.sql.query("UPDATE object_registry SET roid = 'D0000000778-CZ' WHERE name = 'deleted.cz'");
    expect(await names({ q: "D0000000777-CZ" })).toEqual(["blocked-now.cz"]);
    expect(await names({ q: "d0000000777-cz", states: "serverBlocked" })).toEqual(["blocked-now.cz"]);
    expect(await names({ q: "D0000000777-CZ", states: "outzone" })).toEqual([]);
    expect(await names({ q: "D0000000777-CZ", type: "contact" })).toEqual([]);
    // A deleted object's ROID: only where deleted objects are listed.
    expect(await names({ q: "D0000000778-CZ" })).toEqual([]);
    expect(await names({ q: "D0000000778-CZ", deleted: "include" })).toEqual(["deleted.cz"]);
    expect(await names({ q: "D0000000779-CZ" })).toEqual([]);
  });

  it("name, registrar, dates and deleted objects", async () => {
    expect(await names({ q: "BLOCK", match: "contains", type: "domain" })).toEqual([
      "blocked-last-year.cz",
      "blocked-now.cz",
      "canceled-block.cz",
      "future-block.cz",
    ]);
    expect(await names({ q: "blocked-", match: "prefix" })).toEqual(["blocked-last-year.cz", "blocked-now.cz"]);
    expect(await names({ q: "_", match: "contains" })).toEqual(["OLD_ONE"]);
    expect(await names({ registrar: "REG-OTHER" })).toEqual(["expired-long-ago.cz"]);
    expect(await names({ created_from: "2026-10-01" })).toEqual(["new-one.cz"]);
    expect(await names({ expires_from: "2026-01-01", expires_to: "2026-02-01" })).toEqual(["expired-long-ago.cz"]);
    expect(await names({ deleted: "only" })).toEqual(["deleted.cz"]);
    expect(await names({ deleted: "include", q: "deleted" })).toEqual(["deleted.cz"]);
    expect(await names({ q: "deleted" })).toEqual([]);
  });
});

describe("the form a forecast list is asked in", () => {
  const probe = { trusted: true, k: 34_000, m: 3_400 };
  it("asks a rare forecast as one set, a commoner one as the page walks, a common one object by object", () => {
    expect(chooseForecastForm({ ...probe, n: 120 })).toBe("set");
    expect(chooseForecastForm({ ...probe, n: 3_399 })).toBe("set");
    expect(chooseForecastForm({ ...probe, n: 3_400 })).toBe("walk");
    expect(chooseForecastForm({ ...probe, n: 33_999 })).toBe("walk");
    expect(chooseForecastForm({ ...probe, n: 34_000 })).toBe("object");
  });
  it("asks it as one set when the stored plan is not trusted or there is no probe", () => {
    expect(chooseForecastForm({ ...probe, trusted: false, n: 34_000 })).toBe("set");
    expect(chooseForecastForm({ ...probe, trusted: false, n: null })).toBe("set");
    expect(chooseForecastForm(undefined)).toBe("set");
  });
});
