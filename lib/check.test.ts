import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../prisma/demo/load";
import { testBackends } from "../testing/databases";
import { audit } from "./audit/log";
import { type CheckResult, checkDatabase } from "./check";
import type { Database } from "./db/client";
import type { SqlExecutor } from "./db/driver";

class Rollback extends Error {
  constructor(readonly result: CheckResult) {
    super("rollback");
  }
}

describe.each(testBackends())("npm run db:check on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
    await seedDemo(db.direct, { domains: 300, seed: 5, now: new Date(), timeZone: "Europe/Prague" });
    await audit(db.sql, { action: "test.start", result: "ok", actor: { username: "test", clientAddress: null }, input: {} });
  });
  afterAll(() => drop());

  /** Breaks a promise inside a transaction, runs that one check there, and rolls back. */
  async function violated(check: string, breakIt: (tx: SqlExecutor) => Promise<unknown>): Promise<CheckResult> {
    try {
      await db.sql.transaction(async (tx) => {
        await breakIt(tx);
        const { checks } = await checkDatabase(tx, [check]);
        throw new Rollback(checks[0]);
      });
    } catch (error) {
      if (error instanceof Rollback) return error.result;
      throw error;
    }
    throw new Error("unreachable");
  }

  const openRow = (tx: SqlExecutor, state: string) =>
    tx.query<{ id: number; object_id: number }>(
      `SELECT os.id, os.object_id FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
        WHERE s.name = $1 AND os.valid_to IS NULL ORDER BY os.id LIMIT 1`,
      [state],
    );

  it("finds every promise kept on a registry the engine keeps", async () => {
    const result = await checkDatabase(db.sql);
    expect(result.checks.filter((c) => c.violations > 0)).toEqual([]);
    expect(result.checks.map((c) => c.name)).toEqual([
      "request overlaps",
      "zone conflicts",
      "requests FRED refuses",
      "history overlaps",
      "history order",
      "open states without cause",
      "causes without state",
      "audited changes that do not exist",
      "requests audited twice",
      "parameters compiled",
      "blocks without their request",
      "object list keys",
      "owner's code closed",
      "audit chain",
    ]);
    expect(result.ok).toBe(true);
    expect(result.notes[0]).toMatch(/just before the engine's cursor, \d{4}-/);
  });

  it("reports an object the list's copy of the keys lacks or holds wrongly, written past the console's trigger", async () => {
    const result = await violated("object list keys", async (tx) => {
      await tx.run("ALTER TABLE object_registry DISABLE TRIGGER console_object_key_copy");
      await tx.query(
        "UPDATE object_registry SET erdate = now() AT TIME ZONE 'UTC' WHERE id = (SELECT min(id) FROM object_registry WHERE type = 3)",
      );
      await tx.query("INSERT INTO object_registry (roid, type, name, crid) VALUES ('C-RSC-CHECK', 1, 'RSC-CHECK', 1)");
    });
    expect(result.violations).toBe(2);
    expect(result.examples).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^object \d+: missing from the object list's keys$/),
        expect.stringMatching(/^object \d+: the object list's keys differ from object_registry$/),
      ]),
    );
  });

  it("reports overlapping requests that a writer past the console's checks let in", async () => {
    const result = await violated("request overlaps", async (tx) => {
      await tx.run("ALTER TABLE object_state_request DISABLE TRIGGER console_1_request_check");
      await tx.query(
        `INSERT INTO object_state_request (object_id, state_id, valid_from, valid_to)
         SELECT object_id, state_id, valid_from, valid_to FROM object_state_request WHERE canceled IS NULL ORDER BY id LIMIT 1`,
      );
    });
    expect(result.violations).toBe(1);
    expect(result.examples[0]).toMatch(/^requests \d+ and \d+: \w+ on object \d+$/);
  });

  it("reports a request canceled before its start by a writer past the console, which FRED's programs refuse to go past", async () => {
    // As FRED's legacy cancel_multiple_object_states does: canceled = now on a request not begun.
    const future = (tx: SqlExecutor, canceled: string) =>
      tx.query<{ id: number }>(
        `INSERT INTO object_state_request (object_id, state_id, valid_from, canceled)
         SELECT o.id, s.id, (now() + interval '3 days') AT TIME ZONE 'UTC', ${canceled}
           FROM object_registry o, enum_object_states s
          WHERE o.type = 3 AND o.erdate IS NULL AND s.name = 'serverRenewProhibited'
            AND NOT EXISTS (SELECT FROM object_state_request r WHERE r.object_id = o.id AND r.state_id = s.id)
          ORDER BY o.id LIMIT 1 RETURNING id`,
      );
    const refused = await violated("requests FRED refuses", (tx) => future(tx, "now() AT TIME ZONE 'UTC'"));
    expect(refused.violations).toBe(1);
    expect(refused.examples[0]).toMatch(
      /^request \d+ for serverRenewProhibited on [a-z0-9.-]+ \(from \d{4}-\d\d-\d\d \d\d:\d\d:\d\d, canceled \d{4}-\d\d-\d\d \d\d:\d\d:\d\d, until - UTC\) ends before it begins: FRED's programs refuse every new serverRenewProhibited request for this object while it stands \(libfred out_of_turn\)$/,
    );
    // The console's form of the same cancellation (canceled at the start) is accepted.
    const accepted = await violated("requests FRED refuses", (tx) => future(tx, "(now() + interval '3 days') AT TIME ZONE 'UTC'"));
    expect(accepted.violations).toBe(0);
  });

  it("reports history rows that overlap, end before they start or lie past the cursor", async () => {
    const overlap = await violated("history overlaps", async (tx) => {
      const [row] = await openRow(tx, "linked");
      await tx.query(
        `INSERT INTO object_state (object_id, state_id, valid_from, valid_to)
         SELECT object_id, state_id, valid_from + interval '1 day', valid_from + interval '2 days' FROM object_state WHERE id = $1`,
        [row.id],
      );
    });
    expect(overlap.violations).toBe(1);
    const ahead = await violated("history order", (tx) =>
      tx.query(
        `INSERT INTO object_state (object_id, state_id, valid_from)
         SELECT o.id, s.id, (e.cursor + interval '1 hour') AT TIME ZONE 'UTC' FROM object_registry o, enum_object_states s, console.state_engine e
          WHERE s.name = 'serverBlocked' AND o.type = 3 AND o.erdate IS NULL AND NOT EXISTS (SELECT FROM console.state_pending m WHERE m.object_id = o.id)
            AND NOT EXISTS (SELECT FROM object_state x WHERE x.object_id = o.id AND x.state_id = s.id) LIMIT 1`,
      ),
    );
    expect(ahead.violations).toBe(1);
    expect(ahead.examples[0]).toMatch(/cursor/);
  });

  it("reports a state without cause (a domain wrongly out of the zone) and a cause without its state", async () => {
    const wrong = await violated("open states without cause", (tx) =>
      tx.query(
        `INSERT INTO object_state (object_id, state_id, valid_from)
         SELECT o.id, s.id, (e.cursor - interval '1 day') AT TIME ZONE 'UTC' FROM object_registry o, enum_object_states s, console.state_engine e
          WHERE s.name = 'outzone' AND o.type = 3 AND o.erdate IS NULL
            AND NOT EXISTS (SELECT FROM object_state x WHERE x.object_id = o.id AND x.state_id = s.id AND x.valid_to IS NULL)
            AND NOT EXISTS (SELECT FROM object_state x WHERE x.object_id = o.id AND x.state_id = s.id AND x.valid_to > (e.cursor - interval '1 day') AT TIME ZONE 'UTC')
          ORDER BY o.id LIMIT 1`,
      ),
    );
    expect(wrong.violations).toBe(1);
    expect(wrong.examples[0]).toMatch(/^object \d+ has outzone without cause$/);
    const missing = await violated("causes without state", async (tx) => {
      const [row] = await openRow(tx, "outzone");
      await tx.query("DELETE FROM object_state WHERE id = $1", [row.id]);
    });
    expect(missing.violations).toBe(1);
    expect(missing.examples[0]).toMatch(/^object \d+ should have outzone$/);
  });

  it("follows FRED's parameters into the compiled rules, and reports parameters changed past the console's trigger", async () => {
    // Changed the way a registry operator changes them: the rules' constants follow in the same transaction.
    const followed = await violated("parameters compiled", async (tx) => {
      await tx.query("UPDATE enum_parameters SET val = '7' WHERE id = 11");
      await tx.query("UPDATE domain_lifecycle_parameters SET expiration_registration_protection_period = interval '75 days'");
      const [p] = await tx.query<{ months: number; registration: string }>(
        `SELECT (SELECT protection_months FROM console.state_parameters()) AS months,
                (SELECT string_agg(registration::text, ',') FROM console.lifecycle_periods()) AS registration`,
      );
      expect(p).toEqual({ months: 7, registration: "75 days" });
    });
    expect(followed.violations).toBe(0);
    // Changed with the console's trigger disabled (a restore, a hand edit): the rules still hold the old value.
    const stale = await violated("parameters compiled", async (tx) => {
      await tx.query("ALTER TABLE enum_parameters DISABLE TRIGGER console_state_parameters");
      await tx.query("UPDATE enum_parameters SET val = '7' WHERE id = 11");
    });
    expect(stale.violations).toBe(1);
    expect(stale.examples[0]).toMatch(/^enum_parameters: compiled \(.*,6\), stored \(.*,7\)$/);
  });

  it("reports an audited change that does not exist, a request audited twice, and a broken audit chain", async () => {
    const actor = { username: "test", clientAddress: null };
    const ghost = await violated("audited changes that do not exist", (tx) =>
      audit(tx, { action: "request.create", result: "ok", actor, input: { requestId: 99_999_999 } }),
    );
    expect(ghost.examples).toEqual([expect.stringMatching(/names request 99999999$/)]);
    const twice = await violated("requests audited twice", async (tx) => {
      const [{ id }] = await tx.query<{ id: number }>("SELECT min(id) AS id FROM object_state_request");
      await audit(tx, { action: "request.create", result: "ok", actor, input: { requestId: id } });
      await audit(tx, { action: "request.create", result: "ok", actor, input: { requestId: id } });
    });
    expect(twice.violations).toBe(1);
    const chain = await violated("audit chain", async (tx) => {
      await tx.run("ALTER TABLE console.audit_log DISABLE TRIGGER USER");
      await tx.run("UPDATE console.audit_log SET action = 'test.changed' WHERE id = (SELECT min(id) FROM console.audit_log)");
    });
    expect(chain.examples).toEqual([expect.stringMatching(/content was changed/)]);
    // Issue 39: a schema anyone may create in, or a function of the owner's that searches the caller's pg_temp first.
    const closed = await violated("owner's code closed", async (tx) => {
      await tx.run("GRANT CREATE ON SCHEMA public TO PUBLIC");
      await tx.run("ALTER FUNCTION console.lock_objects(integer[]) SET search_path = pg_catalog, public");
    });
    expect(closed.examples).toEqual([
      "PUBLIC may create objects in schema public (REVOKE CREATE ON SCHEMA public FROM PUBLIC)",
      "function console.lock_objects(integer[]) runs with search_path=pg_catalog, public, without pg_temp last",
    ]);
  });
});
