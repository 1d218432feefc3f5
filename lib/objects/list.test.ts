import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../prisma/demo/load";
import { testBackends } from "../../testing/databases";
import { actAs, anonymous, signedInAs } from "../../testing/sessions";
import { english, render } from "../actions/message";
import { AccessError } from "../auth/guard";
import type { Database } from "../db/client";
import type { SqlDriver } from "../db/driver";
import { getLocale } from "../i18n/server";
import { COUNT_FLOOR, COUNT_LIMIT, countMatches, NAME_COUNT_LIMIT } from "./count";
import { csvField, exportObjects } from "./export";
import { noFilter, type ObjectFilter } from "./filter";
import { listObjects, type ObjectListPage } from "./list";
import { forecastFormOf, nameReading } from "./list-plan";
import { countMatching, objectsMatching } from "./matching";

/** An object filter with nothing chosen but `choices`. */
const filterWith = (choices: Partial<ObjectFilter>): ObjectFilter => ({ ...noFilter(), ...choices });

describe.each(testBackends())("object list on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let live: number;
  let list: typeof listObjects;
  let exportAs: typeof exportObjects;

  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
    await seedDemo(db.direct, { domains: 150, seed: 5, now: new Date("2026-11-22T10:00:00Z"), timeZone: "Europe/Prague" });
    [{ live }] = await db.sql.query<{ live: number }>("SELECT count(*)::int AS live FROM object_registry WHERE erdate IS NULL");
    const support = await signedInAs(db, "support");
    list = (params) => actAs(support, () => listObjects(params));
    exportAs = (params, batch) => actAs(support, () => exportObjects(params, batch));
  });
  afterAll(() => drop());

  /** Every page from the first with Next, or from the last with Previous. */
  async function walk(params: Record<string, string>, direction: "next" | "previous"): Promise<ObjectListPage[]> {
    const pages = [await list({ ...params, ...(direction === "previous" ? { last: "1" } : {}) })];
    for (;;) {
      const cursor = pages.at(-1)?.[direction];
      if (!cursor) return pages;
      pages.push(await list({ ...params, [direction === "next" ? "after" : "before"]: cursor }));
      if (pages.length > 1000) throw new Error("paging does not end");
    }
  }

  it("pages forward and back through all live objects in case-insensitive name order, with an exact small total", async () => {
    const byName = await db.sql.query<{ id: number }>("SELECT id FROM object_registry WHERE erdate IS NULL ORDER BY lower(name), id");
    const forward = await walk({ size: "25" }, "next");
    expect(forward[0]).toMatchObject({ total: live, atLeast: false, atStart: true, previous: null, pageSize: 25 });
    expect(forward.at(-1)).toMatchObject({ atEnd: true, next: null });
    expect(forward.flatMap((p) => p.rows.map((r) => r.id))).toEqual(byName.map((r) => r.id));
    expect(forward.slice(0, -1).every((p) => p.rows.length === 25)).toBe(true);

    const backward = await walk({ size: "25" }, "previous");
    expect(backward[0].atEnd).toBe(true);
    expect(backward.at(-1)?.atStart).toBe(true);
    expect(
      backward
        .reverse()
        .flatMap((p) => p.rows.map((r) => r.id))
        .slice(-live),
    ).toEqual(byName.map((r) => r.id).slice(-live));
    // The last page holds the last 25 rows, in list order.
    expect(backward.at(-1)?.rows.map((r) => r.id)).toEqual(byName.slice(-25).map((r) => r.id));
    expect(forward[0].rows.every((r) => r.sponsoringRegistrar?.startsWith("REG-"))).toBe(true);
  });

  it("lists an object as soon as it is created and not once it is deleted: the list's copy of the keys follows object_registry", async () => {
    // console.object_key (issue 40): the list's indexes are on the console's copy, kept by its trigger here.
    const [{ id }] = await db.sql.query<{ id: number }>(
      "INSERT INTO object_registry (roid, type, name, crid) VALUES ('C-RSC-KEYS', 1, 'RSC-KEYS-NEW', 1) RETURNING id",
    );
    try {
      expect((await list({ q: "rsc-keys" })).rows.map((r) => r.id)).toEqual([id]);
      await db.sql.query("UPDATE object_registry SET erdate = now() AT TIME ZONE 'UTC' WHERE id = $1", [id]);
      expect((await list({ q: "rsc-keys" })).rows).toEqual([]);
      expect((await list({ q: "rsc-keys", deleted: "only" })).rows.map((r) => r.id)).toEqual([id]);
      // And no index of the console's on object_registry or domain, which FRED rewrites in its commands.
      const indexes = await db.sql.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE i.indrelid IN ('public.object_registry'::regclass, 'public.domain'::regclass) AND c.relname LIKE 'console%'
            AND c.relname <> 'console_domain_keyset_idx'`,
      );
      expect(indexes).toEqual([]);
    } finally {
      await db.sql.query("DELETE FROM object_registry WHERE id = $1", [id]);
    }
  });

  it("sorts domains by expiration and objects by creation time, both directions, with keyset pages", async () => {
    const byExpiry = await db.sql.query<{ id: number }>(
      "SELECT o.id FROM object_registry o JOIN domain d ON d.id = o.id WHERE o.erdate IS NULL ORDER BY d.exdate DESC, o.id DESC",
    );
    const pages = await walk({ type: "domain", sort: "-expires", size: "25" }, "next");
    expect(pages.flatMap((p) => p.rows.map((r) => r.id))).toEqual(byExpiry.map((r) => r.id));
    const expires = pages.flatMap((p) => p.rows.map((r) => r.expires as string));
    expect([...expires].sort().reverse()).toEqual(expires);

    const byCreation = await db.sql.query<{ id: number }>("SELECT id FROM object_registry WHERE erdate IS NULL ORDER BY crdate, id");
    const created = await walk({ sort: "created", size: "100" }, "next");
    expect(created.flatMap((p) => p.rows.map((r) => r.id))).toEqual(byCreation.map((r) => r.id));
    expect(created[0].sort).toEqual({ key: "created", desc: false });
  });

  it("filters by a type read from the database", async () => {
    const domains = await list({ type: "domain", size: "100" });
    expect(domains.types).toEqual(["contact", "nsset", "domain", "keyset"]);
    expect(domains.total).toBe(150);
    expect(domains.rows.every((r) => r.type === "domain")).toBe(true);
  });

  it("falls back to defaults with a notice for each bad URL value", async () => {
    const result = await list({
      page: "'; DROP TABLE domain; --",
      size: "100000",
      type: "registrar",
      sort: "-exdate",
      after: "not-a-cursor",
      registrar: "REG-NOBODY",
    });
    expect(result.pageSize).toBe(50);
    expect(result.type).toBeNull();
    expect(result.sort).toEqual({ key: "name", desc: false });
    expect(result.atStart).toBe(true);
    expect(result.filter.registrar).toBeNull();
    expect(result.notices.map(english)).toEqual([
      "Unknown object type “registrar”; showing all types.",
      "There is no registrar “REG-NOBODY”; the registrar filter was left out.",
      "Sort “-exdate” is not one of name, created, expires, from, until (prefix - for descending); sorted by name.",
      "Page size “100000” is not one of 25, 50, 100, 500; showing 50 per page.",
      "Pages are reached with the First, Previous, Next and Last links; the page number in the link was not used.",
      "The page position in the link is damaged or belongs to another sort order; showing the first page.",
    ]);
    expect((await list({ sort: "expires" })).notices.map(english)).toEqual([
      "Only domains expire: choose the domain type to sort by expiration; sorted by name.",
    ]);
    // A parameter the list does not know is named too, never silently dropped.
    expect((await list({ colour: "blue", Type: "domain" })).notices.map(english)).toEqual([
      "“colour, Type” are not filters of this list; they were ignored.",
    ]);
    // A cursor made for another sort order is not used for this one.
    const byCreation = await list({ sort: "created" });
    const mixed = await list({ after: byCreation.next as string });
    expect(mixed.atStart).toBe(true);
    expect(english(mixed.notices[0])).toMatch(/damaged or belongs to another sort order/);
  });

  it("shows the last page, with a notice, for a cursor past the end", async () => {
    const last = await list({ last: "1", size: "25" });
    const lastRow = last.rows.at(-1);
    if (!lastRow) throw new Error("no rows");
    // After the last page's first row: the rest of that page, and nothing further.
    const probe = await list({ size: "25", after: last.previous as string });
    expect(probe.rows.map((r) => r.id)).toEqual(last.rows.slice(1).map((r) => r.id));
    expect(probe).toMatchObject({ atEnd: true, next: null });
    // A cursor at the very last row: nothing after it.
    const lastCursor = Buffer.from(JSON.stringify(["name", lastRow.name.toLowerCase(), lastRow.id])).toString("base64url");
    const beyond = await list({ size: "25", after: lastCursor });
    expect(beyond.notices.map(english)).toEqual(["There are no rows after that point; showing the last page."]);
    expect(beyond.rows.map((r) => r.id)).toEqual(last.rows.map((r) => r.id));
    expect(beyond.atEnd).toBe(true);
  });

  it("filters by a registrar given in any case", async () => {
    const [{ handle, n }] = await db.sql.query<{ handle: string; n: number }>(
      `SELECT rg.handle, count(*)::int AS n FROM object ob JOIN registrar rg ON rg.id = ob.clid
         JOIN object_registry o ON o.id = ob.id WHERE o.erdate IS NULL GROUP BY rg.handle ORDER BY n DESC LIMIT 1`,
    );
    const result = await list({ registrar: handle.toLowerCase(), size: "500" });
    expect(result.filter.registrar).toBe(handle);
    expect(result.total).toBe(n);
    expect(result.rows.every((r) => r.sponsoringRegistrar === handle)).toBe(true);
  });

  it("finds an exact name or handle in any case, and only when it names one live object", async () => {
    const [domain] = await db.sql.query<{ id: number; name: string }>(
      "SELECT id, name FROM object_registry WHERE type = 3 AND erdate IS NULL ORDER BY id LIMIT 1",
    );
    const [contact] = await db.sql.query<{ id: number; name: string }>(
      "SELECT id, name FROM object_registry WHERE type = 1 AND erdate IS NULL ORDER BY id LIMIT 1",
    );
    expect((await list({ q: domain.name.toUpperCase() })).exactMatch).toBe(domain.id);
    expect((await list({ q: contact.name.toLowerCase() })).exactMatch).toBe(contact.id);
    expect((await list({ q: contact.name, type: "domain" })).exactMatch).toBeNull();
    const part = await list({ q: domain.name.slice(1, -1) });
    expect(part.exactMatch).toBeNull();
    expect(part.rows.map((r) => r.id)).toContain(domain.id);
  });

  it("goes straight to an object only from a bare name search: with any other filter (or a notice) the list answers", async () => {
    const [unblocked] = await db.sql.query<{ id: number; name: string }>(
      `SELECT o.id, o.name FROM object_registry o WHERE o.type = 3 AND o.erdate IS NULL
          AND NOT EXISTS (SELECT 1 FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
                           WHERE os.object_id = o.id AND s.name = 'serverBlocked')
        ORDER BY o.id LIMIT 1`,
    );
    const [outzone] = await db.sql.query<{ id: number; name: string }>(
      `SELECT o.id, o.name FROM object_registry o JOIN object_state os ON os.object_id = o.id AND os.valid_to IS NULL
         JOIN enum_object_states s ON s.id = os.state_id AND s.name = 'outzone'
        WHERE o.type = 3 AND o.erdate IS NULL ORDER BY o.id LIMIT 1`,
    );
    expect(unblocked && outzone).toBeTruthy();

    // Bare: the name alone (with a type, a match, a page size): straight to the object.
    expect((await list({ q: unblocked.name })).exactMatch).toBe(unblocked.id);
    expect((await list({ q: unblocked.name, type: "domain", match: "prefix", size: "25" })).exactMatch).toBe(unblocked.id);

    // With a state it does not have, now or at an instant: "0 matching", no jump.
    for (const params of [
      { q: unblocked.name, states: "serverBlocked" },
      { q: unblocked.name, states: "serverBlocked", mode: "at", at: "2026-11-01T12:00" },
      { q: unblocked.name, states: "serverBlocked", mode: "during", from: "2026-01-01", to: "2026-11-01" },
    ]) {
      const result = await list(params);
      expect(result.exactMatch, JSON.stringify(params)).toBeNull();
      expect(result.total, JSON.stringify(params)).toBe(0);
      expect(result.rows, JSON.stringify(params)).toEqual([]);
      expect(result.filter.state?.mode, JSON.stringify(params)).toBe(params.mode ?? "now");
    }
    // With one it has: the object, in the list.
    const has = await list({ q: outzone.name, states: "outzone" });
    expect(has.exactMatch).toBeNull();
    expect(has.rows.map((r) => r.id)).toContain(outzone.id);
    // Any other filter, or a notice the person must read, keeps the list too.
    for (const other of [
      { registrar: "REG-NOBODY-AT-ALL" },
      { size: "7" },
      { colour: "blue" },
      { deleted: "include" },
      { created_from: "2000-01-01" },
      { pending: "1" },
    ])
      expect((await list({ q: unblocked.name, ...other })).exactMatch, JSON.stringify(other)).toBeNull();
  });

  it("finds an object by its ROID as its page shows it (any case, live or deleted) and a name written with its trailing dot", async () => {
    const [domain] = await db.sql.query<{ id: number; name: string; roid: string }>(
      "SELECT id, name, roid FROM object_registry WHERE type = 3 AND erdate IS NULL ORDER BY id LIMIT 1",
    );
    const [{ registrar }] = await db.sql.query<{ registrar: string }>(
      "SELECT r.handle AS registrar FROM object ob JOIN registrar r ON r.id = ob.clid WHERE ob.id = $1",
      [domain.id],
    );
    const [gone] = await db.sql.query<{ id: number; name: string; roid: string }>(
      "SELECT id, name, roid FROM object_registry WHERE erdate IS NOT NULL ORDER BY id LIMIT 1",
    );
    expect(domain.roid).toMatch(/^D\d{10}-CZ$/);
    expect(gone).toBeDefined();
    expect((await list({ q: domain.roid })).exactMatch).toBe(domain.id);
    expect((await list({ q: domain.roid.toLowerCase() })).exactMatch).toBe(domain.id);
    expect((await list({ q: domain.roid, type: "domain" })).exactMatch).toBe(domain.id);
    expect((await list({ q: domain.roid, type: "contact" })).exactMatch).toBeNull();
    expect((await list({ q: gone.roid })).exactMatch).toBe(gone.id);
    expect((await list({ q: "D9999999999-CZ" })).exactMatch).toBeNull();
    // Not jumping (other filters), the list shows it: one match.
    const listed = await list({ q: domain.roid, type: "domain", registrar });
    expect(listed.exactMatch).toBeNull();
    expect(listed.rows.map((r) => r.id)).toEqual([domain.id]);
    expect(listed.total).toBe(1);
    expect((await list({ q: gone.roid, deleted: "only" })).rows.map((r) => r.id)).toEqual([gone.id]);

    expect((await list({ q: `${domain.name}.` })).exactMatch).toBe(domain.id);
    expect((await list({ q: `${domain.name.toUpperCase()}.` })).exactMatch).toBe(domain.id);
    expect((await list({ q: `${domain.name}.`, registrar })).rows.map((r) => r.id)).toContain(domain.id);
    // What a bulk change of that filter would take: the same object.
    const filter = { q: domain.roid, type: "domain" };
    expect(await countMatching(db.sql, filter, 10)).toMatchObject({ count: 1, more: false, notices: [] });
    expect((await objectsMatching(db.sql, filter, 10)).objects).toEqual([{ id: domain.id, name: domain.name }]);
  });

  it("filters by a state held now and shows each row's current states and pending requests", async () => {
    const [{ outzone }] = await db.sql.query<{ outzone: number }>(
      `SELECT count(*)::int AS outzone FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
        JOIN object_registry o ON o.id = os.object_id WHERE s.name = 'outzone' AND os.valid_to IS NULL AND o.erdate IS NULL`,
    );
    const result = await list({ states: "outzone", type: "domain", size: "500" });
    expect(outzone).toBeGreaterThan(0);
    expect(result.total).toBe(outzone);
    expect(result.rows.every((r) => r.states.includes("outzone") && r.expires !== null)).toBe(true);
    const pending = await list({ pending: "1", size: "500" });
    expect(pending.rows.length).toBeGreaterThan(0);
    expect(pending.rows.every((r) => r.pendingRequests > 0)).toBe(true);
    // The catalogue travels with the page, read from the database.
    const outzoneInfo = result.states.find((s) => s.name === "outzone");
    expect(outzoneInfo).toMatchObject({ manual: false, types: ["domain"] });
    expect(outzoneInfo?.description).toMatch(/zone/i);
  });

  it("describes the states in the reader's language, else in English", async () => {
    const support = await signedInAs(db, "support");
    const czech = await actAs({ ...support, locale: "cs" }, () => listObjects({ type: "domain", size: "25" }));
    expect(czech.states.find((s) => s.name === "outzone")?.description).toBe("Doména není generována do zóny");
    expect((await list({ type: "domain", size: "25" })).states.find((s) => s.name === "outzone")?.description).toBe(
      "The domain isn't generated in the zone",
    );
    await db.sql.query("INSERT INTO enum_object_states (id, name, types, manual, external) VALUES (90, 'englishOnly', '{3}', true, false)");
    await db.sql.query("INSERT INTO enum_object_states_desc (state_id, lang, description) VALUES (90, 'EN', 'Described in English only')");
    try {
      const fallback = await actAs({ ...support, locale: "cs" }, () => listObjects({ type: "domain", size: "25" }));
      expect(fallback.states.find((s) => s.name === "englishOnly")?.description).toBe("Described in English only");
    } finally {
      await db.sql.query("DELETE FROM enum_object_states_desc WHERE state_id = 90");
      await db.sql.query("DELETE FROM enum_object_states WHERE id = 90");
    }
  });

  it("says its notices in the reader's language: the same English as before, Czech for a Czech request", async () => {
    const support = await signedInAs(db, "support");
    const params = { page: "-3", size: "abc", type: "zone", states: "outzone,bogus", mode: "at", at: "2026-02-30", after: "xyz" };
    // What the page shows: the notices put into the request's language.
    const shown = (context: typeof support) =>
      actAs(context, async () => {
        const page = await listObjects(params);
        const locale = await getLocale();
        return page.notices.map((notice) => render(notice, locale));
      });
    expect(await shown(support)).toEqual([
      "Unknown object type “zone”; showing all types.",
      "Unknown state “bogus”; it was left out of the state filter.",
      "The instant “2026-02-30” is not a date or time (use YYYY-MM-DD or YYYY-MM-DDTHH:MM); it was left out.",
      "“had at” needs an instant; showing who has the states now.",
      "Page size “abc” is not one of 25, 50, 100, 500; showing 50 per page.",
      "Pages are reached with the First, Previous, Next and Last links; the page number in the link was not used.",
      "The page position in the link is damaged or belongs to another sort order; showing the first page.",
    ]);
    expect(await shown({ ...support, locale: "cs" })).toEqual([
      "Neznámý typ objektu „zone“; zobrazují se všechny typy.",
      "Neznámý stav „bogus“; byl vynechán z filtru stavů.",
      "Okamžik: „2026-02-30“ není datum ani čas (použijte RRRR-MM-DD nebo RRRR-MM-DDTHH:MM); filtr byl vynechán.",
      "Volba „měl v okamžiku“ vyžaduje okamžik; zobrazují se objekty, které mají stavy nyní.",
      "Velikost stránky „abc“ není jednou z 25, 50, 100, 500; zobrazuje se 50 řádků na stránku.",
      "Stránky se procházejí odkazy První, Předchozí, Další a Poslední; číslo stránky v odkazu nebylo použito.",
      "Pozice stránky v odkazu je poškozená nebo patří k jinému řazení; zobrazuje se první stránka.",
    ]);
  });

  it("exports the whole filtered result as CSV in list order, in batches, and audits the export", async () => {
    const params = { type: "domain", sort: "-expires" };
    const pages = await walk({ ...params, size: "500" }, "next");
    const rows = pages.flatMap((p) => p.rows);
    const result = await exportAs(params, 40);
    expect(result).toMatchObject({ total: 150, atLeast: false });
    let text = "";
    let chunks = 0;
    for await (const chunk of result.chunks) {
      text += chunk;
      chunks++;
    }
    expect(chunks).toBe(1 + Math.ceil(150 / 40));
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe("id,name,type,sponsoring_registrar,created,expires,states,pending_requests");
    expect(lines).toHaveLength(151);
    expect(lines.slice(1).map((line) => Number(line.split(",")[0]))).toEqual(rows.map((r) => r.id));
    const first = rows[0];
    expect(lines[1]).toBe(
      [
        first.id,
        first.name,
        "domain",
        first.sponsoringRegistrar,
        first.created,
        first.expires,
        first.states.join(" "),
        first.pendingRequests,
      ].join(","),
    );
    const [entry] = await db.sql.query<{ input: { total: number; filter: { type: number } } }>(
      "SELECT input FROM console.audit_log WHERE action = 'objects.export' ORDER BY id DESC LIMIT 1",
    );
    expect(entry.input.total).toBe(150);
  });

  it("refuses to list or export without a session", async () => {
    await expect(actAs(anonymous(db), () => listObjects({}))).rejects.toBeInstanceOf(AccessError);
    await expect(actAs(anonymous(db), () => exportObjects({}))).rejects.toBeInstanceOf(AccessError);
  });

  it("counts exactly within the budget, and past it shows only a bound that was counted, never the estimate", async () => {
    const request = { filter: filterWith({ type: 3 }) };
    // A budget no busy machine runs out of: this test is about what is shown past it, not about the time.
    expect(await countMatches(db.sql, request, new Date(), 10_000)).toEqual({ total: 150, atLeast: false });
    // Every count the statement timeout cancels (as PostgreSQL reports it): no number at all.
    const timedOut = () => Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" });
    const slow: SqlDriver = {
      ...db.sql,
      location: `mock-${randomUUID()}`, // its own: counted bounds are kept per database
      transaction: async () => {
        throw timedOut();
      },
    };
    expect(await countMatches(slow, request, new Date())).toEqual({ total: 0, atLeast: true });
    // The whole count cut off, the bounded ones not: the bound counted (LIMIT in the statement).
    const statements: string[] = [];
    const boundedOnly: SqlDriver = {
      ...db.sql,
      location: `mock-${randomUUID()}`, // its own: counted bounds are kept per database
      transaction: (async (work: Parameters<SqlDriver["transaction"]>[0]) =>
        db.sql.transaction((tx) =>
          work({
            ...tx,
            query: (async (sql: string, params?: unknown[]) => {
              if (sql.startsWith("SELECT count(*)")) {
                statements.push(sql);
                if (!/LIMIT \d+\) x$/.test(sql)) throw timedOut();
              }
              return tx.query(sql, params);
            }) as typeof tx.query,
          }),
        )) as SqlDriver["transaction"],
    };
    expect(await countMatches(boundedOnly, request, new Date(), 10_000)).toEqual({ total: 150, atLeast: false });
    // The floor first: 150 of at most 1,001 is the whole count.
    expect(statements.map((sql) => /LIMIT (\d+)\) x$/.exec(sql)?.[1] ?? "all")).toEqual(["all", String(COUNT_FLOOR + 1)]);
  });

  it("gives all its count attempts one budget, and plans the bounded ones to start fast", async () => {
    const request = { filter: filterWith({ type: 3 }) };
    const timeouts: number[] = [];
    const settings: string[] = [];
    // Every count runs to its statement timeout and is canceled there, as on a registry too large to count.
    const slow: SqlDriver = {
      ...db.sql,
      location: `mock-${randomUUID()}`, // its own: counted bounds are kept per database
      transaction: (async (work: Parameters<SqlDriver["transaction"]>[0]) =>
        work({
          query: (async (sql: string, params?: unknown[]) => {
            if (sql.includes("statement_timeout")) timeouts.push(Number(params?.[0]));
            else if (sql.includes("set_config")) settings.push(sql);
            if (sql.startsWith("SELECT count(*)")) {
              await new Promise((resolve) => setTimeout(resolve, timeouts.at(-1)));
              throw Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" });
            }
            return [];
          }) as SqlDriver["query"],
        } as never)) as SqlDriver["transaction"],
    };
    expect(await countMatches(slow, request, new Date(), 40)).toEqual({ total: 0, atLeast: true });
    expect(timeouts.length).toBeGreaterThan(0);
    expect(timeouts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(40);
    // Only bounded counts switch to a fast-start plan; the whole count keeps the planner's choice.
    expect(settings.length).toBe(timeouts.length - 1);
    expect(settings.every((sql) => sql.includes("enable_mergejoin") && sql.includes("jit"))).toBe(true);
  });

  /**
   * db's reads as on a registry of millions: the planner expects 5 million matches, and a count
   * finds 2 million, or its LIMIT; every count statement is recorded in `statements`.
   */
  const millions = (statements: string[]): SqlDriver => ({
    ...db.sql,
    location: `mock-${randomUUID()}`, // its own: counted bounds are kept per database
    query: (async (sql: string, params?: unknown[]) =>
      sql.startsWith("EXPLAIN")
        ? [{ "QUERY PLAN": [{ Plan: { "Plan Rows": 5_000_000 } }] }]
        : db.sql.query(sql, params)) as SqlDriver["query"],
    transaction: (async (work: Parameters<SqlDriver["transaction"]>[0]) => {
      let limit = Number.POSITIVE_INFINITY;
      await work({
        query: (async (sql: string) => {
          if (sql.startsWith("SELECT count(*)")) {
            statements.push(sql);
            limit = Number(/LIMIT (\d+)\) x$/.exec(sql)?.[1] ?? Number.POSITIVE_INFINITY);
          }
          return [{ n: 0 }];
        }) as SqlDriver["query"],
      } as never);
      return Math.min(2_000_000, limit);
    }) as SqlDriver["transaction"],
  });

  it("shows a counted bound again for a minute without counting, but counts exact totals and 'count them all' every time", async () => {
    const statements: string[] = [];
    const counting = millions(statements);
    const request = { filter: filterWith({ type: 3 }) };
    expect(await countMatches(counting, request, new Date())).toEqual({ total: COUNT_LIMIT, atLeast: true });
    const first = statements.length;
    expect(first).toBe(2);
    // The next page of the same list: the bound again, not counted again.
    expect(await countMatches(counting, request, new Date())).toEqual({ total: COUNT_LIMIT, atLeast: true });
    expect(statements).toHaveLength(first);
    // So too a list across now asked again a second later (its SQL holds the request's now).
    const [from, to] = [new Date(Date.now() - 3_600_000), new Date(Date.now() + 86_400_000)];
    const forecast = {
      filter: filterWith({ state: { states: [15], match: "any", mode: "entered", from, to } as ObjectFilter["state"] }),
    };
    await countMatches(counting, forecast, new Date());
    const counted = statements.length;
    expect(counted).toBeGreaterThan(first);
    expect(await countMatches(counting, forecast, new Date(Date.now() + 1000))).toEqual({ total: COUNT_LIMIT, atLeast: true });
    expect(statements).toHaveLength(counted);
    // Another filter is counted; asking for all counts in full.
    await countMatches(counting, { filter: filterWith({ type: 1 }) }, new Date());
    expect(statements.length).toBeGreaterThan(first);
    const before = statements.length;
    expect(await countMatches(counting, request, new Date(), undefined, true)).toEqual({ total: 2_000_000, atLeast: false });
    expect(statements).toHaveLength(before + 1);
  });

  it("does not count all of a 'contains' name search the planner expects more than NAME_COUNT_LIMIT matches of", async () => {
    const counted: string[] = [];
    // The planner's estimate, as a registry of millions would give it; the counts are recorded.
    const large = (matches: number): SqlDriver => ({
      ...db.sql,
      location: `mock-${randomUUID()}`, // its own: counted bounds are kept per database
      query: (async (sql: string, params?: unknown[]) =>
        sql.startsWith("EXPLAIN")
          ? [{ "QUERY PLAN": [{ Plan: { "Plan Rows": NAME_COUNT_LIMIT * 2 } }] }]
          : db.sql.query(sql, params)) as SqlDriver["query"],
      transaction: (async (work: Parameters<SqlDriver["transaction"]>[0]) => {
        let limit: number | null = null;
        await work({
          query: (async (sql: string) => {
            if (sql.startsWith("SELECT count(*)")) limit = Number(/LIMIT (\d+)\) x$/.exec(sql)?.[1] ?? Number.POSITIVE_INFINITY);
            return [{ n: 0 }];
          }) as SqlDriver["query"],
        } as never);
        counted.push(String(limit));
        return Math.min(matches, limit ?? matches);
      }) as SqlDriver["transaction"],
    });
    const search = (match: "contains" | "prefix") => ({ filter: filterWith({ name: { text: "praha", match } }) });
    // 19,400 match: "more than 10,000", counted with LIMIT 10,001, not the estimate of 20,000.
    expect(await countMatches(large(19_400), search("contains"), new Date())).toEqual({ total: NAME_COUNT_LIMIT, atLeast: true });
    expect(counted).toEqual([String(COUNT_FLOOR + 1), String(NAME_COUNT_LIMIT + 1)]);
    // Fewer than the estimate said: the bounded count is exact.
    counted.length = 0;
    expect(await countMatches(large(7_000), search("contains"), new Date())).toEqual({ total: 7_000, atLeast: false });
    // A prefix search (the name index) is counted in full at that size.
    counted.length = 0;
    expect(await countMatches(large(19_400), search("prefix"), new Date())).toEqual({ total: 19_400, atLeast: false });
    expect(counted).toEqual(["Infinity"]);
    // Asked for all: counted in full.
    counted.length = 0;
    expect(await countMatches(large(19_400), search("contains"), new Date(), undefined, true)).toEqual({ total: 19_400, atLeast: false });
    expect(counted).toEqual(["Infinity"]);
  });

  it("reads the matches of a 'contains' search first only when it counted few of them, else walks the name order (a search by name alone)", async () => {
    // The fixture registry's 150 domains all end in ".cz"; no name holds "zzzq".
    const contains = (text: string, more: Partial<ObjectFilter> = {}) => filterWith({ name: { text, match: "contains" }, ...more });
    // What it counted is the list's count: "more than 5", or all of them.
    expect(await nameReading(db.sql, contains(".cz"), 5)).toEqual({
      nameFirst: false,
      nameWalk: true,
      nameCount: { total: 5, atLeast: true },
    });
    const all = await nameReading(db.sql, contains(".cz"), 10_000);
    expect(all).toMatchObject({ nameFirst: true, nameWalk: false, nameCount: { atLeast: false } });
    expect(all.nameCount?.total).toBeGreaterThan(100);
    expect((await list({ q: ".cz", match: "contains", jump: "no" })).total).toBe(all.nameCount?.total);
    expect(await nameReading(db.sql, contains("zzzq"), 5)).toEqual({
      nameFirst: true,
      nameWalk: false,
      nameCount: { total: 0, atLeast: false },
    });
    // With another condition the page keeps the planner's own plan.
    expect(await nameReading(db.sql, contains(".cz", { registrarId: 1 }), 5)).toEqual({ nameFirst: false, nameWalk: false });
    // A count that runs out of its time counts as many.
    let probes = 0;
    const slow: SqlDriver = {
      ...db.sql,
      location: `mock-${randomUUID()}`, // its own: probes' bounds are kept per database
      transaction: (async () => {
        probes++;
        throw Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" });
      }) as SqlDriver["transaction"],
    };
    expect(await nameReading(slow, contains("zzzq"), 5)).toEqual({ nameFirst: false, nameWalk: true });
    // ... and is not probed again for a minute.
    expect(await nameReading(slow, contains("zzzq"), 5)).toEqual({ nameFirst: false, nameWalk: true });
    expect(probes).toBe(1);
    // With another condition the probe is not the list's count.
    expect((await nameReading(db.sql, contains("zzzq", { registrarId: 1 }), 5)).nameCount).toBeUndefined();
    // Too short for the trigram index: the walk, as always.
    expect(await nameReading(db.sql, contains("cz"), 5)).toEqual({ nameFirst: false });
  });

  /** db's reads with every count recorded, and canceled by its timeout when `cancel` says so. */
  const recording = (statements: string[], cancel: (sql: string) => boolean = () => false): SqlDriver => ({
    ...db.sql,
    location: `mock-${randomUUID()}`, // its own: bounds and probes are kept per database
    transaction: (async (work: Parameters<SqlDriver["transaction"]>[0]) =>
      db.sql.transaction((tx) =>
        work({
          ...tx,
          query: (async (sql: string, params?: unknown[]) => {
            if (sql.startsWith("SELECT count(*)")) {
              statements.push(sql);
              if (cancel(sql)) throw Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" });
            }
            return tx.query(sql, params);
          }) as typeof tx.query,
        }),
      )) as SqlDriver["transaction"],
  });

  it("keeps a 'contains' probe's bound for a minute, but probes a search it can count exactly every time", async () => {
    const probes: string[] = [];
    const reads = recording(probes);
    const contains = (text: string) => filterWith({ name: { text, match: "contains" } });
    const common = await nameReading(reads, contains(".cz"), 5);
    expect(common).toEqual({ nameFirst: false, nameWalk: true, nameCount: { total: 5, atLeast: true } });
    expect(await nameReading(reads, contains(".cz"), 5)).toEqual(common);
    expect(probes).toHaveLength(1);
    // Few matches: an exact count, the list's own, probed again.
    await nameReading(reads, contains("zzzq"), 5);
    await nameReading(reads, contains("zzzq"), 5);
    expect(probes).toHaveLength(3);
  });

  it("keeps a counted bound ('more than 100,000') only for the filter it was counted for, not for its shape", async () => {
    const statements: string[] = [];
    const counting = millions(statements);
    const now = new Date();
    const request = (at: Date) => ({
      filter: filterWith({ state: { states: [15], match: "any", mode: "at", at: new Date(at.getTime() + 86_400_000) } }),
    });
    expect(await countMatches(counting, request(now), now)).toEqual({ total: COUNT_LIMIT, atLeast: true });
    const counted = statements.length;
    // The same shape 5 s later: a bound is a claim about its own filter, so it is counted again.
    const later = new Date(now.getTime() + 5_000);
    expect(await countMatches(counting, request(later), later)).toEqual({ total: COUNT_LIMIT, atLeast: true });
    expect(statements.length).toBeGreaterThan(counted);
  });

  it("keeps the plan's figures behind a forecast's form for a minute, but asks every time whether the plan is trusted", async () => {
    const asked: string[] = [];
    let trusted = true;
    // The plan's figures for "entering outzone in the coming week" at 1.5 million domains (k, m, n).
    const planned: SqlDriver = {
      ...db.sql,
      location: `mock-${randomUUID()}`, // its own: figures are kept per database
      query: (async (sql: string) => {
        asked.push(sql.includes("FROM console.state_plan f") ? "figures" : "trust");
        return [sql.includes("FROM console.state_plan f") ? { trusted, k: 27_386, m: 2_739, n: 5_057 } : { trusted }];
      }) as SqlDriver["query"],
    };
    const now = new Date();
    const request = (at: Date) => ({
      filter: filterWith({
        type: 3,
        state: { states: [15], match: "any", mode: "entered", from: at, to: new Date(at.getTime() + 7 * 86_400_000) },
      }),
      sort: { key: "name" as const, desc: false },
    });
    expect(await forecastFormOf(planned, request(now), now)).toEqual({ forecastForm: "walk", planTrusted: true });
    // The same filter seconds later: the figures are kept, the trust is asked again.
    const later = new Date(now.getTime() + 5_000);
    expect(await forecastFormOf(planned, request(later), later)).toEqual({ forecastForm: "walk", planTrusted: true });
    expect(asked).toEqual(["figures", "trust"]);
    // The plan is no longer trusted (the registry left charge): its kept figures choose nothing.
    trusted = false;
    expect(await forecastFormOf(planned, request(later), later)).toEqual({ forecastForm: "set", planTrusted: false });
    expect(asked).toEqual(["figures", "trust", "trust"]);
  });

  it("has the causes of a change ahead planned with the page, not called for each row", async () => {
    const plan = (
      await db.sql.query<{ "QUERY PLAN": string }>(
        `EXPLAIN SELECT (SELECT jsonb_agg(c.code ORDER BY c.n) FROM console.state_change_causes(o.id, 15, now(), true) c)
         FROM object_registry o LIMIT 1`,
      )
    )
      .map((row) => row["QUERY PLAN"])
      .join("\n");
    expect(plan).not.toMatch(/Function Scan on state_change_causes/);
    expect(plan).toMatch(/object_state_request/);
  });

  it("counts a forecast the page walks as a join with the forecast's set, and says 'many' for a minute to the same filter asked from a later now", async () => {
    const statements: string[] = [];
    // Every count runs out of its budget: the registry is too large to count.
    const reads = recording(statements, () => true);
    const now = new Date();
    const entering = (from: Date, days = 7) =>
      filterWith({
        type: 3,
        state: { states: [15], match: "any", mode: "entered", from, to: new Date(from.getTime() + days * 86_400_000) },
      });
    const request = (at: Date, days?: number) => ({
      filter: entering(new Date(at.getTime() + 60_000), days),
      forecastForm: "walk" as const,
    });
    expect(await countMatches(reads, request(now), now)).toEqual({ total: 0, atLeast: true });
    expect(statements.length).toBeGreaterThan(0);
    for (const sql of statements) {
      expect(sql).toContain("o.id IN (SELECT f.object_id FROM console.state_forecast(");
      expect(sql).not.toContain("IS TRUE");
    }
    // The same list opened 5 s later: its instants are new, its shape is not; "many" without counting.
    const counted = statements.length;
    const later = new Date(now.getTime() + 5_000);
    expect(await countMatches(reads, request(later), later)).toEqual({ total: 0, atLeast: true });
    expect(statements).toHaveLength(counted);
    // Another window (8 days, not 7) is counted.
    await countMatches(reads, request(later, 8), later);
    expect(statements.length).toBeGreaterThan(counted);
  });
});

describe("CSV fields", () => {
  it("quotes separators and quotes, and defuses spreadsheet formulas", () => {
    expect(csvField("plain.cz")).toBe("plain.cz");
    expect(csvField('say "hi", then')).toBe('"say ""hi"", then"');
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField("-1+2")).toBe("'-1+2");
    expect(csvField(null)).toBe("");
    expect(csvField(42)).toBe("42");
  });
});
