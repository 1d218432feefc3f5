// Migration 20261125010000_fred_accepted_rows on a database the console has been writing: its
// earlier cancellations before a request's start (canceled = the instant, which libfred refuses to go
// past) get FRED's form (canceled = valid_from) and keep their instant in the metadata; rows written
// by anyone else stay as they are and are listed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { libfredViolations, requestPairs } from "../../testing/libfred";
import { baseRegistry, createDomain, createObject, TYPE } from "../../testing/registry";
import type { Database } from "./client";
import { migrate, readMigrations } from "./migrations";

const MIGRATION = "20261125010000_fred_accepted_rows";

describe.each(testBackends())(`migration ${MIGRATION} on $name`, (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    ({ db, drop } = await backend.create());
    const files = await readMigrations();
    expect(files.map((m) => m.name)).toContain(MIGRATION);
    await migrate(
      db.direct,
      files.filter((m) => m.name < MIGRATION),
    );
    await db.sql.transaction(async (tx) => {
      await baseRegistry(tx);
      const holder = await createObject(tx, TYPE.contact, "HOLDER", "2020-01-01T00:00:00Z");
      const domain = await createDomain(tx, {
        name: "a.cz",
        crdate: "2021-01-01T00:00:00Z",
        exdate: "2030-01-01",
        registrant: holder,
        nsset: null,
      });
      const request = async (state: string, from: string, canceled: string) =>
        (
          await tx.query<{ id: number }>(
            `INSERT INTO object_state_request (object_id, state_id, valid_from, canceled, crdate)
             SELECT $1, id, now() AT TIME ZONE 'UTC' + $3::interval, now() AT TIME ZONE 'UTC' + $4::interval, now() AT TIME ZONE 'UTC' - interval '3 days'
               FROM enum_object_states WHERE name = $2 RETURNING id`,
            [domain, state, from, canceled],
          )
        )[0].id;
      const meta = (id: number, canceledBy: string | null, blockId: number | null = null) =>
        tx.query("INSERT INTO console.request_meta (request_id, author, canceled_by, block_id) VALUES ($1, 'olga', $2, $3)", [
          id,
          canceledBy,
          blockId,
        ]);
      // The console canceled it before its start, as it used to: canceled = the instant.
      ids.before = await request("serverTransferProhibited", "3 days", "-1 hour");
      await meta(ids.before, "olga");
      // The console canceled it while in force.
      ids.inForce = await request("serverUpdateProhibited", "-2 days", "-1 day");
      await meta(ids.inForce, "olga");
      // A block lifted before it began.
      ids.block = await request("serverBlocked", "5 days", "-2 hours");
      const [{ id: blockId }] = await tx.query<{ id: number }>(
        `INSERT INTO console.blocks (object_id, blocked_request_id, created_by, unblocked_at, unblocked_by)
         VALUES ($1, $2, 'olga', now() - interval '2 hours', 'olga') RETURNING id`,
        [domain, ids.block],
      );
      await meta(ids.block, null, blockId);
      // Written by another program (FRED's legacy cancel_multiple_object_states): left as it is.
      ids.other = await request("serverDeleteProhibited", "3 days", "-1 hour");
    });
    await migrate(db.direct, files);
  });
  afterAll(() => drop());

  const row = async (id: number) =>
    (
      await db.sql.query<{ valid_from: Date; canceled: Date; canceled_at: Date | null }>(
        `SELECT r.valid_from, r.canceled, m.canceled_at FROM object_state_request r
           LEFT JOIN console.request_meta m ON m.request_id = r.id WHERE r.id = $1`,
        [id],
      )
    )[0];

  it("stores the console's cancellations before a start as FRED accepts them, keeping their instant", async () => {
    const [{ now }] = await db.sql.query<{ now: Date }>("SELECT now() AS now");
    for (const id of [ids.before, ids.block]) {
      const r = await row(id);
      expect(r.canceled).toEqual(r.valid_from);
      expect(r.canceled_at?.getTime()).toBeLessThan(now.getTime());
      expect(r.valid_from.getTime() - (r.canceled_at as Date).getTime()).toBeGreaterThan(2 * 86_400_000);
    }
    const inForce = await row(ids.inForce);
    expect(inForce.canceled_at).toEqual(inForce.canceled);
    expect(inForce.canceled.getTime()).toBeGreaterThan(inForce.valid_from.getTime());
    expect(await libfredViolations(db.sql, await requestPairs(db.sql, [ids.before, ids.inForce, ids.block]))).toEqual([]);
  });

  it("leaves another writer's row as it is, and lists it", async () => {
    const other = await row(ids.other);
    expect(other.canceled.getTime()).toBeLessThan(other.valid_from.getTime());
    expect(other.canceled_at).toBeNull();
    expect((await libfredViolations(db.sql, await requestPairs(db.sql, [ids.other]))).map((v) => [v.rule, v.requestId])).toEqual([
      ["out_of_turn", ids.other],
    ]);
    const anomalies = await db.sql.query<{ kind: string; request_id: number }>(
      "SELECT kind, request_id FROM console.registry_anomalies() WHERE request_id IS NOT NULL ORDER BY request_id",
    );
    expect(anomalies).toEqual([{ kind: "out_of_turn", request_id: ids.other }]);
  });
});
