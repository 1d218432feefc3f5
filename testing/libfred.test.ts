import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../lib/db/client";
import { testBackends } from "./databases";
import { libfredViolations, requestPairs } from "./libfred";
import { createDomain, createObject, createRequest, registryAt, TYPE } from "./registry";

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(testBackends())("libfred's request rules as a test oracle on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  const now = Date.now();
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    ({ db, drop } = await registryAt(backend, new Date(now), async (tx) => {
      const holder = await createObject(tx, TYPE.contact, "HOLDER", "2020-01-01T00:00:00Z");
      ids.domain = await createDomain(tx, {
        name: "a.cz",
        crdate: "2021-01-01T00:00:00Z",
        exdate: "2030-01-01",
        registrant: holder,
        nsset: null,
      });
      const d = ids.domain;
      // Canceled before it began, at the cancel instant: libfred's out_of_turn.
      ids.outOfTurn = await createRequest(tx, d, "serverTransferProhibited", iso(now + 7 * DAY), null, iso(now - DAY));
      // Canceled before it began, at its own start: an empty period, which blocks nothing.
      ids.empty = await createRequest(tx, d, "serverDeleteProhibited", iso(now + 7 * DAY), null, iso(now + 7 * DAY));
      // In force with no end: a new request from now overlaps it.
      ids.open = await createRequest(tx, d, "serverUpdateProhibited", iso(now - DAY));
      // Over: nothing to say.
      ids.over = await createRequest(tx, d, "serverRenewProhibited", iso(now - 2 * DAY), iso(now - DAY));
      // Canceled while in force.
      ids.canceled = await createRequest(tx, d, "serverRegistrantChangeProhibited", iso(now - 2 * DAY), null, iso(now - DAY));
    }));
  });
  afterAll(() => drop());

  it("names a row that ends before it begins, and one a new open request from now overlaps", async () => {
    const pairs = await requestPairs(db.sql, [ids.outOfTurn, ids.empty, ids.open, ids.over, ids.canceled]);
    expect(pairs).toHaveLength(5);
    const found = await libfredViolations(db.sql, pairs);
    expect(found.map((v) => [v.rule, v.requestId])).toEqual([
      ["out_of_turn", ids.outOfTurn],
      ["overlayed_time_intervals", ids.open],
    ]);
    expect(found[0]).toMatchObject({
      objectId: ids.domain,
      validFrom: new Date(now + 7 * DAY),
      validTo: null,
      canceled: new Date(now - DAY),
    });
  });

  it("checks stored rows only for pairs that say acceptsNew: false, and a new request from another instant on request", async () => {
    const pairs = await requestPairs(db.sql, [ids.outOfTurn, ids.open], false);
    expect((await libfredViolations(db.sql, pairs)).map((v) => v.requestId)).toEqual([ids.outOfTurn]);
    // From before the ended request began, it overlaps that one too.
    const over = await requestPairs(db.sql, [ids.over]);
    expect(await libfredViolations(db.sql, over)).toEqual([]);
    expect((await libfredViolations(db.sql, over, new Date(now - 1.5 * DAY))).map((v) => v.requestId)).toEqual([ids.over]);
  });
});
