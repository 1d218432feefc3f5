import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InheritedAnomalies } from "@/components/objects/inherited-anomalies";
import { testBackends } from "../../testing/databases";
import { createDomain, createObject, createRequest, registryAt, TYPE } from "../../testing/registry";
import { actAs, signedInAs } from "../../testing/sessions";
import type { Database } from "../db/client";
import type { Locale } from "../i18n/config";
import { type HistoryPeriod, objectDetail, objectIdByName, PAGE_ROWS, type RequestStatus, type StateRequest, visibleRows } from "./detail";
import { reasonText } from "./reasons";

// The registry's time zone is Europe/Prague (enum_parameters); NOW is 11:00 there.
const NOW = new Date("2026-11-22T10:00:00Z");

describe.each(testBackends())("why an object has its states, on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  const ids: Record<string, number> = {};

  /** Each current state of the object at NOW with the reason state_reasons gives for it, in words. */
  async function reasons(name: string, locale: Locale = "en"): Promise<Record<string, string | null>> {
    const rows = await db.sql.query<{ name: string; code: string | null; args: Record<string, unknown> | null }>(
      `SELECT s.name, r.code, r.args FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
         LEFT JOIN console.state_reasons($1, $2) r ON r.state_id = os.state_id
        WHERE os.object_id = $1 AND os.valid_to IS NULL ORDER BY s.id`,
      [ids[name], NOW],
    );
    return Object.fromEntries(rows.map((r) => [r.name, r.code ? reasonText({ code: r.code, args: r.args ?? {} }, locale) : null]));
  }

  beforeAll(async () => {
    ({ db, drop } = await registryAt(backend, NOW, async (tx) => {
      const holder = await createObject(tx, TYPE.contact, "HOLDER", "2020-01-01T00:00:00Z");
      ids.HOLDER = holder;
      ids.LONELY = await createObject(tx, TYPE.contact, "LONELY", "2025-01-01T00:00:00Z");
      const ns = await createObject(tx, TYPE.nsset, "NS-1", "2020-01-01T00:00:00Z");
      ids["NS-1"] = ns;
      const domain = async (name: string, exdate: string, extra: { nsset?: number | null; validationExdate?: string } = {}) => {
        ids[name] = await createDomain(tx, {
          name,
          crdate: "2021-01-01T00:00:00Z",
          exdate,
          registrant: holder,
          nsset: extra.nsset === undefined ? ns : extra.nsset,
          validationExdate: extra.validationExdate,
        });
        return ids[name];
      };
      await domain("old.cz", "2026-08-01");
      await domain("soon.cz", "2026-12-10");
      await domain("no-nsset.cz", "2030-01-01", { nsset: null });
      await domain("1.0.2.4.e164.arpa", "2030-01-01", { validationExdate: "2026-12-01" });
      await domain("2.0.2.4.e164.arpa", "2030-01-01", { validationExdate: "2026-11-01" });
      const inzone = await domain("kept-in.cz", "2026-08-01");
      await createRequest(tx, inzone, "serverInzoneManual", "2026-09-01T00:00:00Z");
      // Out of the zone for lack of an nsset, then also kept out by a request from 11-05: both causes, each since when.
      const both = await domain("both-causes.cz", "2030-01-01", { nsset: null });
      await createRequest(tx, both, "serverOutzoneManual", "2026-11-05T09:00:00Z");
      const out = await domain("kept-out.cz", "2030-01-01");
      const request = await createRequest(tx, out, "serverOutzoneManual", "2026-10-01T08:00:00Z", "2027-01-01T00:00:00Z");
      await tx.query("INSERT INTO object_state_request_reason (object_state_request_id, reason_creation) VALUES ($1, $2)", [
        request,
        "court order 12/2026",
      ]);
      ids.request = request;
      // What a FRED registry may hold that the console's rules refuse, written past the console's
      // check as FRED's own procedure did: a request for an automatic state, two overlapping
      // requests, a cancellation set in the future.
      ids.HEIR = await createObject(tx, TYPE.contact, "HEIR", "2020-01-01T00:00:00Z");
      const inherited = await createDomain(tx, {
        name: "inherited.cz",
        crdate: "2021-01-01T00:00:00Z",
        exdate: "2030-01-01",
        registrant: ids.HEIR,
        nsset: null,
      });
      ids["inherited.cz"] = inherited;
      // The state triggers' deferred work runs now: a table with pending trigger events cannot be altered.
      await tx.run("SET CONSTRAINTS ALL IMMEDIATE");
      await tx.run("ALTER TABLE object_state_request DISABLE TRIGGER console_1_request_check");
      ids.automatic = await createRequest(tx, inherited, "expired", "2026-01-01T00:00:00Z");
      ids.first = await createRequest(tx, inherited, "serverBlocked", "2026-02-01T00:00:00Z");
      ids.second = await createRequest(tx, inherited, "serverBlocked", "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z");
      await tx.run("SET CONSTRAINTS ALL IMMEDIATE");
      await tx.run("ALTER TABLE object_state_request ENABLE TRIGGER console_1_request_check");
      await tx.run("SET CONSTRAINTS ALL DEFERRED");
      ids.future = await createRequest(tx, inherited, "serverUpdateProhibited", "2026-05-01T00:00:00Z", null, "2099-01-01T00:00:00Z");
      // Canceled before it began, as FRED's legacy cancel_multiple_object_states did: libfred's out_of_turn.
      ids.outOfTurn = await createRequest(tx, inherited, "serverTransferProhibited", "2026-06-01T00:00:00Z", null, "2026-05-20T10:00:00Z");
    }));
  });
  afterAll(() => drop());

  it("explains the expiry states with the domain's own dates", async () => {
    expect(await reasons("old.cz")).toEqual({
      expirationWarning: "expiration date 2026-08-01 is 30 days away or less (warning from 2026-07-02)",
      expired: "expiration date 2026-08-01 ≤ today (2026-11-22)",
      unguarded: "expired 30 days ago or more: unguarded from 2026-08-31 14:00 Europe/Prague (expiration date 2026-08-01 + 30 days)",
      outzone: "out of the zone: unguarded since 2026-08-31 14:00 Europe/Prague (expired 2026-08-01) and no serverInzoneManual",
      deleteCandidate:
        "to be deleted: expiration date 2026-08-01 + 61 days, from 2026-10-01 00:00 Europe/Prague, and neither serverDeleteProhibited nor serverRenewProhibited",
      deleteWarning:
        "expired 34 days ago or more: the deletion warning letter is due from 2026-09-04 (expiration date 2026-08-01 + 34 days), and no serverRenewProhibited",
      outzoneUnguarded:
        "out of the zone because unguarded: from 2026-08-31 14:00 Europe/Prague (expiration date 2026-08-01 + 30 days), and neither serverRenewProhibited nor serverInzoneManual",
      outzoneUnguardedWarning:
        "the e-mail warning that the domain leaves the zone at 2026-08-31 14:00 Europe/Prague is due from 2026-08-26 (expiration date 2026-08-01 + 25 days), and neither serverRenewProhibited nor serverInzoneManual",
    });
    expect(await reasons("soon.cz")).toEqual({
      expirationWarning: "expiration date 2026-12-10 is 30 days away or less (warning from 2026-11-10)",
    });
  });

  it("explains nsset and validation states", async () => {
    expect(await reasons("no-nsset.cz")).toEqual({
      nssetMissing: "the domain has no nsset",
      outzone: "out of the zone: the domain has no nsset",
    });
    expect(await reasons("1.0.2.4.e164.arpa")).toEqual({
      validationWarning1: "validation ends 2026-12-01, 30 days away or less",
      validationWarning2: "validation ends 2026-12-01, 15 days away or less",
    });
    expect(await reasons("2.0.2.4.e164.arpa")).toMatchObject({
      notValidated: "validation ended 2026-11-01 14:00 Europe/Prague (validation date 2026-11-01)",
      outzone: "out of the zone: not validated since 2026-11-01 14:00 Europe/Prague (validation date 2026-11-01) and no serverInzoneManual",
    });
  });

  it("explains states a request holds, with the request and its reason", async () => {
    expect(await reasons("kept-out.cz")).toEqual({
      serverOutzoneManual: `requested for 2026-10-01 10:00 – 2027-01-01 01:00 Europe/Prague (request ${ids.request}): “court order 12/2026”`,
      outzone: "out of the zone: serverOutzoneManual is requested from 2026-10-01 10:00 Europe/Prague",
    });
    expect((await reasons("both-causes.cz")).outzone).toBe(
      "out of the zone: the domain has no nsset; and serverOutzoneManual is requested from 2026-11-05 10:00 Europe/Prague",
    );
    expect((await reasons("both-causes.cz", "cs")).outzone).toBe(
      "mimo zónu: doména nemá přiřazenou sadu jmenných serverů; a je vyžádán serverOutzoneManual od 5. 11. 2026 10:00 Europe/Prague",
    );
    const kept = await reasons("kept-in.cz");
    expect(kept.serverInzoneManual).toMatch(/^requested for 2026-09-01 02:00 onwards Europe\/Prague \(request \d+\), no reason recorded$/);
    expect(kept.outzone).toBeUndefined();
    expect(kept.expired).toBe("expiration date 2026-08-01 ≤ today (2026-11-22)");
  });

  it("explains linked and the delete candidacy of unlinked contacts", async () => {
    expect(await reasons("HOLDER")).toEqual({ linked: "referenced by 8 domains as registrant" });
    expect(await reasons("NS-1")).toEqual({ linked: "referenced by 6 domains as their nsset" });
    expect(await reasons("LONELY")).toEqual({
      deleteCandidate:
        "to be deleted: not linked since 2025-01-01 01:00 Europe/Prague (never linked; created then), and 6 months have passed; no serverDeleteProhibited",
    });
  });

  it("gives every state every object has now a reason", async () => {
    const unexplained = await db.sql.query(
      `SELECT o.name, s.name AS state FROM object_state os JOIN object_registry o ON o.id = os.object_id
         JOIN enum_object_states s ON s.id = os.state_id
        WHERE os.valid_to IS NULL AND NOT EXISTS (SELECT 1 FROM console.state_reasons(os.object_id, $1) r WHERE r.state_id = os.state_id)`,
      [NOW],
    );
    expect(unexplained).toEqual([]);
  });

  it("words the same reasons in Czech, with Czech dates and plurals", async () => {
    expect(await reasons("old.cz", "cs")).toEqual({
      expirationWarning: "do data expirace 1. 8. 2026 zbývá nejvýše 30 dní (varování od 2. 7. 2026)",
      expired: "datum expirace 1. 8. 2026 ≤ dnes (22. 11. 2026)",
      unguarded:
        "30 dní nebo více po expiraci: ochranná lhůta skončila 31. 8. 2026 14:00 Europe/Prague (datum expirace 1. 8. 2026 + 30 dní)",
      outzone: "mimo zónu: po ochranné lhůtě od 31. 8. 2026 14:00 Europe/Prague (expirace 1. 8. 2026) a bez serverInzoneManual",
      deleteCandidate:
        "ke smazání: datum expirace 1. 8. 2026 + 61 dní, od 1. 10. 2026 00:00 Europe/Prague; není nastaven serverDeleteProhibited ani serverRenewProhibited",
      deleteWarning:
        "34 dní nebo více po expiraci: dopis s varováním před zrušením se posílá od 4. 9. 2026 (datum expirace 1. 8. 2026 + 34 dní); není nastaven serverRenewProhibited",
      outzoneUnguarded:
        "mimo zónu po ochranné lhůtě: od 31. 8. 2026 14:00 Europe/Prague (datum expirace 1. 8. 2026 + 30 dní); není nastaven serverRenewProhibited ani serverInzoneManual",
      outzoneUnguardedWarning:
        "e-mail s varováním, že doména 31. 8. 2026 14:00 Europe/Prague opustí zónu, se posílá od 26. 8. 2026 (datum expirace 1. 8. 2026 + 25 dní); není nastaven serverRenewProhibited ani serverInzoneManual",
    });
    expect(await reasons("no-nsset.cz", "cs")).toEqual({
      nssetMissing: "doména nemá přiřazenou sadu jmenných serverů",
      outzone: "mimo zónu: doména nemá přiřazenou sadu jmenných serverů",
    });
    expect(await reasons("1.0.2.4.e164.arpa", "cs")).toEqual({
      validationWarning1: "validace končí 1. 12. 2026, zbývá nejvýše 30 dní",
      validationWarning2: "validace končí 1. 12. 2026, zbývá nejvýše 15 dní",
    });
    expect(await reasons("kept-out.cz", "cs")).toEqual({
      serverOutzoneManual: `vyžádáno na období 1. 10. 2026 10:00 – 1. 1. 2027 01:00 Europe/Prague (požadavek ${ids.request}): „court order 12/2026“`,
      outzone: "mimo zónu: je vyžádán serverOutzoneManual od 1. 10. 2026 10:00 Europe/Prague",
    });
    expect((await reasons("kept-in.cz", "cs")).serverInzoneManual).toMatch(
      /^vyžádáno od 1\. 9\. 2026 02:00 Europe\/Prague na dobu neurčitou \(požadavek \d+\), důvod nebyl uveden$/,
    );
    expect(await reasons("HOLDER", "cs")).toEqual({ linked: "odkazují na něj: 8 domén (jako na držitele)" });
    expect(await reasons("LONELY", "cs")).toEqual({
      deleteCandidate:
        "ke smazání: bez vazeb od 1. 1. 2025 01:00 Europe/Prague (nikdy nebyl navázán; tehdy vytvořen) a uplynulo 6 měsíců; není nastaven serverDeleteProhibited",
    });
  });

  it("words counts and plurals of every kind of reference in both languages", () => {
    const linked = {
      code: "linked",
      args: { registrant: 1, domainContact: 3, nssetContact: 1234, keysetContact: 0, nssetOf: 5, keysetOf: 2 },
    };
    expect(reasonText(linked, "en")).toBe(
      "referenced by 1 domain as registrant, 3 domains as admin or temporary contact, 1234 nssets as technical contact, 5 domains as their nsset, 2 domains as their keyset",
    );
    expect(reasonText(linked, "cs")).toBe(
      "odkazují na něj: 1 doména (jako na držitele), 3 domény (jako na administrativní nebo dočasný kontakt), 1\u00a0234 sad jmenných serverů (jako na technický kontakt), 5 domén (jako na svou sadu jmenných serverů), 2 domény (jako na svou sadu klíčů)",
    );
    const ever = {
      code: "deleteCandidateUnlinked",
      args: { since: "2026-03-01T12:30:00+00:00", neverLinked: false, months: 2, zone: "Europe/Prague" },
    };
    expect(reasonText(ever, "en")).toBe(
      "to be deleted: not linked since 2026-03-01 13:30 Europe/Prague, and 2 months have passed; no serverDeleteProhibited",
    );
    expect(reasonText(ever, "cs")).toBe(
      "ke smazání: bez vazeb od 1. 3. 2026 13:30 Europe/Prague a uplynuly 2 měsíce; není nastaven serverDeleteProhibited",
    );
    expect(reasonText({ code: "expirationWarning", args: { exdate: "2026-12-01", days: 1, warningFrom: "2026-11-30" } }, "cs")).toBe(
      "do data expirace 1. 12. 2026 zbývá nejvýše 1 den (varování od 30. 11. 2026)",
    );
    // A rule of a newer database: named, not passed off as "no rule explains it".
    expect(reasonText({ code: "ruleOfTomorrow", args: {} }, "en")).toBe(
      "a rule this console version does not describe (reason code ruleOfTomorrow)",
    );
    expect(reasonText({ code: "ruleOfTomorrow", args: {} }, "cs")).toBe(
      "pravidlo, které tato verze konzole nepopisuje (kód důvodu ruleOfTomorrow)",
    );
  });

  it("reads the object page in Czech: Czech state descriptions and reasons, English ones unchanged", async () => {
    const support = await signedInAs(db, "support");
    const english = await actAs(support, () => objectDetail(ids["kept-out.cz"]));
    const czech = await actAs({ ...support, locale: "cs" }, () => objectDetail(ids["kept-out.cz"]));
    const state = (detail: typeof czech, name: string) => detail?.states.find((s) => s.name === name);
    expect(state(english, "serverOutzoneManual")).toMatchObject({
      description: "The domain is administratively kept out of zone",
      reason: `requested for 2026-10-01 10:00 – 2027-01-01 01:00 Europe/Prague (request ${ids.request}): “court order 12/2026”`,
    });
    expect(state(english, "outzone")).toMatchObject({
      description: "The domain isn't generated in the zone",
      reason: "out of the zone: serverOutzoneManual is requested from 2026-10-01 10:00 Europe/Prague",
    });
    expect(state(czech, "serverOutzoneManual")).toMatchObject({
      description: "Doména je administrativně vyřazena ze zóny",
      reason: `vyžádáno na období 1. 10. 2026 10:00 – 1. 1. 2027 01:00 Europe/Prague (požadavek ${ids.request}): „court order 12/2026“`,
      requestId: ids.request,
    });
    expect(state(czech, "outzone")).toMatchObject({
      description: "Doména není generována do zóny",
      reason: "mimo zónu: je vyžádán serverOutzoneManual od 1. 10. 2026 10:00 Europe/Prague",
    });
    // What may be requested, described in Czech too.
    const admin = await signedInAs(db, "admin");
    const requestable = (await actAs({ ...admin, locale: "cs" }, () => objectDetail(ids["kept-out.cz"])))?.requestable;
    expect(requestable?.find((r) => r.name === "serverBlocked")?.description).toBe("Administrativně blokováno");
    // A description missing in Czech falls back to English.
    await db.sql.query("DELETE FROM enum_object_states_desc WHERE state_id = 15 AND lang = 'CS'");
    try {
      const fallback = await actAs({ ...support, locale: "cs" }, () => objectDetail(ids["kept-out.cz"]));
      expect(state(fallback, "outzone")?.description).toBe("The domain isn't generated in the zone");
    } finally {
      await db.sql.query(
        "INSERT INTO enum_object_states_desc (state_id, lang, description) VALUES (15, 'CS', 'Doména není generována do zóny')",
      );
    }
  });

  it("reads the object page's data: states with reasons, requests, data with links, what is refused", async () => {
    const support = await signedInAs(db, "support");
    const detail = await actAs(support, () => objectDetail(ids["kept-out.cz"]));
    if (!detail) throw new Error("no detail");
    expect(detail.domain?.registrant).toEqual({ id: ids.HOLDER, name: "HOLDER" });
    // A calendar date stays the date FRED stores, whatever the driver makes of a `date` column.
    expect(detail.domain).toMatchObject({ expires: "2030-01-01", validationExpires: null });
    expect(detail.domain?.nsset).toEqual({ id: ids["NS-1"], name: "NS-1" });
    expect(detail.states.find((s) => s.name === "serverOutzoneManual")).toMatchObject({ manual: true, requestId: ids.request });
    expect(detail.requests).toEqual([
      expect.objectContaining({ id: ids.request, state: "serverOutzoneManual", reason: "court order 12/2026", status: "in force" }),
    ]);
    expect(detail.inZone).toBe(false);
    expect(detail.audit).toBeNull();
    const old = await actAs(support, () => objectDetail(ids["old.cz"]));
    expect(old?.refusals).toEqual([
      { command: "update", states: ["deleteCandidate"] },
      { command: "delete", states: ["deleteCandidate"] },
      { command: "transfer", states: ["deleteCandidate"] },
      { command: "renew", states: ["deleteCandidate"] },
    ]);
    const holder = await actAs(support, () => objectDetail(ids.HOLDER));
    expect(holder?.metadata.references).toBe(8);
    expect(holder?.contact).toEqual({ name: "HOLDER", organization: null, email: null });
    // What the rules foresee: an unlinked contact created long ago is a candidate already; the
    // domain expiring soon is foreseen to expire.
    const soon = await actAs(support, () => objectDetail(ids["soon.cz"]));
    expect(soon?.projected.map((p) => p.state)).toContain("expired");
    expect(await actAs(support, () => objectDetail(999_999))).toBeNull();
    expect(await actAs(support, () => objectIdByName("OLD.CZ", "domain"))).toBe(ids["old.cz"]);
    expect(await actAs(support, () => objectIdByName("old.cz", "contact"))).toBeNull();
  });

  it("lists what the registry holds that the console's rules refuse on the object with it, and nothing on others", async () => {
    const support = await signedInAs(db, "support");
    const anomalies = async (id: number) =>
      (await actAs(support, () => objectDetail(id)))?.anomalies.map((a) => ({
        kind: a.kind,
        requestId: a.requestId,
        otherRequestId: a.otherRequestId,
        state: a.state,
      }));
    expect(await anomalies(ids["inherited.cz"])).toEqual([
      { kind: "automatic_state", requestId: ids.automatic, otherRequestId: null, state: "expired" },
      { kind: "canceled_in_future", requestId: ids.future, otherRequestId: null, state: "serverUpdateProhibited" },
      { kind: "out_of_turn", requestId: ids.outOfTurn, otherRequestId: null, state: "serverTransferProhibited" },
      { kind: "overlap", requestId: ids.second, otherRequestId: ids.first, state: "serverBlocked" },
    ]);
    expect(await anomalies(ids.HEIR)).toEqual([]);
    expect(await anomalies(ids["kept-out.cz"])).toEqual([]);
    expect(await anomalies(ids.HOLDER)).toEqual([]);

    // On the page: a sentence each in the reader's language, linking to the requests; nothing without any.
    const page = (id: number, locale: Locale) =>
      actAs({ ...support, locale }, async () => {
        const object = await objectDetail(id);
        if (!object) throw new Error("no detail");
        return renderToStaticMarkup(await InheritedAnomalies({ object, requestHref: (r) => `#request-${r}` }));
      });
    const link = (id: number) => `<a href="#request-${id}">${id}</a>`;
    const english = await page(ids["inherited.cz"], "en");
    expect(english).toContain(`Request ${link(ids.automatic)} asks for expired, an automatic state`);
    expect(english).toContain(`Requests ${link(ids.first)} and ${link(ids.second)} for serverBlocked hold at the same time`);
    expect(english).toContain(
      `Request ${link(ids.future)} for serverUpdateProhibited is canceled as of 2099-01-01 01:00 CET, in the future`,
    );
    expect(english).toContain(
      `Request ${link(ids.outOfTurn)} for serverTransferProhibited ends (2026-05-20 12:00 CEST) before it starts (2026-06-01 02:00 CEST): ` +
        "while it stands, FRED&#x27;s programs refuse every new serverTransferProhibited request for this object",
    );
    const czech = await page(ids["inherited.cz"], "cs");
    expect(czech).toContain(`Požadavek ${link(ids.automatic)} žádá o automatický stav expired`);
    expect(czech).toContain(
      `Požadavek ${link(ids.outOfTurn)} na stav serverTransferProhibited končí (20. 5. 2026 12:00 SELČ) dříve, než začíná (1. 6. 2026 02:00 SELČ)`,
    );
    expect(await page(ids.HOLDER, "en")).toBe("");
  });
});

