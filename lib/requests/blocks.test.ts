import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { english, InputError } from "../actions/result";
import type { RequestContext } from "../auth/request-context";
import type { Database } from "../db/client";
import { createDomain, createObject, registryAt, TYPE } from "../states/testing";
import { testBackends } from "../testing/databases";
import { actAs, signedInAs } from "../testing/sessions";
import { blockObject, changeBlock, unblockObject } from "./blocks";
import { cancelStateRequest, createStateRequest } from "./write";

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(testBackends())("administrative blocking on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let operator: RequestContext;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    ({ db, drop } = await registryAt(backend.create, new Date(), async (tx) => {
      const holder = await createObject(tx, TYPE.contact, "HOLDER", "2020-01-01T00:00:00Z");
      for (const name of ["now.cz", "later.cz", "nsset-less.cz", "changed.cz"])
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
});
