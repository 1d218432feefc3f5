import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import {
  baseRegistry,
  changeAt,
  createDomain,
  createObject,
  createRequest,
  functionCalls,
  held,
  historyProblems,
  TYPE,
} from "../../testing/registry";
import type { Database } from "../db/client";
import { migrate } from "../db/migrations";
import { runStateEngine } from "./engine";

// The registry's zone is Europe/Prague: CET (UTC+1) in winter, CEST (UTC+2) in summer. Summer
// time ends on 2026-10-25 (03:00 CEST -> 02:00 CET) and starts on 2027-03-28 (02:00 CET -> 03:00 CEST).
const HORIZON = "2028-01-01T00:00:00Z";
const second = (iso: string, delta: number) => new Date(Date.parse(iso) + delta * 1000);

interface Fixture {
  [key: string]: number;
}

async function buildFixture(db: Database): Promise<Fixture> {
  return db.sql.transaction(async (tx) => {
    await tx.query("SELECT set_config('registry.state_marks', 'off', true)");
    await baseRegistry(tx);
    const f: Fixture = {};
    f.holder = await createObject(tx, TYPE.contact, "HOLDER", "2020-01-01T10:00:00Z");
    f.ns = await createObject(tx, TYPE.nsset, "NSS-MAIN", "2020-01-01T10:00:00Z");
    const domain = (name: string, exdate: string, extra: Partial<Parameters<typeof createDomain>[1]> = {}) =>
      createDomain(tx, { name, crdate: "2020-03-10T10:00:00Z", exdate, registrant: f.holder, nsset: f.ns, ...extra });
    f.expiry = await domain("expiry.cz", "2027-03-10");
    f.springDst = await domain("spring-dst.cz", "2027-02-26");
    f.autumnWarning = await domain("autumn-warning.cz", "2026-11-24");
    f.autumnUnguarded = await domain("autumn-unguarded.cz", "2026-09-25");
    f.autumnLetter = await domain("autumn-letter.cz", "2026-09-21");
    f.autumnMail = await domain("autumn-mail.cz", "2026-09-30");
    f.enum = await domain("4.3.2.1.0.2.4.e164.arpa", "2029-06-01", { validationExdate: "2027-01-20" });
    f.noNsset = await domain("no-nsset.cz", "2029-06-01", { nsset: null, crdate: "2026-05-01T08:00:00Z" });

    f.requests = await domain("requests.cz", "2030-01-01");
    await createRequest(tx, f.requests, "serverTransferProhibited", "2027-05-01T08:00:00Z", "2027-06-01T08:00:00Z");
    await createRequest(tx, f.requests, "serverUpdateProhibited", "2027-05-01T08:00:00Z", null, "2027-04-01T00:00:00Z");
    await createRequest(tx, f.requests, "serverDeleteProhibited", "2027-02-01T00:00:00Z", null, "2027-03-01T12:34:56Z");
    await createRequest(tx, f.requests, "serverBlocked", "2026-06-01T00:00:00Z", "2026-07-01T00:00:00Z");
    await createRequest(tx, f.requests, "serverRegistrantChangeProhibited", "2026-06-01T00:00:00Z");

    f.inzone = await domain("inzone.cz", "2026-12-01");
    await createRequest(tx, f.inzone, "serverInzoneManual", "2027-01-10T00:00:00Z", "2027-02-10T00:00:00Z");
    f.outzoneManual = await domain("outzone-manual.cz", "2030-01-01");
    await createRequest(tx, f.outzoneManual, "serverOutzoneManual", "2027-03-01T00:00:00Z", "2027-03-15T00:00:00Z");
    // serverOutzoneManual and serverInzoneManual at once (outzone wins in the rules, as in FRED) can
    // no longer be written: the constraint object_state_request_zone_exclusive refuses it.
    f.renew = await domain("renew.cz", "2026-12-01");
    await createRequest(tx, f.renew, "serverRenewProhibited", "2026-11-01T00:00:00Z", "2027-01-15T00:00:00Z");
    f.deleteProhibited = await domain("delete-prohibited.cz", "2026-12-01");
    await createRequest(tx, f.deleteProhibited, "serverDeleteProhibited", "2027-01-01T00:00:00Z", "2027-02-01T00:00:00Z");

    f.oldContact = await createObject(tx, TYPE.contact, "OLD-CONTACT", "2026-01-10T09:00:00Z");
    f.unusedNsset = await createObject(tx, TYPE.nsset, "NSS-UNUSED", "2026-02-15T09:00:00Z");
    f.unusedKeyset = await createObject(tx, TYPE.keyset, "KID-UNUSED", "2026-11-30T23:30:00Z");
    f.protectedContact = await createObject(tx, TYPE.contact, "PROTECTED", "2026-01-10T09:00:00Z");
    await createRequest(tx, f.protectedContact, "serverDeleteProhibited", "2026-01-11T00:00:00Z");
    // FRED's manual contact states (21-27, 29-32), through requests like any other manual state.
    await createRequest(tx, f.holder, "validatedContact", "2026-03-01T08:00:00Z", "2026-09-01T08:00:00Z");
    await createRequest(tx, f.holder, "serverContactNameChangeProhibited", "2026-04-01T08:00:00Z");
    return f;
  });
}