describe("the object page's long tables", () => {
  const period = (i: number): HistoryPeriod => ({
    state: "serverBlocked",
    manual: true,
    external: true,
    from: new Date(Date.UTC(2020, 0, 1 + i)).toISOString(),
    to: null,
  });
  const request = (id: number, status: RequestStatus): StateRequest => ({
    id,
    state: "serverBlocked",
    from: "2026-01-01T00:00:00.000Z",
    to: null,
    created: "2026-01-01T00:00:00.000Z",
    canceled: null,
    reason: null,
    cancelReason: null,
    status,
    author: null,
    canceledBy: null,
    blockId: null,
    blockRequestId: null,
  });
  // Newest first, as objectDetail lists them: two pending far down the list.
  const requests = Array.from({ length: 500 }, (_, i) => request(1000 - i, i === 120 || i === 499 ? "scheduled" : "ended"));
  const history = Array.from({ length: 500 }, (_, i) => period(i));

  it("shows the newest rows, and every request that can still change, unless all are asked for", () => {
    const cut = visibleRows({ history, requests }, { history: false, requests: false });
    expect(cut.history).toEqual(history.slice(400));
    expect(cut.requests).toHaveLength(PAGE_ROWS.requests);
    expect(cut.requests.map((r) => r.id)).toEqual([...requests.slice(0, 48).map((r) => r.id), 880, 501]);
    const all = visibleRows({ history, requests }, { history: true, requests: true });
    expect(all.history).toHaveLength(500);
    expect(all.requests).toHaveLength(500);
    const few = visibleRows({ history: history.slice(0, 3), requests: requests.slice(0, 3) }, { history: false, requests: false });
    expect([few.history.length, few.requests.length]).toEqual([3, 3]);
  });
});
