import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../testing/databases";
import { createDomain, createObject, registryAt, TYPE } from "../testing/registry";
import { actAs, anonymous, signedInAs } from "../testing/sessions";
import { InputError } from "./actions/result";
import type { RequestContext } from "./auth/request-context";
import type { Database } from "./db/client";
import { type FeedPage, readStateChanges, type StateChange } from "./feed";
import { cancelStateRequest } from "./requests/cancel";
import { createStateRequest } from "./requests/create";
import { runStateEngine } from "./states/engine";
import { createApiToken, revokeApiToken } from "./tokens";

describe.each(testBackends())("the state change feed on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let admin: RequestContext;
  let operator: RequestContext;
  let token: string;
  const ids: number[] = [];

  beforeAll(async () => {
    ({ db, drop } = await registryAt(backend, new Date(), async (tx) => {
      const holder = await createObject(tx, TYPE.contact, "FEED-HOLDER", "2020-01-01T00:00:00Z");
      const nsset = await createObject(tx, TYPE.nsset, "FEED-NS", "2020-01-01T00:00:00Z");
      for (let i = 1; i <= 6; i++)
        ids.push(
          await createDomain(tx, { name: `feed-${i}.cz`, crdate: "2021-01-01T00:00:00Z", exdate: "2030-01-01", registrant: holder, nsset }),
        );
    }));
    admin = await signedInAs(db, "admin");
    operator = await signedInAs(db, "operator");
    ({ token } = await actAs(admin, () => createApiToken({ name: `zone generator ${backend.name}` })));
  });
  afterAll(() => drop());

  const read = (params: Record<string, string>, auth: string | null = `Bearer ${token}`) =>
    actAs(anonymous(db), () => readStateChanges(auth, params)) as Promise<FeedPage>;
  /** Every change after `after`, page by page. */
  async function readAll(after: number, limit = 1000, states = ""): Promise<StateChange[]> {
    const all: StateChange[] = [];
    for (let cursor = after; ; ) {
      const page = await read({ after: String(cursor), limit: String(limit), states });
      all.push(...page.changes);
      cursor = page.next;
      if (!page.more) return all;
    }
  }
  const end = async () => (await read({ after: "0", limit: "1" })).next + (await readAll(0)).length;

  it("records a state entered and left once, at its instants, in order, page by page", async () => {
    const start = (await readAll(0)).at(-1)?.id ?? 0;
    const made = await actAs(operator, () =>
      createStateRequest({ objectId: ids[0], state: "serverRegistrantChangeProhibited", reason: "feed", idempotencyKey: randomUUID() }),
    );
    await actAs(operator, () => cancelStateRequest({ requestId: made.requestId, reason: "feed over" }));
    const [row] = await db.sql.query<{ valid_from: Date; valid_to: Date }>(
      "SELECT valid_from, valid_to FROM object_state WHERE object_id = $1 AND state_id = 18",
      [ids[0]],
    );
    const changes = await readAll(start);
    expect(changes.map((c) => [c.object, c.state, c.change, c.at])).toEqual([
      ["feed-1.cz", "serverRegistrantChangeProhibited", "entered", row.valid_from.toISOString()],
      ["feed-1.cz", "serverRegistrantChangeProhibited", "left", row.valid_to.toISOString()],
    ]);
    expect(changes[1].id).toBeGreaterThan(changes[0].id);
    // The same changes one at a time, and again: reading is idempotent.
    expect(await readAll(start, 1)).toEqual(changes);
    expect(await readAll(start, 1)).toEqual(changes);
    expect(await readAll(start, 1000, "outzone")).toEqual([]);
    expect((await readAll(start, 1000, "serverRegistrantChangeProhibited,outzone")).map((c) => c.id)).toEqual(changes.map((c) => c.id));
  });

  it("feeds a state another writer ends, once per state, and nothing for an update that ends none", async () => {
    const start = (await readAll(0)).at(-1)?.id ?? 0;
    const [{ id: first }, { id: second }] = await db.sql.query<{ id: number }>(
      `INSERT INTO object_state (object_id, state_id, valid_from)
       SELECT $1, s.id, '2025-01-01' FROM enum_object_states s
        WHERE s.name IN ('serverRegistrantChangeProhibited', 'serverTransferProhibited') ORDER BY s.id RETURNING id`,
      [ids[1]],
    );
    const entered = await readAll(start);
    expect(entered.map((c) => [c.state, c.change]).sort()).toEqual([
      ["serverRegistrantChangeProhibited", "entered"],
      ["serverTransferProhibited", "entered"],
    ]);
    // What FRED's object_history_insert does in every command that writes history: no state ends.
    await db.sql.query("UPDATE object_state SET ohid_from = NULL WHERE object_id = $1", [ids[1]]);
    expect(await readAll(entered.at(-1)?.id ?? start)).toEqual([]);
    // Two states ended in one statement; then one already ended moved (not an end).
    await db.sql.query("UPDATE object_state SET valid_to = '2025-06-01' WHERE id IN ($1, $2)", [first, second]);
    await db.sql.query("UPDATE object_state SET valid_to = '2025-07-01' WHERE id = $1", [first]);
    const left = await readAll(entered.at(-1)?.id ?? start);
    expect(left.map((c) => [c.object, c.state, c.change, c.at]).sort()).toEqual([
      ["feed-2.cz", "serverRegistrantChangeProhibited", "left", "2025-06-01T00:00:00.000Z"],
      ["feed-2.cz", "serverTransferProhibited", "left", "2025-06-01T00:00:00.000Z"],
    ]);
  });

  it("refuses bad parameters with a message, and a missing, wrong or revoked token", async () => {
    await expect(read({ after: "-1" })).rejects.toThrow(new InputError("after must be a change id: a whole number, 0 for the beginning."));
    await expect(read({ limit: "5000" })).rejects.toThrow("limit must be a whole number from 1 to 1000.");
    await expect(read({ states: "outzone,nonsense" })).rejects.toThrow("Unknown state(s): nonsense.");
    expect(await read({}, null)).toBeNull();
    expect(await read({}, "Bearer rsc_not-a-real-token-at-all-000000")).toBeNull();
    const other = await actAs(admin, () => createApiToken({ name: `notifier ${backend.name}` }));
    expect(await read({}, `Bearer ${other.token}`)).not.toBeNull();
    const [{ id }] = await db.sql.query<{ id: number }>("SELECT id FROM console.api_tokens WHERE name = $1", [`notifier ${backend.name}`]);
    await actAs(admin, () => revokeApiToken({ tokenId: id }));
    expect(await read({}, `Bearer ${other.token}`)).toBeNull();
    await expect(actAs(admin, () => revokeApiToken({ tokenId: id }))).rejects.toThrow(/already revoked/);
    await expect(read({ states: "outzone\u0000" })).rejects.toThrow("states must be state names separated by commas.");
    expect(await end()).toBeGreaterThan(0);
  });

  it.runIf(backend.name === "postgres")(
    "gives every change exactly once while writers and the engine write concurrently",
    async () => {
      const start = (await readAll(0)).at(-1)?.id ?? 0;
      let writing = true;
      const writers = (async () => {
        for (let round = 0; round < 12; round++) {
          await Promise.all(
            ids.map(async (objectId, i) => {
              const made = await actAs(operator, () =>
                createStateRequest({
                  objectId,
                  state: i % 2 ? "serverUpdateProhibited" : "serverOutzoneManual",
                  reason: `r${round}`,
                  idempotencyKey: randomUUID(),
                }),
              );
              await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
              await actAs(operator, () => cancelStateRequest({ requestId: made.requestId, reason: "done" }));
            }),
          );
          await runStateEngine(db.sql);
        }
        writing = false;
      })();
      // A reader following the feed in small pages the whole time.
      const seen: StateChange[] = [];
      let cursor = start;
      while (writing) {
        const page = await read({ after: String(cursor), limit: "7" });
        seen.push(...page.changes);
        cursor = page.next;
      }
      await writers;
      seen.push(...(await readAll(cursor, 7)));

      const seenIds = seen.map((c) => c.id);
      expect(new Set(seenIds).size).toBe(seenIds.length);
      expect([...seenIds].sort((a, b) => a - b)).toEqual(seenIds);
      // Exactly the changes the history rows of these writes say, no more and no fewer.
      const [{ entered, left }] = await db.sql.query<{ entered: number; left: number }>(
        `SELECT count(*) FILTER (WHERE change = 'entered')::int AS entered, count(*) FILTER (WHERE change = 'left')::int AS left
           FROM console.state_changes WHERE seq > $1`,
        [start],
      );
      expect(seen.filter((c) => c.change === "entered")).toHaveLength(entered);
      expect(seen.filter((c) => c.change === "left")).toHaveLength(left);
      expect(entered).toBeGreaterThanOrEqual(12 * ids.length);
      const [{ unsequenced }] = await db.sql.query<{ unsequenced: number }>(
        "SELECT count(*)::int AS unsequenced FROM console.state_changes WHERE seq IS NULL",
      );
      expect(unsequenced).toBe(0);
      console.log(`feed: ${seen.length} changes read in pages of 7 under concurrent writes, each once, in order`);
    },
    120_000,
  );
});
