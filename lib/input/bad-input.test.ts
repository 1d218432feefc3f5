import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../prisma/demo/load";
import { testBackends } from "../../testing/databases";
import { actAs, signedInAs } from "../../testing/sessions";
import { english, type Message, render } from "../actions/message";
import { listAudit } from "../audit/query";
import type { RequestContext } from "../auth/request-context";
import type { Database } from "../db/client";
import { objectIdByName } from "../objects/detail";
import { listObjects } from "../objects/list";
import { listRequests, PHASE_SQL } from "../requests/read";

// Bad values in page URLs that PostgreSQL would refuse (a day not on the calendar, an integer out of
// range, a NUL character): each is a notice on a page that still works, and nothing is written.
const cursor = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString("base64url");
const NUL_NOTICE = (name: string) =>
  `“${name}” in the address holds a NUL character (%00), which no name, id or date has; it was left out.`;

describe.each(testBackends())("bad URL values on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let admin: RequestContext;
  let writes: () => Promise<unknown[]>;
  let before: unknown[];

  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
    await seedDemo(db.direct, { domains: 120, seed: 3, now: new Date("2026-11-22T10:00:00Z"), timeZone: "Europe/Prague" });
    admin = await signedInAs(db, "admin");
    writes = () =>
      db.sql.query(
        `SELECT (SELECT count(*)::int FROM console.audit_log) AS audit, (SELECT count(*)::int FROM object_state_request) AS requests,
                (SELECT count(*)::int FROM object_state) AS history`,
      );
    before = await writes();
  });
  afterAll(async () => {
    // Reading with bad values wrote nothing.
    expect(await writes()).toEqual(before);
    await drop();
  });

  const as = <T>(work: () => Promise<T>) => actAs(admin, work);
  const said = (notices: Message[]) => notices.map(english);

  it("requests: a cursor with a day that is not on the calendar or an id out of range gives the first page and says why", async () => {
    const first = await as(() => listRequests({}));
    expect(first.rows.length).toBeGreaterThan(0);
    const badDay = await as(() => listRequests({ after: "2026-13-45T99:99:99.000Z_1" }));
    expect(said(badDay.notices)).toEqual([
      "The page position in the link is damaged: “2026-13-45T99:99:99.000Z” is not a real date and time; showing the first page.",
    ]);
    expect(badDay.rows).toEqual(first.rows);
    const badId = await as(() => listRequests({ after: "2026-11-20T10:00:00.000Z_99999999999999" }));
    expect(said(badId.notices)).toEqual([
      "The page position in the link is damaged: “99999999999999” is not a row id (a whole number from 1 to 2,147,483,647); showing the first page.",
    ]);
    expect(render(badId.notices[0], "cs")).toBe(
      "Pozice stránky v odkazu je poškozená: „99999999999999“ není ID řádku (celé číslo od 1 do 2\u00a0147\u00a0483\u00a0647); zobrazuje se první stránka.",
    );
    expect(badId.rows).toEqual(first.rows);
    const badRequestId = await as(() => listRequests({ id: "99999999999" }));
    expect(said(badRequestId.notices)).toEqual(["“99999999999” is not a request id (a whole number); all requests are shown."]);
    const nul = await as(() => listRequests({ author: "a\u0000b", object: "x\u0000" }));
    expect(said(nul.notices)).toEqual([NUL_NOTICE("author"), NUL_NOTICE("object")]);
    expect(nul.rows).toEqual(first.rows);
  });

  it("audit log: an object id out of range, NUL characters, a bad page position and a bad date each give a notice", async () => {
    const all = await as(() => listAudit({}));
    const outOfRange = await as(() => listAudit({ object: "99999999999" }));
    expect(said(outOfRange.notices)).toEqual([
      "“99999999999” is not an object id (a whole number from 1 to 2,147,483,647) and no object is named so; the object filter is ignored.",
    ]);
    expect(outOfRange.rows).toEqual(all.rows);
    const nul = await as(() => listAudit({ actor: "a\u0000b", action: "auth\u0000", object: "\u0000" }));
    expect(said(nul.notices)).toEqual([NUL_NOTICE("actor"), NUL_NOTICE("action"), NUL_NOTICE("object")]);
    expect(nul.filters).toMatchObject({ actor: "", action: "", object: "" });
    expect(nul.rows).toEqual(all.rows);
    const page = await as(() => listAudit({ before: "12abc", from: "2026-02-30", to: "2026-11-22T24:00" }));
    expect(said(page.notices)).toEqual([
      "“2026-02-30” is not a date or date and time (YYYY-MM-DD or YYYY-MM-DDTHH:MM); the “from” filter is ignored.",
      "“2026-11-22T24:00” is not a date or date and time (YYYY-MM-DD or YYYY-MM-DDTHH:MM); the “to” filter is ignored.",
      "The page position in the link is damaged (“12abc” is not an entry id); showing the newest entries.",
    ]);
    // A good date and time still filters, in the registry's time zone.
    const since = await as(() => listAudit({ from: "2000-01-01T00:00" }));
    expect(since.notices).toEqual([]);
    expect(since.rows).toEqual(all.rows);
    expect((await as(() => listAudit({ to: "2000-01-01" }))).rows).toEqual([]);
  });

  it("audit log: an action no entry has is named in a notice and ignored", async () => {
    const all = await as(() => listAudit({}));
    const dropped = await as(() => listAudit({ action: "drop.table" }));
    expect(said(dropped.notices)).toEqual(["No entry of the audit log has the action “drop.table”; the action filter is ignored."]);
    expect(render(dropped.notices[0], "cs")).toBe("Žádný záznam auditního logu nemá akci „drop.table“; filtr akce se nepoužije.");
    expect(dropped.filters.action).toBe("");
    expect(dropped.rows).toEqual(all.rows);
    // A part of an action's word is no group ("objects.li" of objects.list).
    expect(said((await as(() => listAudit({ action: "objects.li" }))).notices)).toHaveLength(1);
  });

  it("instants more than 100 years from now are named in a notice and left out, on the audit log and the request list", async () => {
    const allAudit = await as(() => listAudit({}));
    const audit = await as(() => listAudit({ from: "9999-01-01", to: "1900-01-01T00:00" }));
    expect(said(audit.notices)).toEqual([
      expect.stringMatching(
        /^“9999-01-01” is more than 100 years from now \(filters take instants from .+ to .+\); the “from” filter is ignored\.$/,
      ),
      expect.stringMatching(/^“1900-01-01T00:00” is more than 100 years from now .*; the “to” filter is ignored\.$/),
    ]);
    expect(audit.filters).toMatchObject({ from: "", to: "" });
    expect(audit.rows).toEqual(allAudit.rows);
    const allRequests = await as(() => listRequests({}));
    const requests = await as(() => listRequests({ from: "9999-01-01T10:00", to: "2026-12-01" }));
    expect(said(requests.notices)).toEqual([
      expect.stringMatching(
        /^“9999-01-01T10:00” is more than 100 years from now \(filters take instants from .+ to .+\); the period filter was left out\.$/,
      ),
    ]);
    expect(render(requests.notices[0], "cs")).toMatch(/^„9999-01-01T10:00“ je více než 100 let od nynějška/);
    expect(requests.filter).toMatchObject({ from: null, to: "2026-12-01" });
    expect(allRequests.filter).toMatchObject({ from: null, to: null });
  });

  it("request list: says how many requests the filter matches, on every page of it", async () => {
    const [{ n }] = await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM object_state_request");
    const [{ scheduled }] = await db.sql.query<{ scheduled: number }>(
      `SELECT count(*)::int AS scheduled FROM object_state_request r LEFT JOIN console.request_meta m ON m.request_id = r.id
        WHERE ${PHASE_SQL} = 'scheduled'`,
    );
    const all = await as(() => listRequests({}));
    expect(n).toBeGreaterThan(all.rows.length);
    expect(all.count).toEqual({ total: n, atLeast: false });
    // The next page has the same total: the position does not narrow it.
    expect(all.next).not.toBeNull();
    expect((await as(() => listRequests({ after: all.next ?? "" }))).count).toEqual({ total: n, atLeast: false });
    expect((await as(() => listRequests({ phase: "scheduled" }))).count).toEqual({ total: scheduled, atLeast: false });
    expect((await as(() => listRequests({ id: "2147483647" }))).count).toEqual({ total: 0, atLeast: false });
  });

  it("object by name: a name or type with a NUL character is no object's, and is not looked up", async () => {
    const [{ name }] = await db.sql.query<{ name: string }>("SELECT name FROM object_registry WHERE erdate IS NULL AND type = 3 LIMIT 1");
    expect(await as(() => objectIdByName(name, null))).toEqual(expect.any(Number));
    expect(await as(() => objectIdByName("a\u0000b", null))).toBeNull();
    expect(await as(() => objectIdByName(name, "dom\u0000ain"))).toBeNull();
  });

  it("object list: cursors whose row cannot exist are named in a notice, and the first page is shown", async () => {
    const byCreation = await as(() => listObjects({ sort: "created" }));
    const byExpiry = await as(() => listObjects({ type: "domain", sort: "expires" }));
    const byName = await as(() => listObjects({}));
    const cases: [Record<string, string>, string, typeof byName][] = [
      [
        { sort: "created", after: cursor(["created", "2026-13-45 99:99:99", 1]) },
        "The page position in the link is damaged: “2026-13-45 99:99:99” is not a real date and time; showing the first page.",
        byCreation,
      ],
      [
        { type: "domain", sort: "expires", before: cursor(["expires", "2026-02-30", 5]) },
        "The page position in the link is damaged: “2026-02-30” is not a real date and time; showing the first page.",
        byExpiry,
      ],
      [
        { after: cursor(["name", "abc", 99_999_999_999]) },
        "The page position in the link is damaged: “99999999999” is not a row id (a whole number from 1 to 2,147,483,647); showing the first page.",
        byName,
      ],
      [
        { after: cursor(["name", "a\u0000b", 1]) },
        "The page position in the link is damaged: it holds a NUL character; showing the first page.",
        byName,
      ],
    ];
    for (const [params, notice, first] of cases) {
      const page = await as(() => listObjects(params));
      expect(said(page.notices), JSON.stringify(params)).toEqual([notice]);
      expect(page.atStart).toBe(true);
      expect(page.rows).toEqual(first.rows);
    }
    const nul = await as(() => listObjects({ q: "a\u0000b", registrar: "\u0000", states: ["outzone", "x\u0000"] }));
    expect(said(nul.notices)).toEqual([NUL_NOTICE("q"), NUL_NOTICE("registrar"), NUL_NOTICE("states")]);
    // The usable values still filter.
    expect(nul.rows).toEqual((await as(() => listObjects({ states: "outzone" }))).rows);
  });
});
