import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { libfredViolations as violations } from "../../testing/libfred";
import { createDomain, createObject, registryAt, TYPE } from "../../testing/registry";
import { actAs, signedInAs } from "../../testing/sessions";
import { english, InputError } from "../actions/result";
import type { RequestContext } from "../auth/request-context";
import { readConfig } from "../config";
import type { Database } from "../db/client";
import type { SqlExecutor } from "../db/driver";
import { wallTime } from "../format/instant";
import { objectDetail } from "../objects/detail";
import { blockObject } from "./block";
import { currentBlock } from "./block-rules";
import { cancelStateRequest } from "./cancel";
import { changeBlock } from "./change-block";
import { createStateRequest } from "./create";
import { unblockObject } from "./unblock";

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

// FRED's own programs, as the SQL they run (fred-libfred 7.0, fred-server administrativeblocking.cc;
// written here from reading them, not copied). FRED keeps UTC in its timestamp columns, so its
// transactions here run in UTC. LockObjectStateRequestLock is left out: one writer at a time here.

/** The libfred exception for a stored row or overlap CreateObjectStateRequestId refuses, as an Error. */
async function fredCreateRequests(tx: SqlExecutor, objectId: number, states: string[], validTo: string | null): Promise<number[]> {
  // CreateObjectStateRequestId: states manual and valid for the type, then the overlap test over
  // every stored row of those states as [valid_from, LEAST(canceled, valid_to)).
  const valid = await tx.query<{ name: string }>(
    `SELECT eos.name FROM enum_object_states eos JOIN object_registry obr ON obr.type = ANY (types)
      WHERE obr.id = $1 AND eos.manual AND eos.name = ANY ($2::text[])`,
    [objectId, states],
  );
  if (valid.length !== states.length) throw new Error(`libfred state_not_found: ${states.join(", ")}`);
  const [bad] = await tx.query<{ obj_valid_from: Date; obj_valid_to: Date | null }>(
    `SELECT obj_valid_from, obj_valid_to, new_valid_from, new_valid_to FROM (
       SELECT valid_from AS obj_valid_from, LEAST(canceled, valid_to) AS obj_valid_to,
              CURRENT_TIMESTAMP::timestamp AS new_valid_from, $3::timestamp AS new_valid_to
         FROM object_state_request
        WHERE object_id = $1 AND state_id IN (SELECT id FROM enum_object_states WHERE name = ANY ($2::text[]))) AS obj_state
      WHERE obj_valid_to < obj_valid_from
         OR (obj_valid_from <= new_valid_from AND (new_valid_from < obj_valid_to OR obj_valid_to IS NULL))
         OR ((obj_valid_from < new_valid_to OR new_valid_to IS NULL) AND (new_valid_to <= obj_valid_to OR obj_valid_to IS NULL))
      LIMIT 1`,
    [objectId, states, validTo],
  );
  if (bad)
    throw new Error(bad.obj_valid_to && bad.obj_valid_to < bad.obj_valid_from ? "libfred out_of_turn" : "libfred overlayed_time_intervals");
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO object_state_request (object_id, state_id, crdate, valid_from, valid_to)
     SELECT $1, id, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, $3::timestamp FROM enum_object_states WHERE name = ANY ($2::text[]) RETURNING id`,
    [objectId, states, validTo],
  );
  return rows.map((r) => r.id);
}

/** ClearObjectStateRequestId: cancels the object's server* requests in force. */
async function fredClear(tx: SqlExecutor, objectId: number): Promise<number[]> {
  const rows = await tx.query<{ id: number }>(
    `UPDATE object_state_request SET canceled = CURRENT_TIMESTAMP
      WHERE canceled IS NULL AND object_id = $1 AND valid_from <= CURRENT_TIMESTAMP
        AND (valid_to IS NULL OR CURRENT_TIMESTAMP < valid_to)
        AND (SELECT 0 FROM enum_object_states eos WHERE eos.id = state_id AND eos.manual AND eos.name LIKE 'server%' LIMIT 1) IS NOT NULL
     RETURNING id`,
    [objectId],
  );
  return rows.map((r) => r.id);
}

/** In one FRED transaction (UTC session), then PerformObjectStateRequest as FRED calls it. */
async function fred<T>(db: Database, objectId: number, work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  return db.sql.transaction(async (tx) => {
    await tx.query("SET LOCAL TIME ZONE 'UTC'");
    const result = await work(tx);
    await tx.run("SELECT update_object_states($1)", [objectId]);
    return result;
  });
}

/** blockDomainsId for one domain, KEEP_OWNER: CreateAdminObjectBlockRequestId with `to` at 12:00:00 and the reason. */
const fredBlock = (db: Database, objectId: number, states: string[], toDate: string | null, reason: string) =>
  fred(db, objectId, async (tx) => {
    const [present] = await tx.query(
      `SELECT 1 FROM object_state WHERE object_id = $1 AND state_id = 7 AND valid_from <= CURRENT_TIMESTAMP
          AND (valid_to IS NULL OR CURRENT_TIMESTAMP < valid_to) LIMIT 1`,
      [objectId],
    );
    if (present) throw new Error("libfred server_blocked_present");
    await fredClear(tx, objectId);
    const ids = await fredCreateRequests(tx, objectId, [...states, "serverBlocked"], toDate ? `${toDate} 12:00:00` : null);
    await tx.query(
      `INSERT INTO object_state_request_reason (object_state_request_id, reason_creation, reason_cancellation)
       SELECT osr.id, $1, NULL FROM object_state_request osr JOIN enum_object_states eos ON eos.id = osr.state_id
        WHERE osr.valid_from <= CURRENT_TIMESTAMP AND (osr.valid_to IS NULL OR CURRENT_TIMESTAMP <= osr.valid_to)
          AND osr.canceled IS NULL AND osr.object_id = $2 AND eos.name = 'serverBlocked' ORDER BY osr.id DESC LIMIT 1`,
      [reason, objectId],
    );
    return ids;
  });

/** restorePreAdministrativeBlockStatesId for one object: CreateAdminObjectStateRestoreRequestId. */
const fredRestore = (db: Database, objectId: number, reason: string) =>
  fred(db, objectId, async (tx) => {
    const [present] = await tx.query(
      `SELECT 1 FROM object_state WHERE object_id = $1 AND state_id = 7 AND valid_from <= CURRENT_TIMESTAMP
          AND (valid_to IS NULL OR CURRENT_TIMESTAMP < valid_to) LIMIT 1`,
      [objectId],
    );
    if (!present) throw new Error("libfred server_blocked_absent");
    // serverBlocked history newest first: the row in force, then back to the start of its sequence.
    const history = await tx.query<{ id: number; current: boolean; follow_up: boolean }>(
      `SELECT os.id, os.valid_to IS NULL OR CURRENT_TIMESTAMP <= os.valid_to AS current,
              COALESCE((SELECT valid_to FROM object_state WHERE object_id = $1 AND state_id = 7 AND valid_from < os.valid_from
                         ORDER BY valid_from DESC LIMIT 1) = os.valid_from, false) AS follow_up
         FROM object_state os WHERE os.object_id = $1 AND os.state_id = 7 ORDER BY os.valid_from DESC`,
      [objectId],
    );
    let i = history.findIndex((h) => h.current);
    while (i >= 0 && i < history.length && history[i].follow_up) i++;
    const previous =
      i >= 0 && i < history.length
        ? (
            await tx.query<{ name: string }>(
              `SELECT eos.name FROM (SELECT object_id, valid_from FROM object_state WHERE id = $1) oss
                 JOIN object_state os ON os.object_id = oss.object_id AND os.valid_from < oss.valid_from
                                     AND (os.valid_to IS NULL OR oss.valid_from <= os.valid_to)
                 JOIN enum_object_states eos ON eos.id = os.state_id
                WHERE eos.manual AND name LIKE 'server%'`,
              [history[i].id],
            )
          ).map((r) => r.name)
        : [];
    // ClearAdminObjectStateRequestId: one of the canceled requests must be serverBlocked; its reason.
    const canceled = await fredClear(tx, objectId);
    const [blocked] = await tx.query<{ id: number }>(
      `SELECT osr.id FROM object_state_request osr JOIN enum_object_states eos ON eos.id = osr.state_id
        WHERE osr.id = ANY ($1::int[]) AND eos.name = 'serverBlocked' LIMIT 1`,
      [canceled],
    );
    if (!blocked) throw new Error("libfred server_blocked_absent");
    await tx.query("UPDATE object_state_request_reason SET reason_cancellation = $1 WHERE object_state_request_id = $2", [
      reason,
      blocked.id,
    ]);
    const restored = previous.length ? await fredCreateRequests(tx, objectId, [...new Set(previous)], null) : [];
    return { previous: [...new Set(previous)].sort(), canceled, restored };
  });

/**
 * The object's request rows libfred's CreateObjectStateRequestId refuses to go past (the shared
 * oracle, testing/libfred.ts): any row ending before it begins, for every state the object has
 * requests for, and for `free` states a row a new request from now with no end would overlap.
 */
async function libfredViolations(db: Database, objectId: number, free: string[]) {
  const states = await db.sql.query<{ id: number; name: string }>(
    `SELECT s.id, s.name FROM enum_object_states s
      WHERE s.name = ANY ($2::text[]) OR s.id IN (SELECT r.state_id FROM object_state_request r WHERE r.object_id = $1)`,
    [objectId, free],
  );
  return violations(
    db.sql,
    states.map((s) => ({ objectId, stateId: s.id, acceptsNew: free.includes(s.name) })),
  );
}

describe.each(testBackends())("administrative blocking on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let operator: RequestContext;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    ({ db, drop } = await registryAt(backend, new Date(), async (tx) => {
      const holder = await createObject(tx, TYPE.contact, "HOLDER", "2020-01-01T00:00:00Z");
      for (const name of [
        "now.cz",
        "later.cz",
        "nsset-less.cz",
        "changed.cz",
        "fred-lift.cz",
        "fred-change.cz",
        "fred-restores.cz",
        "ahead.cz",
        "kept.cz",
      ])
        ids[name] = await createDomain(tx, { name, crdate: "2021-01-01T00:00:00Z", exdate: "2030-01-01", registrant: holder, nsset: null });
      ids.NSSET = await createObject(tx, TYPE.nsset, "NS-BLOCK", "2020-01-01T00:00:00Z");
    }));
    operator = await signedInAs(db, "operator");
  });
  afterAll(() => drop());

  const as = <T>(work: () => Promise<T>) => actAs(operator, work);
  const open = async (object: string) =>
    (
      await db.sql.query<{ name: string }>(
        `SELECT s.name FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
          WHERE os.object_id = $1 AND os.valid_to IS NULL AND s.manual ORDER BY s.id`,
        [ids[object]],
      )
    ).map((r) => r.name);

  it("blocks now with the default prohibitions, takes over a prohibition in force, refuses changes outside the block, and restores on unblock", async () => {
    const earlier = await as(() =>
      createStateRequest({
        objectId: ids["now.cz"],
        state: "serverTransferProhibited",
        to: iso(Date.now() + 30 * DAY),
        reason: "registrant dispute",
        idempotencyKey: randomUUID(),
      }),
    );
    expect(await open("now.cz")).toEqual(["serverTransferProhibited"]);

    const block = await as(() => blockObject({ objectId: ids["now.cz"], reason: "court order" }));
    expect(english(block.message)).toMatch(
      /^Block \d+: now\.cz blocked from now with no end \(serverBlocked, serverDeleteProhibited, serverTransferProhibited, serverUpdateProhibited\)\.$/,
    );
    expect(await open("now.cz")).toEqual(["serverDeleteProhibited", "serverTransferProhibited", "serverUpdateProhibited", "serverBlocked"]);

    // While blocked, server* states change only through the block.
    await expect(
      as(() =>
        createStateRequest({
          objectId: ids["now.cz"],
          state: "serverRegistrantChangeProhibited",
          reason: "x",
          idempotencyKey: randomUUID(),
        }),
      ),
    ).rejects.toThrow(/^now\.cz is administratively blocked \(block \d+, .*\); its server\* states change only through the block/);
    const [{ id: blockRequest }] = await db.sql.query<{ id: number }>(
      "SELECT request_id AS id FROM console.request_meta WHERE block_id = $1 LIMIT 1",
      [block.blockId],
    );
    await expect(as(() => cancelStateRequest({ requestId: blockRequest, reason: "x" }))).rejects.toThrow(
      `Request ${blockRequest} is part of block ${block.blockId}; lift the block to end it.`,
    );
    await expect(as(() => blockObject({ objectId: ids["now.cz"], reason: "again" }))).rejects.toThrow(
      /already has request \d+ for serverBlocked/,
    );

    const lifted = await as(() => unblockObject({ blockId: block.blockId, reason: "order lifted" }));
    expect(english(lifted.message)).toBe(`Block ${block.blockId} lifted: now.cz is no longer blocked; 1 earlier prohibition(s) restored.`);
    // The transfer prohibition in force before the block is back, until its old end.
    expect(await open("now.cz")).toEqual(["serverTransferProhibited"]);
    const [restored] = await db.sql.query<{ valid_to: Date }>(
      `SELECT r.valid_to FROM object_state_request r JOIN enum_object_states s ON s.id = r.state_id
        WHERE r.object_id = $1 AND s.name = 'serverTransferProhibited' AND r.canceled IS NULL AND r.id <> $2 ORDER BY r.id DESC LIMIT 1`,
      [ids["now.cz"], earlier.requestId],
    );
    expect(Math.abs(restored.valid_to.getTime() - (Date.now() + 30 * DAY))).toBeLessThan(60_000);
    await expect(as(() => unblockObject({ blockId: block.blockId, reason: "twice" }))).rejects.toThrow(/was already lifted on /);
  });

  it("blocks from a future start with chosen prohibitions; lifting it before it begins leaves nothing", async () => {
    const start = Date.now() + 5 * DAY;
    const block = await as(() =>
      blockObject({
        objectId: ids["later.cz"],
        from: iso(start),
        to: iso(start + 10 * DAY),
        prohibitions: ["serverUpdateProhibited"],
        reason: "scheduled",
      }),
    );
    expect(english(block.message)).toMatch(
      /^Block \d+: later\.cz blocked from \d{4}-\d{2}-\d{2} \d{2}:\d{2} CES?T until .* \(serverBlocked, serverUpdateProhibited\)\.$/,
    );
    expect(await open("later.cz")).toEqual([]);
    await as(() => unblockObject({ blockId: block.blockId, reason: "not needed" }));
    const [{ effective }] = await db.sql.query<{ effective: number }>(
      "SELECT count(*)::int AS effective FROM object_state_request WHERE object_id = $1 AND NOT isempty(console.request_period(valid_from, valid_to, canceled))",
      [ids["later.cz"]],
    );
    expect(effective).toBe(0);
  });

  it("changes a block's prohibitions and end without a gap, bringing back what it no longer prohibits", async () => {
    await as(() =>
      createStateRequest({
        objectId: ids["changed.cz"],
        state: "serverTransferProhibited",
        reason: "dispute",
        idempotencyKey: randomUUID(),
      }),
    );
    const block = await as(() => blockObject({ objectId: ids["changed.cz"], reason: "order" }));
    const since = async () =>
      (
        await db.sql.query<{ since: Date }>(
          `SELECT os.valid_from AS since FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
            WHERE os.object_id = $1 AND s.name = 'serverBlocked' AND os.valid_to IS NULL`,
          [ids["changed.cz"]],
        )
      )[0]?.since.getTime();
    const blockedSince = await since();
    expect(blockedSince).toBeDefined();
    const changed = await as(() =>
      changeBlock({ blockId: block.blockId, prohibitions: ["serverDeleteProhibited"], to: iso(Date.now() + 20 * DAY), reason: "narrowed" }),
    );
    expect(english(changed.message)).toMatch(
      new RegExp(
        `^Block ${block.blockId} changed: Block \\d+: changed\\.cz blocked from now until .* \\(serverBlocked, serverDeleteProhibited\\)\\.$`,
      ),
    );
    // Still blocked since the first instant; transfer back (the earlier request), update no longer prohibited.
    expect(await since()).toBe(blockedSince);
    expect(await open("changed.cz")).toEqual(["serverDeleteProhibited", "serverTransferProhibited", "serverBlocked"]);
    await expect(as(() => changeBlock({ blockId: block.blockId, reason: "again" }))).rejects.toThrow(
      /was lifted on .*; block the object again instead\.$/,
    );
    await expect(as(() => changeBlock({ blockId: changed.blockId, from: iso(Date.now() + DAY), reason: "move" }))).rejects.toThrow(
      /began on .*; its start cannot move\.$/,
    );
    await as(() => unblockObject({ blockId: changed.blockId, reason: "done" }));
    expect(await open("changed.cz")).toEqual(["serverTransferProhibited"]);
  });

  it("a change keeps what it does not name, refuses a change of nothing, names who canceled, and the history keeps every reason", async () => {
    const id = ids["kept.cz"];
    const zone = readConfig().registryTimeZone;
    const minute = 60_000;
    const start = Math.ceil((Date.now() + 3 * DAY) / minute) * minute;
    const end = start + 30 * DAY;
    const count = async () => (await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM object_state_request"))[0].n;
    const sorted = (names: string[]) => [...names].sort();
    const block = await as(() => blockObject({ objectId: id, from: iso(start), to: iso(end), reason: "court order 7/2026" }));
    const defaults = ["serverDeleteProhibited", "serverTransferProhibited", "serverUpdateProhibited"];

    // One more prohibition, nothing said of the period: the start and the end stay.
    const renewed = await as(() =>
      changeBlock({ blockId: block.blockId, prohibitions: [...defaults, "serverRenewProhibited"], reason: "renewals too" }),
    );
    const now = await currentBlock(db.sql, id);
    expect(now).toMatchObject({ id: renewed.blockId, from: iso(start), to: iso(end), reason: "renewals too" });
    expect(sorted(now?.prohibitions ?? [])).toEqual(sorted([...defaults, "serverRenewProhibited"]));
    // Audited with what it was and what changed.
    const lastChange = async () =>
      (
        await db.sql.query<{ result: string; input: Record<string, unknown> }>(
          "SELECT result, input FROM console.audit_log WHERE action = 'block.change' ORDER BY id DESC LIMIT 1",
        )
      )[0];
    expect(await lastChange()).toMatchObject({
      result: "ok",
      input: {
        replaced: block.blockId,
        before: { from: iso(start), to: iso(end) },
        changes: { added: ["serverRenewProhibited"], removed: [], from: null, to: null },
      },
    });

    // The period as the form shows it (wall times to the minute) and the same prohibitions: nothing to change, nothing changed.
    const before = await count();
    const same = await as(() =>
      changeBlock({
        blockId: renewed.blockId,
        from: wallTime(start, zone).slice(0, 16),
        to: wallTime(end, zone).slice(0, 16),
        prohibitions: ["serverRenewProhibited", ...defaults],
        reason: "again",
      }),
    ).catch((e: unknown) => e);
    expect(same).toBeInstanceOf(InputError);
    expect((same as Error).message).toBe(
      `Block ${renewed.blockId} already has this period and these prohibitions: nothing to change. Change its end, start or prohibitions, or keep it as it is.`,
    );
    expect(await count()).toBe(before);
    expect(await currentBlock(db.sql, id)).toMatchObject({ id: renewed.blockId });
    expect(await lastChange()).toMatchObject({ result: "refused" });

    // "" removes the end; the start stays.
    const open = await as(() => changeBlock({ blockId: renewed.blockId, to: "", reason: "until further notice" }));
    expect(await currentBlock(db.sql, id)).toMatchObject({ id: open.blockId, from: iso(start), to: null });

    // The requests each change canceled: who canceled them (the one who changed the block) and why.
    const canceled = await db.sql.query<{ block_id: number; canceled_by: string | null; reason: string | null }>(
      `SELECT m.block_id, m.canceled_by, rr.reason_cancellation AS reason FROM console.request_meta m
         JOIN object_state_request_reason rr ON rr.object_state_request_id = m.request_id
        WHERE m.block_id = ANY ($1::int[]) ORDER BY m.block_id, m.request_id`,
      [[block.blockId, renewed.blockId]],
    );
    expect(canceled).toHaveLength(4 + 5);
    for (const r of canceled) {
      expect(r.canceled_by).toMatch(/^operator/);
      expect(r.reason).toBe(r.block_id === block.blockId ? "renewals too" : "until further notice");
    }

    await as(() => unblockObject({ blockId: open.blockId, reason: "order withdrawn" }));
    const detail = await as(() => objectDetail(id));
    const by = expect.stringMatching(/^operator/);
    expect(detail?.blockHistory.events.map((e) => [e.kind, e.blockId, e.by, e.reason, e.from, e.to])).toEqual([
      ["blocked", block.blockId, by, "court order 7/2026", iso(start), iso(end)],
      ["changed", renewed.blockId, by, "renewals too", iso(start), iso(end)],
      ["changed", open.blockId, by, "until further notice", iso(start), null],
      ["lifted", open.blockId, by, "order withdrawn", iso(start), null],
    ]);
    const instants = detail?.blockHistory.events.map((e) => Date.parse(e.at)) ?? [];
    expect(instants).toEqual([...instants].sort((a, b) => a - b));
    expect(detail?.blockHistory.blocks).toBe(3);
  });

  it("refuses a block that cannot be: a type without serverBlocked, an unknown prohibition, a request starting inside it", async () => {
    const refused = async (input: Record<string, unknown>, message: RegExp | string) => {
      const before = (await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM object_state_request"))[0].n;
      const error = await as(() => blockObject({ reason: "x", ...input })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as Error).message).toMatch(message);
      expect((await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM object_state_request"))[0].n).toBe(before);
    };
    await refused({ objectId: ids.NSSET }, "serverBlocked does not apply to a nsset.");
    await refused(
      { objectId: ids["nsset-less.cz"], prohibitions: ["serverInzoneManual"] },
      "serverInzoneManual is not a prohibition a block can set.",
    );
    const start = Date.now() + 3 * DAY;
    const inside = await as(() =>
      createStateRequest({
        objectId: ids["nsset-less.cz"],
        state: "serverDeleteProhibited",
        from: iso(start),
        reason: "x",
        idempotencyKey: randomUUID(),
      }),
    );
    await refused(
      { objectId: ids["nsset-less.cz"] },
      new RegExp(`^Request ${inside.requestId} for serverDeleteProhibited starts inside the block's period`),
    );
  });

  /** The object's requests for a state, oldest first. */
  const requestsFor = (object: string, state: string) =>
    db.sql.query<{ id: number; valid_from: Date; valid_to: Date | null; canceled: Date | null }>(
      `SELECT r.id, r.valid_from, r.valid_to, r.canceled FROM object_state_request r JOIN enum_object_states s ON s.id = r.state_id
        WHERE r.object_id = $1 AND s.name = $2 ORDER BY r.id`,
      [ids[object], state],
    );
  const counts = async () =>
    (
      await db.sql.query<{ requests: number; canceled: number; blocks: number }>(
        `SELECT (SELECT count(*)::int FROM object_state_request) AS requests, (SELECT count(canceled)::int FROM object_state_request) AS canceled,
                (SELECT count(*)::int FROM console.blocks) AS blocks`,
      )
    )[0];

  it("shows a block FRED's blockDomainsId made as a block; lifting it in the console restores what was in force before it as FRED does", async () => {
    const id = ids["fred-lift.cz"];
    // A registrant's transfer lock, made by FRED (a registry-lock public request).
    const [lock] = await fred(db, id, (tx) => fredCreateRequests(tx, id, ["serverTransferProhibited"], null));
    expect(await open("fred-lift.cz")).toEqual(["serverTransferProhibited"]);
    const toDate = new Date(Date.now() + 30 * DAY).toISOString().slice(0, 10);
    await fredBlock(db, id, ["serverUpdateProhibited", "serverDeleteProhibited"], toDate, "court order 12/2026");
    // FRED's block replaced the lock (ClearObjectStateRequestId).
    expect(await open("fred-lift.cz")).toEqual(["serverDeleteProhibited", "serverUpdateProhibited", "serverBlocked"]);
    const [blocked] = await requestsFor("fred-lift.cz", "serverBlocked");

    const expected = {
      id: null,
      requestId: blocked.id,
      from: blocked.valid_from.toISOString(),
      to: `${toDate}T12:00:00.000Z`,
      by: null,
      reason: "court order 12/2026",
      prohibitions: ["serverDeleteProhibited", "serverUpdateProhibited"],
    };
    expect(await currentBlock(db.sql, id)).toEqual(expected);
    // The object page: the block, and its requests end with it (the earlier lock does not).
    const detail = await as(() => objectDetail(id));
    expect(detail?.block).toEqual(expected);
    const blockOf = new Map(detail?.requests.map((r) => [r.id, [r.blockId, r.blockRequestId]]));
    expect(blockOf.get(lock)).toEqual([null, null]);
    expect([...blockOf.values()].filter(([, request]) => request === blocked.id)).toHaveLength(3);

    // Bad references change nothing.
    const before = await counts();
    await expect(as(() => unblockObject({ blockRequestId: lock, reason: "x" }))).rejects.toThrow(
      `Request ${lock} is not the serverBlocked request of a block.`,
    );
    await expect(as(() => unblockObject({ reason: "x" }))).rejects.toThrow("Say which block: none was given.");
    expect(await counts()).toEqual(before);

    const lifted = await as(() => unblockObject({ blockRequestId: blocked.id, reason: "order lifted" }));
    expect(english(lifted.message)).toMatch(
      /^Block \d+ lifted: fred-lift\.cz is no longer blocked; 1 earlier prohibition\(s\) restored\.$/,
    );
    expect(await open("fred-lift.cz")).toEqual(["serverTransferProhibited"]);
    expect(await currentBlock(db.sql, id)).toBeNull();
    // The lock is requested again from the lifting with no end, as FRED's restore does; the block's
    // requests end at the lifting, the reason on its serverBlocked request.
    const transfer = await requestsFor("fred-lift.cz", "serverTransferProhibited");
    expect(transfer).toHaveLength(2);
    expect(transfer[1]).toMatchObject({ valid_to: null, canceled: null });
    for (const state of ["serverBlocked", "serverUpdateProhibited", "serverDeleteProhibited"]) {
      const [r] = await requestsFor("fred-lift.cz", state);
      expect(r.canceled?.getTime()).toBe(transfer[1].valid_from.getTime());
    }
    const [{ reason_cancellation }] = await db.sql.query<{ reason_cancellation: string }>(
      "SELECT reason_cancellation FROM object_state_request_reason WHERE object_state_request_id = $1",
      [blocked.id],
    );
    expect(reason_cancellation).toBe("order lifted");
    expect(await libfredViolations(db, id, ["serverBlocked", "serverUpdateProhibited", "serverDeleteProhibited"])).toEqual([]);
    await expect(as(() => unblockObject({ blockRequestId: blocked.id, reason: "twice" }))).rejects.toThrow(/was already lifted on /);
  });

  it("changes a block FRED made without a gap, bringing back what it held before and no longer prohibits; lifting it keeps that", async () => {
    const id = ids["fred-change.cz"];
    await fred(db, id, (tx) => fredCreateRequests(tx, id, ["serverTransferProhibited"], null));
    await fredBlock(db, id, ["serverUpdateProhibited", "serverTransferProhibited"], null, "dispute");
    const [blocked] = await requestsFor("fred-change.cz", "serverBlocked");
    const since = async () =>
      (
        await db.sql.query<{ since: Date }>(
          "SELECT valid_from AS since FROM object_state WHERE object_id = $1 AND state_id = 7 AND valid_to IS NULL",
          [id],
        )
      )[0]?.since.getTime();
    const blockedSince = await since();
    expect(blockedSince).toBe(blocked.valid_from.getTime());

    const changed = await as(() =>
      changeBlock({
        blockRequestId: blocked.id,
        prohibitions: ["serverDeleteProhibited"],
        to: iso(Date.now() + 20 * DAY),
        reason: "narrowed",
      }),
    );
    expect(english(changed.message)).toMatch(
      /^Block \d+ changed: Block \d+: fred-change\.cz blocked from now until .* \(serverBlocked, serverDeleteProhibited\)\.$/,
    );
    expect(await since()).toBe(blockedSince);
    expect(await open("fred-change.cz")).toEqual(["serverDeleteProhibited", "serverTransferProhibited", "serverBlocked"]);
    expect(await currentBlock(db.sql, id)).toMatchObject({
      id: changed.blockId,
      by: expect.stringMatching(/^operator/),
      prohibitions: ["serverDeleteProhibited"],
    });
    expect(await libfredViolations(db, id, ["serverUpdateProhibited"])).toEqual([]);

    const lifted = await as(() => unblockObject({ blockId: changed.blockId, reason: "done" }));
    // The transfer lock is back already, so nothing more is restored.
    expect(english(lifted.message)).toBe(`Block ${changed.blockId} lifted: fred-change.cz is no longer blocked.`);
    expect(await open("fred-change.cz")).toEqual(["serverTransferProhibited"]);
    const transfer = await requestsFor("fred-change.cz", "serverTransferProhibited");
    expect(transfer.filter((r) => !r.canceled)).toHaveLength(1);
    expect(await libfredViolations(db, id, ["serverBlocked", "serverUpdateProhibited", "serverDeleteProhibited"])).toEqual([]);
  });

  it("a block made in the console over earlier user locks is restored by FRED's restorePreAdministrativeBlockStatesId", async () => {
    const id = ids["fred-restores.cz"];
    for (const [state, to] of [
      ["serverTransferProhibited", iso(Date.now() + 30 * DAY)],
      ["serverUpdateProhibited", ""],
    ])
      await as(() => createStateRequest({ objectId: id, state, to, reason: "registry lock", idempotencyKey: randomUUID() }));
    const block = await as(() => blockObject({ objectId: id, reason: "court order" }));
    expect(await open("fred-restores.cz")).toEqual([
      "serverDeleteProhibited",
      "serverTransferProhibited",
      "serverUpdateProhibited",
      "serverBlocked",
    ]);
    const blockRequests = (
      await db.sql.query<{ id: number }>("SELECT request_id AS id FROM console.request_meta WHERE block_id = $1 ORDER BY request_id", [
        block.blockId,
      ])
    ).map((r) => r.id);
    expect(blockRequests).toHaveLength(4);

    const restore = await fredRestore(db, id, "order lifted");
    // FRED finds the locks in force before the block began, and no more.
    expect(restore.previous).toEqual(["serverTransferProhibited", "serverUpdateProhibited"]);
    expect([...restore.canceled].sort((a, b) => a - b)).toEqual(blockRequests);
    expect(restore.restored).toHaveLength(2);
    const rows = await db.sql.query<{ id: number; state_id: number; valid_to: Date | null; canceled: Date | null }>(
      "SELECT id, state_id, valid_to, canceled FROM object_state_request WHERE id = ANY ($1::int[]) ORDER BY id",
      [[...blockRequests, ...restore.restored]],
    );
    for (const r of rows.filter((r) => blockRequests.includes(r.id))) expect(r.canceled).not.toBeNull();
    expect(rows.filter((r) => restore.restored.includes(r.id)).map((r) => [r.state_id, r.valid_to, r.canceled])).toEqual([
      [3, null, null],
      [4, null, null],
    ]);
    expect(await open("fred-restores.cz")).toEqual(["serverTransferProhibited", "serverUpdateProhibited"]);
    expect(await currentBlock(db.sql, id)).toBeNull();
    expect(await libfredViolations(db, id, ["serverBlocked", "serverDeleteProhibited"])).toEqual([]);
    // The console no longer offers to lift it.
    await expect(as(() => unblockObject({ blockId: block.blockId, reason: "again" }))).rejects.toThrow(
      new RegExp(`^Block ${block.blockId} ended on .*; there is nothing to lift\\.$`),
    );
  });

  it("changing or lifting a block before it starts cancels its requests at their start, never before, so FRED can block the object again", async () => {
    const id = ids["ahead.cz"];
    const start = Date.now() + 5 * DAY;
    await as(() =>
      createStateRequest({
        objectId: id,
        state: "serverTransferProhibited",
        to: iso(start + 2 * DAY),
        reason: "registry lock",
        idempotencyKey: randomUUID(),
      }),
    );
    const block = await as(() =>
      blockObject({ objectId: id, from: iso(start), prohibitions: ["serverTransferProhibited"], reason: "scheduled" }),
    );
    const changed = await as(() => changeBlock({ blockId: block.blockId, from: iso(start + DAY), reason: "a day later" }));
    const beforeLift = Date.now();
    await as(() => unblockObject({ blockId: changed.blockId, reason: "not needed" }));
    const blockRows = await db.sql.query<{ valid_from: Date; canceled: Date | null }>(
      `SELECT r.valid_from, r.canceled FROM object_state_request r JOIN console.request_meta m ON m.request_id = r.id
        WHERE m.block_id = ANY ($1::int[])`,
      [[block.blockId, changed.blockId]],
    );
    expect(blockRows).toHaveLength(4);
    for (const r of blockRows) expect(r.canceled?.getTime()).toBe(r.valid_from.getTime());
    // The real instant and person are the console's.
    const [lifted] = await db.sql.query<{ unblocked_at: Date; unblocked_by: string }>(
      "SELECT unblocked_at, unblocked_by FROM console.blocks WHERE id = $1",
      [changed.blockId],
    );
    expect(lifted.unblocked_by).toMatch(/^operator/);
    expect(lifted.unblocked_at.getTime()).toBeGreaterThanOrEqual(beforeLift - 1000);
    expect(lifted.unblocked_at.getTime()).toBeLessThan(start);
    // The displaced lock has its old end back.
    const [lock] = await requestsFor("ahead.cz", "serverTransferProhibited");
    expect(lock).toMatchObject({ valid_to: new Date(start + 2 * DAY), canceled: null });
    expect(await libfredViolations(db, id, ["serverBlocked"])).toEqual([]);
    // FRED blocks it (its libfred checks pass over every row the console wrote).
    await fredBlock(db, id, ["serverUpdateProhibited"], null, "FRED blocks");
    expect(await open("ahead.cz")).toEqual(["serverUpdateProhibited", "serverBlocked"]);
  });
});
