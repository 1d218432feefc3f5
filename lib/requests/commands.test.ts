import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { libfredViolations, requestPairs } from "../../testing/libfred";
import { createDomain, createObject, createRequest, registryAt, TYPE } from "../../testing/registry";
import { actAs, signedInAs } from "../../testing/sessions";
import { english, InputError } from "../actions/result";
import { AccessError } from "../auth/guard";
import type { RequestContext } from "../auth/request-context";
import type { Database } from "../db/client";
import { formatInstant } from "../format/datetime";
import { objectDetail } from "../objects/detail";
import { cancelStateRequest } from "./cancel";
import { createStateRequest } from "./create";
import { previewStateRequest } from "./preview";
import { listRequests } from "./read";

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(testBackends())("manual state requests on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let operator: RequestContext;
  let support: RequestContext;
  const ids: Record<string, number> = {};
  let n = 0;

  beforeAll(async () => {
    ({ db, drop } = await registryAt(backend, new Date(), async (tx) => {
      ids.HOLDER = await createObject(tx, TYPE.contact, "HOLDER", "2020-01-01T00:00:00Z");
      const ns = await createObject(tx, TYPE.nsset, "NS-1", "2020-01-01T00:00:00Z");
      for (const name of ["a.cz", "b.cz", "c.cz", "d.cz", "e.cz", "race.cz", "gone.cz"])
        ids[name] = await createDomain(tx, {
          name,
          crdate: "2021-01-01T00:00:00Z",
          exdate: "2030-01-01",
          registrant: ids.HOLDER,
          nsset: ns,
        });
      await tx.query("UPDATE object_registry SET erdate = '2026-01-01T00:00:00Z' WHERE id = $1", [ids["gone.cz"]]);
    }));
    operator = await signedInAs(db, "operator");
    support = await signedInAs(db, "support");
  });
  afterAll(() => drop());

  const create = (input: Record<string, unknown>, as = operator) =>
    actAs(as, () => createStateRequest({ reason: "test", idempotencyKey: randomUUID(), ...input }));
  const cancel = (input: Record<string, unknown>, as = operator) => actAs(as, () => cancelStateRequest({ reason: "done", ...input }));
  const requests = async () => (await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM object_state_request"))[0].n;
  const openState = async (object: string, state: string) =>
    (
      await db.sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
          WHERE os.object_id = $1 AND s.name = $2 AND os.valid_to IS NULL`,
        [ids[object], state],
      )
    )[0].n === 1;

  /** The call is refused with `message` and writes no request. */
  async function refused(call: Promise<unknown>, message: RegExp | string) {
    // The call is already under way: take its outcome at once, so an early refusal is never unhandled.
    const outcome = call.then(
      () => null,
      (e: unknown) => e,
    );
    const before = await requests();
    const error = await outcome;
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(message);
    expect(await requests()).toBe(before);
  }

  it("schedules a future request, which waits; one starting now holds at once", async () => {
    const start = Date.now() + 7 * DAY;
    const future = await create({
      objectId: ids["a.cz"],
      state: "serverOutzoneManual",
      from: iso(start),
      to: iso(start + 7 * DAY),
      reason: "court order",
    });
    expect(english(future.message)).toMatch(/^Request \d+: serverOutzoneManual on a\.cz from \d{4}-\d{2}-\d{2} \d{2}:\d{2} CES?T until /);
    expect(await openState("a.cz", "serverOutzoneManual")).toBe(false);
    const [meta] = await db.sql.query<{ author: string; reason: string }>(
      `SELECT m.author, rr.reason_creation AS reason FROM console.request_meta m
         JOIN object_state_request_reason rr ON rr.object_state_request_id = m.request_id WHERE m.request_id = $1`,
      [future.requestId],
    );
    expect(meta.reason).toBe("court order");
    expect(meta.author).toMatch(/^operator-/);

    await create({ objectId: ids["b.cz"], state: "serverTransferProhibited" });
    expect(await openState("b.cz", "serverTransferProhibited")).toBe(true);
    // A start a few seconds ago is taken as now.
    await create({ objectId: ids["b.cz"], state: "serverDeleteProhibited", from: iso(Date.now() - 5_000) });
    expect(await openState("b.cz", "serverDeleteProhibited")).toBe(true);
    const [entry] = await db.sql.query<{ action: string; object_ids: number[] }>(
      "SELECT action, object_ids FROM console.audit_log WHERE action = 'request.create' AND result = 'ok' ORDER BY id DESC LIMIT 1",
    );
    expect(entry.object_ids).toEqual([ids["b.cz"]]);
  });

  it("previews what a request would do by the registry's own rules, and writes nothing", async () => {
    const preview = (input: Record<string, unknown>) => actAs(operator, () => previewStateRequest({ reason: "preview", ...input }));
    const before = await requests();
    const start = Date.now() + 10 * DAY;
    const out = await preview({ objectId: ids["e.cz"], state: "serverOutzoneManual", from: iso(start), to: iso(start + DAY) });
    expect(out.lines).toHaveLength(2);
    expect(out.lines[0]).toMatch(/^e\.cz gets (serverOutzoneManual|outzone) \(.*\) on \d{4}-\d{2}-\d{2} \d{2}:\d{2} CES?T until /);
    expect(out.lines.join(" ")).toContain("gets outzone (The domain isn't generated in the zone) on ");
    const transfer = await preview({ objectId: ids["e.cz"], state: "serverTransferProhibited" });
    expect(transfer.lines).toEqual([
      "e.cz gets serverTransferProhibited (Sponsoring registrar change forbidden) now, with no end; EPP transfer refused.",
    ]);
    await expect(
      preview({ objectId: ids["e.cz"], state: "serverRegistrantChangeProhibited", from: iso(start + DAY), to: iso(start) }),
    ).rejects.toThrow(/is not after the start/);
    expect(await requests()).toBe(before);
  });

  it("refuses every broken rule with its own message and writes nothing", async () => {
    const soon = Date.now() + DAY;
    await refused(create({ objectId: ids.HOLDER, state: "serverRenewProhibited" }), "serverRenewProhibited does not apply to a contact.");
    // serverBlocked is the block's (with its prohibitions), never a request of its own.
    await refused(
      create({ objectId: ids["c.cz"], state: "serverBlocked" }),
      "c.cz is blocked with the Block action (serverBlocked together with its prohibitions), not with a request for serverBlocked.",
    );
    await refused(create({ objectId: ids["c.cz"], state: "outzone" }), /^outzone is automatic: the state engine sets it/);
    await refused(create({ objectId: ids["c.cz"], state: "noSuchState" }), "There is no state “noSuchState”.");
    await refused(
      create({ objectId: ids["c.cz"], state: "serverRegistrantChangeProhibited", to: iso(Date.now() - DAY) }),
      /^The end .* is in the past\.$/,
    );
    await refused(
      create({ objectId: ids["c.cz"], state: "serverRegistrantChangeProhibited", from: iso(soon + DAY), to: iso(soon) }),
      /^The end .* is not after the start /,
    );
    await refused(
      create({ objectId: ids["c.cz"], state: "serverRegistrantChangeProhibited", from: iso(Date.now() - DAY) }),
      /^The start .* is in the past; requests start now or later\.$/,
    );
    await refused(
      create({ objectId: ids["c.cz"], state: "serverRegistrantChangeProhibited", from: "2026-02-30T10:00" }),
      "The start “2026-02-30T10:00” is not a date and time.",
    );
    await refused(
      create({ objectId: ids["gone.cz"], state: "serverRegistrantChangeProhibited" }),
      /^gone\.cz was deleted on .*; deleted objects take no requests\.$/,
    );
    await refused(create({ objectId: 999_999, state: "serverRegistrantChangeProhibited" }), "There is no object with id 999999.");
    await refused(create({ objectId: "1 OR 1=1", state: "serverRegistrantChangeProhibited" }), "Unknown object.");
    await refused(
      create({ objectId: ids["c.cz"], state: "serverRegistrantChangeProhibited", reason: "x".repeat(301) }),
      "Reasons have at most 300 characters.",
    );
    await refused(create({ objectId: ids["c.cz"], state: "serverRegistrantChangeProhibited", reason: "   " }), "Give a reason.");

    const first = await create({
      objectId: ids["c.cz"],
      state: "serverRegistrantChangeProhibited",
      from: iso(soon),
      to: iso(soon + 10 * DAY),
    });
    await refused(
      create({ objectId: ids["c.cz"], state: "serverRegistrantChangeProhibited", from: iso(soon + 5 * DAY) }),
      new RegExp(
        `^c\\.cz already has request ${first.requestId} for serverRegistrantChangeProhibited \\(.*\\); two requests for one state may not overlap\\.$`,
      ),
    );
    // Back to back is not an overlap.
    await create({
      objectId: ids["c.cz"],
      state: "serverRegistrantChangeProhibited",
      from: iso(soon + 10 * DAY),
      to: iso(soon + 11 * DAY),
    });

    const out = await create({ objectId: ids["d.cz"], state: "serverOutzoneManual", from: iso(soon), to: iso(soon + 3 * DAY) });
    await refused(
      create({ objectId: ids["d.cz"], state: "serverInzoneManual", from: iso(soon + DAY) }),
      new RegExp(
        `^d\\.cz has request ${out.requestId} for serverOutzoneManual .*; a domain cannot be kept in and out of the zone at the same time\\.$`,
      ),
    );
    const denied = await actAs(support, () =>
      createStateRequest({ objectId: ids["d.cz"], state: "serverRegistrantChangeProhibited", reason: "x" }),
    ).catch((e) => e);
    expect(denied).toBeInstanceOf(AccessError);
    expect(denied.status).toBe(403);
    const [{ refusals }] = await db.sql.query<{ refusals: number }>(
      "SELECT count(*)::int AS refusals FROM console.audit_log WHERE action = 'request.create' AND result = 'refused'",
    );
    expect(refusals).toBeGreaterThanOrEqual(14);
  });

  it("refuses a start or an end more than 100 years from now, saying so; the audit log keeps the message to say it in Czech", async () => {
    await refused(
      create({ objectId: ids["c.cz"], state: "serverRegistrantChangeProhibited", from: "9999-01-01T10:00" }),
      /^The start .*9999.* is more than 100 years from now; requests start and end by .*21\d\d.*\.$/,
    );
    await refused(
      create({ objectId: ids["c.cz"], state: "serverRegistrantChangeProhibited", to: "9999-12-31" }),
      /^The end .*9999.* is more than 100 years from now; requests end by .*21\d\d.* \(leave the end empty for a request with no end\)\.$/,
    );
    // A start in the far past is in the past, as any other.
    await refused(
      create({ objectId: ids["c.cz"], state: "serverRegistrantChangeProhibited", from: "1800-01-01" }),
      /^The start .* is in the past; requests start now or later\.$/,
    );
    const [{ input }] = await db.sql.query<{ input: { error: string; errorMessage: { key: string } } }>(
      "SELECT input FROM console.audit_log WHERE action = 'request.create' AND result = 'refused' AND input->>'error' LIKE '%9999%' ORDER BY id DESC LIMIT 1",
    );
    expect(input.error).toMatch(/^The end .* is more than 100 years from now/);
    expect(input.errorMessage.key).toBe("request.endTooFar");
    const { shownInput } = await import("../audit/said");
    expect(Object.fromEntries(shownInput(input, "cs")).error).toMatch(
      /^Konec .* je více než 100 let od nynějška; požadavky končí nejpozději /,
    );
  });

  it("refuses bad input sent straight to the server action, with the message and nothing written", async () => {
    const { createRequestAction } = await import("../../app/objects/[id]/actions");
    const send = (fields: Record<string, string>) => {
      const form = new FormData();
      for (const [key, value] of Object.entries({ reason: "direct", idempotencyKey: randomUUID(), ...fields })) form.set(key, value);
      return actAs(operator, () => createRequestAction(null, form));
    };
    const before = await requests();
    expect(await send({ objectId: String(ids.HOLDER), state: "serverOutzoneManual" })).toEqual({
      ok: false,
      code: "invalid",
      error: "serverOutzoneManual does not apply to a contact.",
      fieldErrors: { state: ["Not for this type."] },
    });
    expect(await send({ objectId: "-1", state: "serverRegistrantChangeProhibited" })).toMatchObject({
      ok: false,
      code: "invalid",
      error: "Unknown object.",
    });
    expect(await send({ objectId: String(ids["c.cz"]), state: "expired" })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/automatic/),
    });
    expect(await send({ objectId: String(ids["c.cz"]), state: "serverRegistrantChangeProhibited", reason: "" })).toMatchObject({
      ok: false,
      error: "Give a reason.",
    });
    expect(await actAs(support, () => createRequestAction(null, new FormData()))).toMatchObject({ ok: false, code: "forbidden" });
    expect(await requests()).toBe(before);
  });

  it("keeps the overlap rules in the database for writers that skip the checks", async () => {
    const [{ state }] = await db.sql.query<{ state: number }>(
      "SELECT id AS state FROM enum_object_states WHERE name = 'serverUpdateProhibited'",
    );
    await db.sql.query(
      "INSERT INTO object_state_request (object_id, state_id, valid_from) VALUES ($1, $2, now() AT TIME ZONE 'UTC' + interval '1 day')",
      [ids["e.cz"], state],
    );
    await expect(
      db.sql.query(
        "INSERT INTO object_state_request (object_id, state_id, valid_from) VALUES ($1, $2, now() AT TIME ZONE 'UTC' + interval '2 days')",
        [ids["e.cz"], state],
      ),
    ).rejects.toMatchObject({ code: "23P01" });
    // Canceled before it started: it holds nowhere, so it overlaps nothing.
    await db.sql.query(
      "INSERT INTO object_state_request (object_id, state_id, valid_from, canceled) VALUES ($1, $2, now() + interval '2 days', now())",
      [ids["e.cz"], state],
    );
  });

  it("writes requests for 8,000 objects in one transaction (more than the server's lock table holds)", async () => {
    // A bulk block may write up to BULK_MAX (10,000) objects' requests at once; the rules' lock is
    // one of 512 per object id, not one per object, so the transaction never runs out of locks.
    await db.sql.transaction(async (tx) => {
      // Made in bulk like the demo loader: no engine run per new domain.
      await tx.query("SELECT set_config('registry.state_marks', 'off', true)");
      await tx.query(
        `WITH o AS (
           INSERT INTO object_registry (roid, type, name, crid, crdate)
           SELECT 'ROID-LOCK-' || g, r.type, 'lock-' || g || '.cz', r.crid, r.crdate
             FROM generate_series(1, 8000) g, object_registry r WHERE r.id = $1
           RETURNING id),
         ob AS (INSERT INTO object (id, clid) SELECT o.id, x.clid FROM o, object x WHERE x.id = $1)
         INSERT INTO domain (id, zone, registrant, exdate) SELECT o.id, d.zone, d.registrant, d.exdate FROM o, domain d WHERE d.id = $1`,
        [ids["a.cz"]],
      );
    });
    const written = await db.sql.transaction(async (tx) => {
      // The rules' checks, without the engine's run per object (the bulk action's cost, not this test's).
      await tx.query("SELECT set_config('registry.state_marks', 'off', true)");
      return tx.query<{ n: number }>(
        `WITH w AS (
           INSERT INTO object_state_request (object_id, state_id, valid_from)
           SELECT o.id, s.id, now() AT TIME ZONE 'UTC' + interval '1 day'
             FROM object_registry o, enum_object_states s WHERE o.name LIKE 'lock-%.cz' AND s.name = 'serverRenewProhibited'
           RETURNING 1)
         SELECT count(*)::int AS n FROM w`,
      );
    });
    expect(written).toEqual([{ n: 8000 }]);
    // Out of the way of the listing tests below.
    await db.sql.transaction(async (tx) => {
      await tx.query("SELECT set_config('registry.state_marks', 'off', true)");
      await tx.query("DELETE FROM object_state_request r USING object_registry o WHERE o.id = r.object_id AND o.name LIKE 'lock-%.cz'");
    });
  });

  it("cancels a future request so it never holds, and one in force so its state closes at once", async () => {
    const start = Date.now() + 3 * DAY;
    const future = await create({ objectId: ids["e.cz"], state: "serverRegistrantChangeProhibited", from: iso(start) });
    expect(english((await cancel({ requestId: future.requestId })).message)).toBe(
      `Request ${future.requestId} canceled: serverRegistrantChangeProhibited on e.cz will not take effect.`,
    );
    // Stored as FRED's programs can read it: canceled at its start, an empty period, so FRED can
    // request the state again (libfred's rules); the real instant and the person are the console's.
    const stored = async (id: number) =>
      (
        await db.sql.query<{ valid_from: Date; canceled: Date; canceled_at: Date; by: string; audited: string }>(
          `SELECT r.valid_from, r.canceled, m.canceled_at, m.canceled_by AS by,
                  (SELECT a.input->>'canceledAt' FROM console.audit_log a
                    WHERE a.action = 'request.cancel' AND a.result = 'ok' AND (a.input->>'requestId')::int = r.id) AS audited
             FROM object_state_request r JOIN console.request_meta m ON m.request_id = r.id WHERE r.id = $1`,
          [id],
        )
      )[0];
    const futureRow = await stored(future.requestId);
    expect(futureRow.canceled).toEqual(futureRow.valid_from);
    expect(futureRow.canceled_at.getTime()).toBeLessThan(start - DAY);
    expect(futureRow.canceled_at.getTime()).toBeGreaterThan(Date.now() - DAY);
    expect(futureRow.by).toMatch(/^operator-/);
    expect(futureRow.audited).toBe(futureRow.canceled_at.toISOString());
    expect(await libfredViolations(db.sql, await requestPairs(db.sql, [future.requestId]))).toEqual([]);
    // Shown with the instant it was canceled, not its start, in the list, on the object page and
    // when canceled again.
    const listed = (await actAs(support, () => listRequests({ id: String(future.requestId) }))).rows[0];
    expect(listed).toMatchObject({ phase: "canceled", canceled: futureRow.canceled_at.toISOString() });
    const detail = (await actAs(support, () => objectDetail(ids["e.cz"])))?.requests.find((r) => r.id === future.requestId);
    expect(detail).toMatchObject({ status: "canceled", canceled: futureRow.canceled_at.toISOString() });
    await expect(cancel({ requestId: future.requestId })).rejects.toThrow(
      `Request ${future.requestId} was already canceled on ${formatInstant(futureRow.canceled_at)}.`,
    );
    // The slot is free again.
    await create({ objectId: ids["e.cz"], state: "serverRegistrantChangeProhibited", from: iso(start), to: iso(start + DAY) });

    const now = await create({ objectId: ids["e.cz"], state: "serverTransferProhibited" });
    expect(await openState("e.cz", "serverTransferProhibited")).toBe(true);
    expect(english((await cancel({ requestId: now.requestId, reason: "registrant asked" })).message)).toBe(
      `Request ${now.requestId} canceled: serverTransferProhibited on e.cz ended now.`,
    );
    expect(await openState("e.cz", "serverTransferProhibited")).toBe(false);
    const [row] = await db.sql.query<{ reason: string; by: string }>(
      `SELECT rr.reason_cancellation AS reason, m.canceled_by AS by FROM object_state_request_reason rr
         JOIN console.request_meta m ON m.request_id = rr.object_state_request_id WHERE rr.object_state_request_id = $1`,
      [now.requestId],
    );
    expect(row.reason).toBe("registrant asked");
    expect(row.by).toMatch(/^operator-/);
    // In force: canceled at the instant itself, which the metadata and the audit row repeat.
    const nowRow = await stored(now.requestId);
    expect(nowRow.canceled.getTime()).toBeGreaterThanOrEqual(nowRow.valid_from.getTime());
    expect(nowRow.canceled_at).toEqual(nowRow.canceled);
    expect(nowRow.audited).toBe(nowRow.canceled.toISOString());
    expect(await libfredViolations(db.sql, await requestPairs(db.sql, [now.requestId]))).toEqual([]);
    await expect(cancel({ requestId: now.requestId })).rejects.toThrow(/^Request \d+ was already canceled on /);
    await expect(cancel({ requestId: 999_999 })).rejects.toThrow("There is no request 999999.");
    await expect(cancel({ requestId: now.requestId, reason: "" })).rejects.toThrow("Give a reason.");
    await expect(cancel({ requestId: future.requestId }, support)).rejects.toBeInstanceOf(AccessError);
  });

  it("lists requests across objects by phase, state, author and the next 7 days", async () => {
    const list = (params: Record<string, string>) => actAs(support, () => listRequests(params));
    const soon = await create({ objectId: ids["d.cz"], state: "serverDeleteProhibited", from: iso(Date.now() + 2 * DAY), reason: "soon" });
    const scheduled = await list({ phase: "scheduled" });
    expect(scheduled.rows.map((r) => r.id)).toContain(soon.requestId);
    expect(scheduled.rows.every((r) => r.phase === "scheduled")).toBe(true);
    // In force now and ending in 5 days: in the next 7 days by its end, after one starting in 2.
    const ending = await create({ objectId: ids["c.cz"], state: "serverRenewProhibited", to: iso(Date.now() + 5 * DAY), reason: "ends" });
    const upcoming = await list({ upcoming: "1" });
    const order = upcoming.rows.map((r) => r.id);
    expect(order.indexOf(soon.requestId)).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(ending.requestId)).toBeGreaterThan(order.indexOf(soon.requestId));
    // Soonest first: each row by its start if that is still ahead, else by its end.
    const events = upcoming.rows.map((r) => (Date.parse(r.from) > Date.now() ? r.from : (r.to as string)));
    expect([...events].sort()).toEqual(events);
    const row = (await list({ state: "serverDeleteProhibited", author: scheduled.rows[0].author ?? "" })).rows.find(
      (r) => r.id === soon.requestId,
    );
    expect(row).toMatchObject({ object: "d.cz", reason: "soon", phase: "scheduled" });
    expect((await list({ phase: "canceled" })).rows.every((r) => r.canceled !== null)).toBe(true);
    expect((await list({ phase: "someday", state: "outzone" })).notices.map(english)).toEqual([
      "Phase “someday” is not one of scheduled, in force, ended, canceled; all phases are shown.",
      "“outzone” is not a manual state; all states are shown.",
    ]);
  });

  it("orders the list as the URL says, and pages through every request in that order", async () => {
    const list = (params: Record<string, string>) => actAs(support, () => listRequests(params));
    // More than a page: 60 past requests of one domain, one a day, each for half a day.
    for (let i = 0; i < 60; i++)
      await createRequest(
        db.sql,
        ids["c.cz"],
        "serverTransferProhibited",
        iso(Date.UTC(2019, 0, 1) + i * DAY),
        iso(Date.UTC(2019, 0, 1) + i * DAY + DAY / 2),
      );
    const [{ n }] = await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM object_state_request");
    const walk = async (sort: string) => {
      const rows: { id: number; from: string }[] = [];
      let page = await list({ sort });
      for (;;) {
        expect(page.notices).toEqual([]);
        expect(page.filter.sort).toBe(sort);
        rows.push(...page.rows);
        if (!page.next) return rows;
        page = await list({ sort, after: page.next });
      }
    };
    const byStart = await walk("start");
    expect(byStart).toHaveLength(n);
    const starts = byStart.map((r) => `${r.from}_${String(r.id).padStart(9, "0")}`);
    expect([...starts].sort()).toEqual(starts);
    const newestStart = await walk("-start");
    expect(newestStart.map((r) => r.id)).toEqual(byStart.map((r) => r.id).reverse());
    const byId = (await walk("id")).map((r) => r.id);
    expect(byId).toEqual([...byId].sort((a, b) => a - b));
    expect(byId).toHaveLength(n);
    expect((await walk("-id")).map((r) => r.id)).toEqual([...byId].reverse());
    // An unknown order is said and the default used; "upcoming" keeps its own order.
    const bad = await list({ sort: "author" });
    expect(bad.filter.sort).toBe("-start");
    expect(bad.notices.map(english)).toEqual(["The order “author” is not one of -start, start, -id, id; newest start first."]);
    expect((await list({ sort: "start", after: "12" })).notices.map(english)).toHaveLength(1);
  });

  it("creates one request for one form submission, however often it is sent", async () => {
    const key = randomUUID();
    const input = { objectId: ids["a.cz"], state: "serverUpdateProhibited", idempotencyKey: key };
    const before = await requests();
    const results = await Promise.all([create(input), create(input), create(input)]);
    expect(await requests()).toBe(before + 1);
    expect(new Set(results.map((r) => r.requestId)).size).toBe(1);
    expect(results.filter((r) => r.repeated)).toHaveLength(2);
  });

  it("lets exactly one of many simultaneous overlapping requests through", async () => {
    const start = Date.now() + 2 * DAY;
    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        create({
          objectId: ids["race.cz"],
          state: "serverRegistrantChangeProhibited",
          from: iso(start + i * 60_000),
          to: iso(start + DAY),
          reason: `attempt ${++n}`,
        }),
      ),
    );
    expect(attempts.filter((a) => a.status === "fulfilled")).toHaveLength(1);
    const failures = attempts.filter((a): a is PromiseRejectedResult => a.status === "rejected").map((a) => a.reason);
    expect(failures).toHaveLength(7);
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(InputError);
      expect(failure.message).toMatch(/overlap/);
    }
    const [{ overlaps }] = await db.sql.query<{ overlaps: number }>(
      `SELECT count(*)::int AS overlaps FROM object_state_request a JOIN object_state_request b
          ON a.object_id = b.object_id AND a.state_id = b.state_id AND a.id < b.id
         AND console.request_period(a.valid_from, a.valid_to, a.canceled) && console.request_period(b.valid_from, b.valid_to, b.canceled)`,
    );
    expect(overlaps).toBe(0);
  });
});
