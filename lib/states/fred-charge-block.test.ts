// The console's engine in charge of a FRED registry (PostgreSQL + fred-db 2.52 only), under FRED's
// whole commands as scripts/bench-fred-commands.ts replays them: an administrative block
// (blockDomainsId) that commits while a domain renew of the same domain, begun before it, waits for
// the domain. The renew's transaction started earlier than the block's, but its writes come after
// them: the history must stay in order, no row ending where it began.
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../prisma/demo/load";
import { createFredDatabase, fredSchemaAvailable, withClient } from "../../testing/fred";
import { checkDatabase } from "../check";
import { type Database, openDatabase } from "../db/client";
import { migrate } from "../db/migrations";

const adminUrl = process.env.TEST_DATABASE_URL;
const ZONE = "Europe/Prague";

describe.runIf(adminUrl && fredSchemaAvailable())("FRED's block and renew of one domain, interleaved, with the console in charge", () => {
  let fred: Awaited<ReturnType<typeof createFredDatabase>>;
  let owner: Database;
  beforeAll(async () => {
    fred = await createFredDatabase(adminUrl as string);
    owner = await openDatabase({ databaseUrl: fred.fredUrl, pgliteDir: "" });
    await migrate(owner.direct, undefined, { adoptAs: "charge" });
    await seedDemo(owner.direct, { domains: 40, seed: 3, now: new Date(), timeZone: ZONE });
  }, 120_000);
  afterAll(async () => {
    await owner?.close();
    await fred?.drop();
  });

  /** libfred's block and unblock: the object's server* requests in force now, canceled now. */
  const cancelServerRequests = (c: pg.Client, id: number) =>
    c.query(
      `UPDATE object_state_request SET canceled = now() WHERE object_id = $1
          AND state_id IN (SELECT id FROM enum_object_states WHERE manual AND name LIKE 'server%') AND canceled IS NULL
          AND valid_from <= now() AND (valid_to IS NULL OR valid_to > now())`,
      [id],
    );

  /** blockDomainsId (KEEP_OWNER, Daphne's three prohibitions) for one domain, as the bench's script writes it. */
  const blockDomain = (id: number) =>
    withClient(fred.fredUrl, async (c) => {
      await c.query("SET TimeZone = 'UTC'");
      await c.query("BEGIN");
      await c.query(
        "SELECT r.id FROM object_registry r JOIN domain d ON d.id = r.id WHERE r.id = $1 AND r.erdate IS NULL FOR UPDATE OF r",
        [id],
      );
      await c.query("SELECT lock_object_state_request_lock($1)", [id]);
      await cancelServerRequests(c, id);
      let blocked = 0;
      for (const state of [3, 4, 1, 7])
        [{ id: blocked }] = (
          await c.query<{ id: number }>(
            "INSERT INTO object_state_request (object_id, state_id, valid_from, valid_to, crdate) VALUES ($1, $2, now(), NULL, now()) RETURNING id",
            [id, state],
          )
        ).rows;
      await c.query("INSERT INTO object_state_request_reason (object_state_request_id, reason_creation) VALUES ($1, 'block')", [blocked]);
      await c.query("SELECT update_object_states($1)", [id]);
      await c.query("COMMIT");
    });

  /** A delete candidate kept in the zone by serverInzoneManual (seventy days past its expiration), as FRED wrote it. */
  const inzoneCandidate = async (skip: number) => {
    const [{ id }] = await owner.sql.query<{ id: number }>(
      `SELECT o.id FROM object_registry o JOIN domain d ON d.id = o.id WHERE o.type = 3 AND o.erdate IS NULL AND d.nsset IS NOT NULL
          AND NOT EXISTS (SELECT FROM object_state_request r WHERE r.object_id = o.id) ORDER BY o.id OFFSET $1 LIMIT 1`,
      [skip],
    );
    await withClient(fred.fredUrl, async (c) => {
      await c.query("SET TimeZone = 'UTC'");
      await c.query(`UPDATE domain SET exdate = (now() AT TIME ZONE '${ZONE}')::date - 70 WHERE id = $1`, [id]);
      await c.query(
        `INSERT INTO object_state_request (object_id, state_id, valid_from, crdate)
         VALUES ($1, 6, now() - interval '1 day', now() - interval '1 day')`,
        [id],
      );
      await c.query("SELECT update_object_states($1)", [id]);
    });
    return id;
  };

  /** FRED's domain renew (with history; charging left out: no trigger of the console's is on those tables), `meanwhile` run after its transaction began. */
  const renewDomain = (id: number, meanwhile: () => Promise<void>) =>
    withClient(fred.fredUrl, async (c) => {
      await c.query("SET TimeZone = 'UTC'");
      await c.query("BEGIN");
      await c.query("SELECT o.clid FROM object_registry r JOIN object o ON o.id = r.id WHERE r.id = $1", [id]);
      await meanwhile();
      await c.query("SELECT 1 FROM object_registry WHERE id = $1 AND erdate IS NULL FOR UPDATE", [id]);
      await c.query("UPDATE domain SET exdate = (exdate + interval '12 months')::date WHERE id = $1", [id]);
      const {
        rows: [{ hid }],
      } = await c.query<{ hid: number }>("INSERT INTO history (valid_from, request_id) VALUES (now(), NULL) RETURNING id AS hid");
      await c.query("UPDATE object_registry SET historyid = $2 WHERE id = $1", [id, hid]);
      await c.query(
        "INSERT INTO object_history (historyid, id, clid, upid, trdate, update, authinfopw) SELECT $2, id, clid, upid, trdate, update, authinfopw FROM object WHERE id = $1",
        [id, hid],
      );
      await c.query(
        "INSERT INTO domain_history (historyid, id, zone, registrant, nsset, keyset, exdate) SELECT $2, id, zone, registrant, nsset, keyset, exdate FROM domain WHERE id = $1",
        [id, hid],
      );
      await c.query("COMMIT");
    });

  const rowsSince = (id: number, from: number) =>
    owner.sql.query<{ state: string; valid_from: Date; valid_to: Date | null }>(
      `SELECT s.name AS state, os.valid_from, os.valid_to FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
        WHERE os.object_id = $1 AND os.id > $2 ORDER BY os.id`,
      [id, from],
    );
  const lastRow = async () => (await owner.sql.query<{ n: number }>("SELECT coalesce(max(id), 0)::int AS n FROM object_state"))[0].n;
  /** db:check's history checks, the examples about object `id` (each names its object). */
  const historyChecks = async (id: number) =>
    (await checkDatabase(owner.sql, ["history overlaps", "history order"])).checks.map((c) => [
      c.name,
      c.examples.filter((e) => new RegExp(`object ${id}\\b`).test(e)),
    ]);

  it("keeps every history row longer than an instant when the renew began before the block and writes after it", async () => {
    const id = await inzoneCandidate(0);
    const from = await lastRow();
    // The renew's transaction begins (its now()); the block commits meanwhile; then the renew takes the domain and writes.
    await renewDomain(id, () => blockDomain(id));
    const rows = await rowsSince(id, from);
    // The block took the domain out of the zone (serverInzoneManual canceled); the renew put it back.
    expect(rows.filter((r) => r.state === "outzone")).toHaveLength(1);
    expect(rows.filter((r) => r.valid_to !== null && r.valid_to <= r.valid_from)).toEqual([]);
    expect(await historyChecks(id)).toEqual([
      ["history overlaps", []],
      ["history order", []],
    ]);
  });

  it("keeps the history in order when the block began before the renew and writes after it", async () => {
    const id = await inzoneCandidate(1);
    const from = await lastRow();
    await withClient(fred.fredUrl, async (b) => {
      await b.query("SET TimeZone = 'UTC'");
      await b.query("BEGIN");
      await b.query("SELECT 1");
      await renewDomain(id, async () => {});
      await b.query("SELECT r.id FROM object_registry r WHERE r.id = $1 FOR UPDATE OF r", [id]);
      await b.query("SELECT lock_object_state_request_lock($1)", [id]);
      await cancelServerRequests(b, id);
      for (const state of [3, 4, 1, 7])
        await b.query(
          "INSERT INTO object_state_request (object_id, state_id, valid_from, valid_to, crdate) VALUES ($1, $2, now(), NULL, now())",
          [id, state],
        );
      await b.query("SELECT update_object_states($1)", [id]);
      await b.query("COMMIT");
    });
    const rows = await rowsSince(id, from);
    expect(rows.filter((r) => r.valid_to !== null && r.valid_to <= r.valid_from)).toEqual([]);
    expect(rows.filter((r) => r.state === "serverBlocked" && r.valid_to === null)).toHaveLength(1);
    expect(await historyChecks(id)).toEqual([
      ["history overlaps", []],
      ["history order", []],
    ]);
  });

  it("closes at the unblock's instant what the unblock's new expiration ends, after a block that took the domain out of the zone", async () => {
    // unblockDomainsId: the block's requests canceled, an expired domain's exdate set to today, then FRED's function.
    const id = await inzoneCandidate(2);
    const from = await lastRow();
    await blockDomain(id);
    const unblockedAt = await withClient(fred.fredUrl, async (c) => {
      await c.query("SET TimeZone = 'UTC'");
      await c.query("BEGIN");
      const {
        rows: [{ at }],
      } = await c.query<{ at: Date }>("SELECT now() AS at");
      await c.query("SELECT r.id FROM object_registry r WHERE r.id = $1 AND r.erdate IS NULL FOR UPDATE OF r", [id]);
      await c.query("SELECT lock_object_state_request_lock($1)", [id]);
      await cancelServerRequests(c, id);
      await c.query("UPDATE domain SET exdate = current_date WHERE id = $1 AND exdate < current_date", [id]);
      await c.query("SELECT update_object_states($1)", [id]);
      await c.query("COMMIT");
      return at;
    });
    const rows = await rowsSince(id, from);
    expect(rows.filter((r) => r.valid_to !== null && r.valid_to <= r.valid_from)).toEqual([]);
    // The block took the domain out of the zone; the unblock's exdate (today) puts it back, at the unblock.
    const outzone = rows.filter((r) => r.state === "outzone");
    expect(outzone).toHaveLength(1);
    expect(outzone[0].valid_to?.getTime()).toBe(unblockedAt.getTime());
    expect(await historyChecks(id)).toEqual([
      ["history overlaps", []],
      ["history order", []],
    ]);
  });
});