/** [what, object, state, instant, holds just before, holds at the instant] */
type Boundary = [string, string, string, string, boolean, boolean];

const BOUNDARIES: Boundary[] = [
  ["expirationWarning starts at 00:00 local, exdate - 30 days (CET)", "expiry", "expirationWarning", "2027-02-07T23:00:00Z", false, true],
  ["expired starts at 00:00 local on exdate", "expiry", "expired", "2027-03-09T23:00:00Z", false, true],
  ["unguarded starts at 14:00 local, exdate + 30 days (CEST)", "expiry", "unguarded", "2027-04-09T12:00:00Z", false, true],
  ["outzone starts with unguarded", "expiry", "outzone", "2027-04-09T12:00:00Z", false, true],
  [
    "deleteCandidate starts at 00:00 local (enum_parameters 9), exdate + 61 days",
    "expiry",
    "deleteCandidate",
    "2027-05-09T22:00:00Z",
    false,
    true,
  ],
  ["unguarded on the day summer time starts: 14:00 CEST", "springDst", "unguarded", "2027-03-28T12:00:00Z", false, true],
  [
    "expirationWarning on the day summer time ends: 00:00 is still CEST",
    "autumnWarning",
    "expirationWarning",
    "2026-10-24T22:00:00Z",
    false,
    true,
  ],
  ["expired after summer time: 00:00 CET", "autumnWarning", "expired", "2026-11-23T23:00:00Z", false, true],
  ["unguarded on the day summer time ends: 14:00 CET", "autumnUnguarded", "unguarded", "2026-10-25T13:00:00Z", false, true],
  ["validationWarning1 at 00:00 local, validation - 30 days", "enum", "validationWarning1", "2026-12-20T23:00:00Z", false, true],
  ["validationWarning2 at 00:00 local, validation - 15 days", "enum", "validationWarning2", "2027-01-04T23:00:00Z", false, true],
  ["notValidated at 14:00 local on the validation date", "enum", "notValidated", "2027-01-20T13:00:00Z", false, true],
  ["notValidated takes the domain out of the zone", "enum", "outzone", "2027-01-20T13:00:00Z", false, true],
  ["nssetMissing from the domain's creation", "noNsset", "nssetMissing", "2026-05-01T08:00:00Z", false, true],
  ["no nsset means outzone from creation", "noNsset", "outzone", "2026-05-01T08:00:00Z", false, true],
  ["a future request starts at its start", "requests", "serverTransferProhibited", "2027-05-01T08:00:00Z", false, true],
  ["and ends at its end", "requests", "serverTransferProhibited", "2027-06-01T08:00:00Z", true, false],
  ["a request canceled before its start never holds", "requests", "serverUpdateProhibited", "2027-05-01T08:00:00Z", false, false],
  ["a request canceled while in force ends at the cancellation", "requests", "serverDeleteProhibited", "2027-03-01T12:34:56Z", true, false],
  ["an ended request held from its start", "requests", "serverBlocked", "2026-06-01T00:00:00Z", false, true],
  ["an ended request ended at its end", "requests", "serverBlocked", "2026-07-01T00:00:00Z", true, false],
  ["an open-ended request still holds", "requests", "serverRegistrantChangeProhibited", HORIZON, true, true],
  ["unguarded without serverInzoneManual is outzone", "inzone", "outzone", "2026-12-31T13:00:00Z", false, true],
  ["serverInzoneManual brings an unguarded domain back into the zone", "inzone", "outzone", "2027-01-10T00:00:00Z", true, false],
  ["the domain leaves the zone again when serverInzoneManual ends", "inzone", "outzone", "2027-02-10T00:00:00Z", false, true],
  ["serverInzoneManual does not end unguarded", "inzone", "unguarded", "2027-01-10T00:00:00Z", true, true],
  ["serverOutzoneManual takes a healthy domain out of the zone", "outzoneManual", "outzone", "2027-03-01T00:00:00Z", false, true],
  ["and back when it ends", "outzoneManual", "outzone", "2027-03-15T00:00:00Z", true, false],
  ["serverRenewProhibited keeps an expired domain out of the expiry flow", "renew", "expired", "2027-01-15T00:00:00Z", false, true],
  ["suppressed unguarded resumes when serverRenewProhibited ends", "renew", "unguarded", "2027-01-15T00:00:00Z", false, true],
  ["and so does outzone", "renew", "outzone", "2027-01-15T00:00:00Z", false, true],
  ["deleteCandidate after serverRenewProhibited at its own threshold", "renew", "deleteCandidate", "2027-01-30T23:00:00Z", false, true],
  ["serverDeleteProhibited holds deleteCandidate back", "deleteProhibited", "deleteCandidate", "2027-01-30T23:00:00Z", false, false],
  ["deleteCandidate comes when serverDeleteProhibited ends", "deleteProhibited", "deleteCandidate", "2027-02-01T00:00:00Z", false, true],
  // FRED's three further domain states (domain_lifecycle_parameters: letter 34 days, e-mail 25 days).
  ["deleteWarning starts at 00:00 local, exdate + 34 days (CEST)", "expiry", "deleteWarning", "2027-04-12T22:00:00Z", false, true],
  [
    "outzoneUnguardedWarning starts at 00:00 local, exdate + 25 days (CEST)",
    "expiry",
    "outzoneUnguardedWarning",
    "2027-04-03T22:00:00Z",
    false,
    true,
  ],
  [
    "outzoneUnguarded starts with unguarded, 14:00 local (enum_parameters 14)",
    "expiry",
    "outzoneUnguarded",
    "2027-04-09T12:00:00Z",
    false,
    true,
  ],
  ["outzoneUnguarded on the day summer time starts: 14:00 CEST", "springDst", "outzoneUnguarded", "2027-03-28T12:00:00Z", false, true],
  ["outzoneUnguardedWarning before summer time: 00:00 CET", "springDst", "outzoneUnguardedWarning", "2027-03-22T23:00:00Z", false, true],
  ["outzoneUnguarded on the day summer time ends: 14:00 CET", "autumnUnguarded", "outzoneUnguarded", "2026-10-25T13:00:00Z", false, true],
  ["deleteWarning on the day summer time ends: 00:00 is still CEST", "autumnLetter", "deleteWarning", "2026-10-24T22:00:00Z", false, true],
  ["deleteWarning after summer time: 00:00 CET", "autumnUnguarded", "deleteWarning", "2026-10-28T23:00:00Z", false, true],
  [
    "outzoneUnguardedWarning on the day summer time ends: 00:00 is still CEST",
    "autumnMail",
    "outzoneUnguardedWarning",
    "2026-10-24T22:00:00Z",
    false,
    true,
  ],
  ["outzoneUnguarded without serverInzoneManual", "inzone", "outzoneUnguarded", "2026-12-31T13:00:00Z", false, true],
  ["serverInzoneManual ends outzoneUnguarded", "inzone", "outzoneUnguarded", "2027-01-10T00:00:00Z", true, false],
  ["and outzoneUnguardedWarning", "inzone", "outzoneUnguardedWarning", "2027-01-10T00:00:00Z", true, false],
  ["both come back when serverInzoneManual ends", "inzone", "outzoneUnguarded", "2027-02-10T00:00:00Z", false, true],
  ["serverInzoneManual does not end deleteWarning", "inzone", "deleteWarning", "2027-01-10T00:00:00Z", true, true],
  ["suppressed deleteWarning resumes when serverRenewProhibited ends", "renew", "deleteWarning", "2027-01-15T00:00:00Z", false, true],
  ["and outzoneUnguarded", "renew", "outzoneUnguarded", "2027-01-15T00:00:00Z", false, true],
  ["and outzoneUnguardedWarning", "renew", "outzoneUnguardedWarning", "2027-01-15T00:00:00Z", false, true],
  [
    "a contact's manual state starts at its request's start (validatedContact)",
    "holder",
    "validatedContact",
    "2026-03-01T08:00:00Z",
    false,
    true,
  ],
  ["and ends at its end", "holder", "validatedContact", "2026-09-01T08:00:00Z", true, false],
  [
    "serverContactNameChangeProhibited (29) from its request",
    "holder",
    "serverContactNameChangeProhibited",
    "2026-04-01T08:00:00Z",
    false,
    true,
  ],
  ["a referenced contact is linked from its creation", "holder", "linked", "2020-01-01T10:00:00Z", false, true],
  ["a referenced contact never becomes a delete candidate", "holder", "deleteCandidate", HORIZON, false, false],
  [
    "an unlinked contact: deleteCandidate 6 months after creation, 00:00 CEST",
    "oldContact",
    "deleteCandidate",
    "2026-07-09T22:00:00Z",
    false,
    true,
  ],
  ["an unlinked nsset likewise", "unusedNsset", "deleteCandidate", "2026-08-14T22:00:00Z", false, true],
  ["creation late in the evening UTC counts on the local date", "unusedKeyset", "deleteCandidate", "2027-05-31T22:00:00Z", false, true],
  ["serverDeleteProhibited keeps an unlinked contact", "protectedContact", "deleteCandidate", "2026-07-09T22:00:00Z", false, false],
];

describe.each(testBackends())("state engine on $name", (backend) => {
  describe("rules at their boundary instants", () => {
    let db: Database;
    let drop: () => Promise<void>;
    let f: Fixture;
    beforeAll(async () => {
      ({ db, drop } = await backend.createMigrated());
      f = await buildFixture(db);
      await runStateEngine(db.sql, { at: new Date(HORIZON), full: true });
    });
    afterAll(() => drop());

    it.each(BOUNDARIES)("%s", async (_what, object, state, instant, before, at) => {
      expect(await held(db.sql, f[object], state, second(instant, -1)), "one second before").toBe(before);
      expect(await held(db.sql, f[object], state, instant), "at the instant").toBe(at);
    });

    it("writes a sound history: no overlaps, at most one open row per state", async () => {
      expect(await historyProblems(db.sql)).toEqual([]);
    });

    it("gives the same history when it steps through every boundary as when it runs once", async () => {
      const stepped = await backend.create();
      try {
        await migrate(stepped.db.direct);
        await buildFixture(stepped.db);
        const instants = [...new Set(BOUNDARIES.map((b) => b[3]))].sort();
        await runStateEngine(stepped.db.sql, { at: new Date("2019-01-01T00:00:00Z") });
        for (const instant of instants) {
          for (const delta of [-1, 0, 1]) {
            const run = await runStateEngine(stepped.db.sql, { at: second(instant, delta) });
            expect(run.kind).toBe("incremental");
          }
        }
        await runStateEngine(stepped.db.sql, { at: new Date(HORIZON) });
        const history = "SELECT object_id, state_id, valid_from, valid_to FROM object_state ORDER BY 1, 2, 3";
        expect(await stepped.db.sql.query(history)).toEqual(await db.sql.query(history));
      } finally {
        await stepped.drop();
      }
    });

    it("changes nothing when run again at the same instant, or fully", async () => {
      const before = await db.sql.query("SELECT * FROM object_state ORDER BY id");
      expect(await runStateEngine(db.sql, { at: new Date(HORIZON) })).toMatchObject({ opened: 0, closed: 0 });
      expect(await runStateEngine(db.sql, { at: new Date(HORIZON), full: true })).toMatchObject({ opened: 0, closed: 0 });
      expect(await db.sql.query("SELECT * FROM object_state ORDER BY id")).toEqual(before);
    });

    it("does nothing when the clock is behind the cursor", async () => {
      expect(await runStateEngine(db.sql, { at: new Date("2027-01-01T00:00:00Z") })).toMatchObject({ kind: "behind", opened: 0 });
    });

    it("finds the due objects through the next-change index, not by scanning every object", async () => {
      const run = await runStateEngine(db.sql, { at: new Date("2028-06-01T00:00:00Z") });
      expect(run.kind).toBe("incremental");
      const [{ objects }] = await db.sql.query<{ objects: number }>("SELECT count(*)::int AS objects FROM object_registry");
      expect(run.objects).toBeLessThan(objects);
    });
  });

  describe("structural changes and requests written by anyone", () => {
    let db: Database;
    let drop: () => Promise<void>;
    let f: Fixture;
    beforeAll(async () => {
      ({ db, drop } = await backend.createMigrated());
      f = await db.sql.transaction(async (tx) => {
        await tx.query("SELECT set_config('registry.state_marks', 'off', true)");
        await baseRegistry(tx);
        const ids: Fixture = {};
        ids.a = await createObject(tx, TYPE.contact, "CONTACT-A", "2025-01-01T10:00:00Z");
        ids.b = await createObject(tx, TYPE.contact, "CONTACT-B", "2025-01-01T10:00:00Z");
        ids.ns = await createObject(tx, TYPE.nsset, "NSS-ONE", "2025-01-01T10:00:00Z");
        ids.c = await createObject(tx, TYPE.contact, "CONTACT-C", "2025-01-01T10:00:00Z");
        ids.d = await createDomain(tx, {
          name: "moving.cz",
          crdate: "2025-02-01T10:00:00Z",
          exdate: "2030-01-01",
          registrant: ids.a,
          nsset: ids.ns,
        });
        ids.e = await createDomain(tx, {
          name: "renewed.cz",
          crdate: "2025-02-01T10:00:00Z",
          exdate: "2026-03-03",
          registrant: ids.c,
          nsset: ids.ns,
        });
        return ids;
      });
      await runStateEngine(db.sql, { at: new Date("2026-03-02T22:00:00Z"), full: true });
    });
    afterAll(() => drop());

    it("records a change of registrant, nsset and exdate at the instant it was made, though the run comes later", async () => {
      const change = "2026-03-03T08:00:00Z";
      await changeAt(db.sql, change, async (tx) => {
        await tx.query("UPDATE domain SET registrant = $2, nsset = NULL WHERE id = $1", [f.d, f.b]);
        await tx.query("UPDATE domain SET exdate = '2027-03-03' WHERE id = $1", [f.e]);
      });
      await runStateEngine(db.sql, { at: new Date("2026-03-03T09:00:00Z") });

      // The contacts: A stops being linked at the change, B starts.
      expect(await held(db.sql, f.a, "linked", second(change, -1))).toBe(true);
      expect(await held(db.sql, f.a, "linked", change)).toBe(false);
      expect(await held(db.sql, f.b, "deleteCandidate", second(change, -1))).toBe(true);
      expect(await held(db.sql, f.b, "deleteCandidate", change)).toBe(false);
      expect(await held(db.sql, f.b, "linked", change)).toBe(true);
      // The domain loses its nsset at the change, not when the engine ran.
      expect(await held(db.sql, f.d, "nssetMissing", second(change, -1))).toBe(false);
      expect(await held(db.sql, f.d, "nssetMissing", change)).toBe(true);
      expect(await held(db.sql, f.d, "outzone", change)).toBe(true);
      // Expired at 00:00 local; renewed at 08:00 UTC: expired for exactly that time.
      expect(await held(db.sql, f.e, "expired", "2026-03-02T22:59:59Z")).toBe(false);
      expect(await held(db.sql, f.e, "expired", "2026-03-02T23:00:00Z")).toBe(true);
      expect(await held(db.sql, f.e, "expired", second(change, -1))).toBe(true);
      expect(await held(db.sql, f.e, "expired", change)).toBe(false);

      // A is unlinked from the change on: a delete candidate six months later, at 00:00 CEST (FRED's enum_parameters id 9).
      await runStateEngine(db.sql, { at: new Date("2026-09-04T00:00:00Z") });
      await runStateEngine(db.sql, { at: new Date("2026-09-04T12:00:00Z") });
      expect(await held(db.sql, f.a, "deleteCandidate", "2026-09-02T21:59:59Z")).toBe(false);
      expect(await held(db.sql, f.a, "deleteCandidate", "2026-09-02T22:00:00Z")).toBe(true);
      expect(await historyProblems(db.sql)).toEqual([]);
    });

    it("links a contact from the instant a contact map names it, and unlinks it when the map goes", async () => {
      // After the cursor (12:00, the previous test's last run): history before it is final.
      const contact = await db.sql.transaction(async (tx) => {
        await tx.query("SELECT set_config('registry.state_clock', '2026-09-04T12:05:00Z', true)");
        return createObject(tx, TYPE.contact, "CONTACT-MAPPED", "2026-09-04T12:05:00Z");
      });
      await changeAt(db.sql, "2026-09-04T12:10:00Z", (tx) =>
        tx.query("INSERT INTO domain_contact_map (domainid, contactid, role) VALUES ($1, $2, 1)", [f.d, contact]),
      );
      await changeAt(db.sql, "2026-09-04T12:40:00Z", (tx) => tx.query("DELETE FROM domain_contact_map WHERE contactid = $1", [contact]));
      await runStateEngine(db.sql, { at: new Date("2026-09-04T12:50:00Z") });
      expect(await held(db.sql, contact, "linked", "2026-09-04T12:09:59Z")).toBe(false);
      expect(await held(db.sql, contact, "linked", "2026-09-04T12:10:00Z")).toBe(true);
      expect(await held(db.sql, contact, "linked", "2026-09-04T12:39:59Z")).toBe(true);
      expect(await held(db.sql, contact, "linked", "2026-09-04T12:40:00Z")).toBe(false);
    });

    it("materialises a request's object in the transaction that writes it", async () => {
      const start = "2026-09-04T13:00:00Z";
      await changeAt(db.sql, start, async (tx) => {
        await createRequest(tx, f.d, "serverBlocked", start);
        await runStateEngine(tx, { at: new Date(start), objectId: f.d });
        expect(await held(tx, f.d, "serverBlocked", start)).toBe(true);
      });
      const run = await runStateEngine(db.sql, { at: new Date("2026-09-04T13:05:00Z") });
      expect(run).toMatchObject({ opened: 0, closed: 0 });
      expect(await held(db.sql, f.d, "serverBlocked", start)).toBe(true);
    });

    it.each([
      ["an automatic state", "expired", TYPE.domain, /expired is an automatic state/],
      ["a state not valid for the type", "serverRenewProhibited", TYPE.contact, /serverRenewProhibited is not valid for a contact/],
    ])("refuses a request for %s, whoever inserts it", async (_what, state, type, message) => {
      const objectId = type === TYPE.domain ? f.d : f.a;
      const count = "SELECT count(*)::int AS n FROM object_state_request";
      const [before] = await db.sql.query(count);
      await expect(
        db.sql.query(
          "INSERT INTO object_state_request (object_id, state_id, valid_from) SELECT $1, id, now() AT TIME ZONE 'UTC' FROM enum_object_states WHERE name = $2",
          [objectId, state],
        ),
      ).rejects.toThrow(message);
      expect(await db.sql.query(count)).toEqual([before]);
    });

    it("refuses a request that ends before it starts, also when changed later", async () => {
      await expect(createRequest(db.sql, f.d, "serverUpdateProhibited", "2027-01-02T00:00:00Z", "2027-01-01T00:00:00Z")).rejects.toThrow(
        /the end .* must be after the start/,
      );
      const id = await createRequest(db.sql, f.d, "serverUpdateProhibited", "2027-01-02T00:00:00Z", "2027-01-03T00:00:00Z");
      await expect(db.sql.query("UPDATE object_state_request SET valid_to = valid_from WHERE id = $1", [id])).rejects.toThrow(
        /must be after the start/,
      );
    });

    it("catches a change up with the inputs it had when a state was due before it and no run came", async () => {
      // After the cursor (13:05, the last run so far). Created at 13:10: a contact unlinked
      // since March (a delete candidate from 2026-09-05 00:00 CEST) and a domain expiring on
      // 2026-09-05 (expired from the same instant). No run comes before FRED changes both at 08:00:
      // the contact's object.update, the domain's nsset removed. The triggers run after the change,
      // so they catch up with what each had: the candidacy and the expiry from 22:00Z, nssetMissing
      // only from the change.
      const due = "2026-09-04T22:00:00Z";
      const change = "2026-09-05T08:00:00Z";
      // And a contact linked by one admin contact map row only, with a request of its own due at
      // 02:00Z: the row's removal at 08:00 catches it up as linked.
      const { contact, domain, admin } = await changeAt(db.sql, "2026-09-04T13:10:00Z", async (tx) => {
        const ids = {
          contact: await createObject(tx, TYPE.contact, "DUE-CANDIDATE", "2026-03-05T10:00:00Z"),
          domain: await createDomain(tx, {
            name: "due-expiry.cz",
            crdate: "2025-09-05T10:00:00Z",
            exdate: "2026-09-05",
            registrant: f.b,
            nsset: f.ns,
          }),
          admin: await createObject(tx, TYPE.contact, "DUE-ADMIN", "2026-01-05T10:00:00Z"),
        };
        await tx.query("INSERT INTO domain_contact_map (domainid, contactid, role) VALUES ($1, $2, 1)", [f.d, ids.admin]);
        await createRequest(tx, ids.admin, "validatedContact", "2026-09-05T02:00:00Z");
        return ids;
      });
      expect(await held(db.sql, contact, "deleteCandidate", due)).toBe(false);
      await changeAt(db.sql, change, async (tx) => {
        await tx.query("UPDATE object SET upid = 1, update = $2::timestamptz AT TIME ZONE 'UTC' WHERE id = $1", [contact, change]);
        await tx.query("UPDATE domain SET nsset = NULL WHERE id = $1", [domain]);
        await tx.query("DELETE FROM domain_contact_map WHERE contactid = $1", [admin]);
      });
      expect(await held(db.sql, admin, "validatedContact", "2026-09-05T02:00:00Z")).toBe(true);
      expect(await held(db.sql, admin, "linked", second(change, -1))).toBe(true);
      expect(await held(db.sql, admin, "linked", change)).toBe(false);
      expect(await held(db.sql, contact, "deleteCandidate", second(due, -1))).toBe(false);
      expect(await held(db.sql, contact, "deleteCandidate", due)).toBe(true);
      expect(await held(db.sql, contact, "deleteCandidate", second(change, -1))).toBe(true);
      expect(await held(db.sql, contact, "deleteCandidate", change)).toBe(false);
      expect(await held(db.sql, domain, "expired", due)).toBe(true);
      expect(await held(db.sql, domain, "nssetMissing", second(change, -1))).toBe(false);
      expect(await held(db.sql, domain, "nssetMissing", change)).toBe(true);
      await runStateEngine(db.sql, { at: new Date("2026-09-05T09:00:00Z") });
      expect(await held(db.sql, contact, "deleteCandidate", change)).toBe(false);
      expect(await held(db.sql, domain, "nssetMissing", second(change, -1))).toBe(false);
      expect(await historyProblems(db.sql)).toEqual([]);
    });

    it("ends a delete candidate's candidacy when FRED updates it, at the update, and it begins again the protection period later", async () => {
      // After the cursor (09:00, the previous test's run). A contact unlinked since its creation in
      // 2025: a delete candidate. FRED updates it at 10:00; no run comes until March 2027.
      const contact = await changeAt(db.sql, "2026-09-05T09:30:00Z", (tx) =>
        createObject(tx, TYPE.contact, "CANDIDATE-UPDATED", "2025-01-01T10:00:00Z"),
      );
      await runStateEngine(db.sql, { at: new Date("2026-09-05T09:40:00Z") });
      expect(await held(db.sql, contact, "deleteCandidate", "2026-09-05T09:40:00Z")).toBe(true);
      const update = "2026-09-05T10:00:00Z";
      await changeAt(db.sql, update, (tx) =>
        tx.query("UPDATE object SET upid = 1, update = $2::timestamptz AT TIME ZONE 'UTC' WHERE id = $1", [contact, update]),
      );
      expect(await held(db.sql, contact, "deleteCandidate", second(update, -1))).toBe(true);
      expect(await held(db.sql, contact, "deleteCandidate", update)).toBe(false);
      // Six months after the update's day, at 00:00 in the registry's zone (CET then).
      await runStateEngine(db.sql, { at: new Date("2027-03-06T00:00:00Z") });
      expect(await held(db.sql, contact, "deleteCandidate", "2027-03-04T22:59:59Z")).toBe(false);
      expect(await held(db.sql, contact, "deleteCandidate", "2027-03-04T23:00:00Z")).toBe(true);
      expect(await historyProblems(db.sql)).toEqual([]);
    });

    it("moves a never-updated contact's candidacy later at its first update, writing nothing until a run is due", async () => {
      // After the cursor (2027-03-06T00:00, the previous test's run). Unlinked and never updated
      // (object.update NULL): a delete candidate from 2027-09-06 00:00 CEST, six months after its
      // creation's day. FRED updates it for the first time on 2027-04-10 at 12:00 CEST.
      const created = "2027-03-06T01:00:00Z";
      const contact = await changeAt(db.sql, created, (tx) => createObject(tx, TYPE.contact, "FIRST-UPDATE", created));
      await runStateEngine(db.sql, { at: new Date("2027-03-06T02:00:00Z") });
      const recorded = () =>
        db.sql.query<{ next_at: Date; exact_to: Date }>("SELECT next_at, exact_to FROM console.state_next_event WHERE object_id = $1", [
          contact,
        ]);
      const before = await recorded();
      expect(before[0].next_at).toEqual(new Date("2027-09-05T22:00:00Z"));
      const update = "2027-04-10T10:00:00Z";
      const recomputations = await changeAt(db.sql, update, async (tx) => {
        const calls = await functionCalls(tx, "console.state_changed");
        await tx.query("UPDATE object SET upid = 1, update = $2::timestamptz AT TIME ZONE 'UTC' WHERE id = $1", [contact, update]);
        await tx.query("SET CONSTRAINTS ALL IMMEDIATE"); // the deferred trigger, before the commit
        return calls();
      });
      // Its candidacy only moved later: nothing is computed or written at the update.
      expect(recomputations).toBe(0);
      expect(await recorded()).toEqual(before);
      // The run at the old instant finds nothing to do; the candidacy begins six months after the update's day.
      await runStateEngine(db.sql, { at: new Date("2027-09-06T12:00:00Z") });
      expect(await held(db.sql, contact, "deleteCandidate", "2027-09-05T22:00:00Z")).toBe(false);
      await runStateEngine(db.sql, { at: new Date("2027-10-11T00:00:00Z") });
      expect(await held(db.sql, contact, "deleteCandidate", "2027-10-09T21:59:59Z")).toBe(false);
      expect(await held(db.sql, contact, "deleteCandidate", "2027-10-09T22:00:00Z")).toBe(true);
      expect(await historyProblems(db.sql)).toEqual([]);
    });
  });
});
