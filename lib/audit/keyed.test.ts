import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { testBackends } from "../../testing/databases";
import { runScript } from "../../testing/run-script";
import { checkDatabase } from "../check";
import { type Database, openDatabase } from "../db/client";
import { migrate, readMigrations } from "../db/migrations";
import type { AuditKeyRing } from "./keys";
import { audit } from "./log";
import { verifyAuditChain } from "./verify";

const OLD = "1:old-audit-key-0123456789abcdefghijklmnop";
const NEW = "2:new-audit-key-0123456789abcdefghijklmnop";
const someone = { username: "alice", clientAddress: "192.0.2.1" };
const person = {
  userId: 7,
  username: "bob",
  role: "operator" as const,
  sessionId: randomUUID().toUpperCase(),
  clientAddress: "2001:db8::7",
};

function ring(...entries: string[]): AuditKeyRing {
  const keys = entries.map((entry) => ({ id: Number(entry.split(":")[0]), secret: entry.slice(entry.indexOf(":") + 1) }));
  return { signing: keys[0], keys, source: "AUDIT_KEYS" };
}

async function withAuditRows(db: Database, count: number, action = "test.action"): Promise<void> {
  for (let i = 1; i <= count; i++) {
    await audit(db.sql, { action, result: "ok", actor: someone, objectIds: [i], input: { reason: `row ${i}` } });
  }
}

// Recomputes the unkeyed chain from the first row with the database's own console.audit_row_hash
// and moves the head to its end: what the finding did after deleting and renumbering rows.
const REHASH_AND_MOVE_HEAD = `
  DO $$
  DECLARE
    r console.audit_log;
    prev text := repeat('0', 64);
    h text;
  BEGIN
    FOR r IN SELECT * FROM console.audit_log ORDER BY id LOOP
      h := console.audit_row_hash(prev, r);
      UPDATE console.audit_log SET prev_hash = prev, hash = h WHERE id = r.id;
      prev := h;
    END LOOP;
    UPDATE console.audit_head SET last_id = coalesce((SELECT max(id) FROM console.audit_log), 0), last_hash = prev;
  END
  $$;`;

/** SQL run with every user trigger of the audit tables off, as the tables' owner (or a superuser) may. */
async function asOwner(db: Database, sql: string): Promise<void> {
  await db.direct.exec(`
    ALTER TABLE console.audit_log DISABLE TRIGGER USER;
    ALTER TABLE console.audit_head DISABLE TRIGGER USER;
    ${sql};
    ALTER TABLE console.audit_log ENABLE TRIGGER USER;
    ALTER TABLE console.audit_head ENABLE TRIGGER USER;`);
}

/** Deletes row `id`, renumbers the rows after it, recomputes the unkeyed chain and moves the head. */
async function rechainWithout(db: Database, id: number): Promise<void> {
  await asOwner(
    db,
    `DELETE FROM console.audit_log WHERE id = ${id};
     UPDATE console.audit_log SET id = -id WHERE id > ${id};
     UPDATE console.audit_log SET id = -id - 1 WHERE id < 0;
     ${REHASH_AND_MOVE_HEAD}`,
  );
}

/** Whether the unkeyed chain alone (the check before keyed chaining) finds nothing wrong. */
async function unkeyedChainWhole(db: Database): Promise<boolean> {
  const [row] = await db.sql.query<{ whole: boolean }>(
    `SELECT bool_and(c.hash = c.expected AND c.prev_hash = c.link AND c.id = c.n)
            AND (SELECT last_id = (SELECT count(*) FROM console.audit_log)
                        AND last_hash = (SELECT hash FROM console.audit_log ORDER BY id DESC LIMIT 1)
                   FROM console.audit_head) AS whole
       FROM (SELECT a.id, a.hash, a.prev_hash, console.audit_row_hash(a.prev_hash, a) AS expected,
                    coalesce(lag(a.hash) OVER (ORDER BY a.id), repeat('0', 64)) AS link,
                    row_number() OVER (ORDER BY a.id) AS n
               FROM console.audit_log a) c`,
  );
  return row.whole;
}

describe.each(testBackends())("keyed audit chain on $name", (backend) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    vi.unstubAllEnvs();
    await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  });
  async function fresh(migrations?: Awaited<ReturnType<typeof readMigrations>>): Promise<{ db: Database; url?: string }> {
    // Every migration: the run's migrated template, copied; some of them: migrated here.
    const { db, drop, url } = await (migrations ? backend.create() : backend.createMigrated());
    cleanups.push(drop);
    if (migrations) await migrate(db.direct, migrations);
    return { db, url };
  }

  it("signs every row with the audit key, over PostgreSQL's own text of its values", async () => {
    const { db } = await fresh();
    await audit(db.sql, { action: "auth.sign_in", result: "ok", actor: person, objectIds: [3, 1, 2_000_000_000] });
    await audit(db.sql, {
      action: "test.unicode",
      result: "error",
      errorCode: "žluťoučký",
      actor: { username: 'kůň \u001f "quoted" \\ ', clientAddress: null },
      input: { b: 1.5, a: [1e21, "x\ny", null, { z: true }], é: "\u2028" },
    });
    await audit(db.sql, { action: "test.nobody", result: "refused", actor: null });
    const rows = await db.sql.query<{ key_id: number; mac: string; session_id: string }>(
      "SELECT key_id, mac, session_id::text AS session_id FROM console.audit_log ORDER BY id",
    );
    expect(rows.map((r) => r.key_id)).toEqual([1, 1, 1]);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.mac))).toBe(true);
    expect(rows[0].session_id).toBe(person.sessionId.toLowerCase());
    expect(await verifyAuditChain(db.sql)).toMatchObject({ ok: true, rows: 3, keyed: 3, unkeyed: 0, problem: null });
  });

  it("detects a re-chained log: a row deleted, the rest renumbered, the chain recomputed with console.audit_row_hash, the head moved", async () => {
    const { db, url } = await fresh();
    await withAuditRows(db, 2);
    await audit(db.sql, {
      action: "auth.sign_in",
      result: "refused",
      errorCode: "invalid",
      actor: { username: "mallory", clientAddress: "203.0.113.9" },
    });
    await withAuditRows(db, 2);
    await rechainWithout(db, 3);

    // The failed sign-in is gone and the unkeyed chain is whole again: what fooled the hash chain.
    expect(await unkeyedChainWhole(db)).toBe(true);
    expect((await db.sql.query("SELECT 1 FROM console.audit_log WHERE actor = 'mallory'")).length).toBe(0);

    const result = await verifyAuditChain(db.sql);
    expect(result).toMatchObject({ ok: false, rows: 2, problem: { id: 3, reason: expect.stringMatching(/its MAC does not match/) } });
    const check = await checkDatabase(db.sql, ["audit chain"]);
    expect(check.ok).toBe(false);
    expect(check.checks[0].examples[0]).toMatch(/audit row 3: its MAC does not match/);

    // `npm run audit:verify` says so and exits non-zero.
    const location = backend.name === "pglite" ? (db.sql.location.match(/embedded database (.*)$/) ?? [])[1] : undefined;
    if (location) await db.close();
    const run = await runScript("audit-verify.ts", [], url ? { DATABASE_URL: url } : { DATABASE_URL: "", PGLITE_DIR: location as string });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Audit log NOT intact: row 3: its MAC does not match/);
    expect(run.stdout).not.toMatch(/intact/);
  });

  it("detects rows inserted without a valid MAC, and refuses unsigned rows at the door", async () => {
    const { db } = await fresh();
    await withAuditRows(db, 3);
    // Through the application's own connection, triggers on: an unsigned row is refused outright…
    await expect(db.sql.query("INSERT INTO console.audit_log (action, result) VALUES ('auth.sign_in', 'ok')")).rejects.toThrow(
      /rows are signed by the console: this row has no key_id and mac/,
    );
    // …and a signed row whose id is not the next one (its MAC computed without the chain's lock).
    await expect(
      db.sql.query("INSERT INTO console.audit_log (id, action, result, key_id, mac) VALUES (9, 'x', 'ok', 1, repeat('ab', 32))"),
    ).rejects.toThrow(/audit row id 9 is not the next in the chain \(4\)/);
    expect(await verifyAuditChain(db.sql)).toMatchObject({ ok: true, rows: 3 });

    // A made-up MAC passes the door (the database has no key) but not the verifier.
    await db.sql.query(
      "INSERT INTO console.audit_log (id, action, result, key_id, mac) SELECT last_id + 1, 'auth.sign_in', 'ok', 1, repeat('ab', 32) FROM console.audit_head",
    );
    expect(await verifyAuditChain(db.sql)).toMatchObject({
      ok: false,
      rows: 3,
      problem: { id: 4, reason: expect.stringMatching(/MAC does not match/) },
    });

    // A row appended behind the triggers' back with no MAC, its hash and the head set right.
    const { db: other } = await fresh();
    await withAuditRows(other, 3);
    await asOwner(
      other,
      `INSERT INTO console.audit_log (id, action, result, prev_hash, hash)
         SELECT last_id + 1, 'auth.sign_in', 'ok', last_hash, repeat('0', 64) FROM console.audit_head;
       ${REHASH_AND_MOVE_HEAD}`,
    );
    expect(await unkeyedChainWhole(other)).toBe(true);
    expect(await verifyAuditChain(other.sql)).toMatchObject({
      ok: false,
      rows: 3,
      problem: { id: 4, reason: expect.stringMatching(/has no MAC, but the log is keyed from row 1 on/) },
    });

    // A row naming a key the console does not have.
    const { db: third } = await fresh();
    await withAuditRows(third, 2);
    await asOwner(third, "UPDATE console.audit_log SET key_id = 9 WHERE id = 2");
    expect(await verifyAuditChain(third.sql)).toMatchObject({
      ok: false,
      problem: { id: 2, reason: expect.stringMatching(/signed with audit key 9, which is not configured \(AUDIT_KEYS has key 1\)/) },
    });
  });

  it("verifies rows of a rotated key while that key is configured, and reports a wrong or missing key", async () => {
    const { db } = await fresh();
    vi.stubEnv("AUDIT_KEYS", OLD);
    await withAuditRows(db, 3);
    vi.stubEnv("AUDIT_KEYS", `${NEW},${OLD}`);
    await withAuditRows(db, 2);
    const ids = await db.sql.query<{ key_id: number }>("SELECT key_id FROM console.audit_log ORDER BY id");
    expect(ids.map((r) => r.key_id)).toEqual([1, 1, 1, 2, 2]);

    expect(await verifyAuditChain(db.sql)).toMatchObject({ ok: true, rows: 5, keyed: 5 });
    expect(await verifyAuditChain(db.sql, { keys: ring(NEW, OLD) })).toMatchObject({ ok: true, rows: 5 });
    expect(await verifyAuditChain(db.sql, { keys: ring(NEW) })).toMatchObject({
      ok: false,
      rows: 0,
      problem: { id: 1, reason: expect.stringMatching(/signed with audit key 1, which is not configured \(AUDIT_KEYS has key 2\)/) },
    });
    expect(await verifyAuditChain(db.sql, { keys: ring(NEW, "1:some-other-secret-of-enough-length-000000") })).toMatchObject({
      ok: false,
      rows: 0,
      problem: { id: 1, reason: expect.stringMatching(/its MAC does not match/) },
    });
    expect(await verifyAuditChain(db.sql, { keys: ring("2:some-other-secret-of-enough-length-000000", OLD) })).toMatchObject({
      ok: false,
      rows: 3,
      problem: { id: 4, reason: expect.stringMatching(/its MAC does not match/) },
    });
    expect(await verifyAuditChain(db.sql, { keys: null })).toMatchObject({
      ok: false,
      problem: { id: 1, reason: expect.stringMatching(/no audit key is configured/) },
    });
  });

  it("reports rows from before the migration as written before keyed chaining, and seals them with the first keyed row", async () => {
    const all = await readMigrations();
    const { db } = await fresh(all.filter((m) => m.name < "20261125210000_audit_keyed"));
    for (let i = 1; i <= 3; i++) {
      await db.sql.query("INSERT INTO console.audit_log (actor, action, result, input) VALUES ('alice', 'test.old', 'ok', $1::jsonb)", [
        JSON.stringify({ n: i }),
      ]);
    }
    expect(await verifyAuditChain(db.sql)).toMatchObject({ ok: true, rows: 3, unkeyed: 3, keyed: 0 });
    await migrate(db.direct);
    await withAuditRows(db, 2);
    expect(await verifyAuditChain(db.sql)).toMatchObject({ ok: true, rows: 5, unkeyed: 3, keyed: 2, problem: null });

    // An old row rewritten and the whole unkeyed chain recomputed: the first keyed row's MAC covers
    // the hash of the row before it.
    await asOwner(db, `UPDATE console.audit_log SET actor = 'nobody' WHERE id = 2; ${REHASH_AND_MOVE_HEAD}`);
    expect(await unkeyedChainWhole(db)).toBe(true);
    expect(await verifyAuditChain(db.sql)).toMatchObject({
      ok: false,
      rows: 3,
      problem: { id: 4, reason: expect.stringMatching(/its MAC does not match/) },
    });
  });

  it("shows rows cut off the end, or MACs stripped, against an anchor kept outside the database", async () => {
    const { db } = await fresh();
    await withAuditRows(db, 5);
    const before = await verifyAuditChain(db.sql);
    expect(before.newest).toMatchObject({ id: 5, mac: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const anchor = { id: 5, mac: String(before.newest?.mac).slice(0, 32) };
    expect(await verifyAuditChain(db.sql, { anchor })).toMatchObject({ ok: true });

    // The chain alone cannot tell that its newest row was removed and the head moved back…
    await asOwner(db, `DELETE FROM console.audit_log WHERE id = 5; ${REHASH_AND_MOVE_HEAD}`);
    expect(await verifyAuditChain(db.sql)).toMatchObject({ ok: true, rows: 4 });
    // …the anchor can.
    expect(await verifyAuditChain(db.sql, { anchor })).toMatchObject({
      ok: false,
      problem: { id: 5, reason: expect.stringMatching(/the log ends at row 4, before the anchored row 5/) },
    });

    // Every MAC stripped makes the log look older than keyed chaining; the anchor row has none.
    const { db: other } = await fresh();
    await withAuditRows(other, 3);
    const newest = (await verifyAuditChain(other.sql)).newest;
    await asOwner(other, "UPDATE console.audit_log SET key_id = NULL, mac = NULL");
    expect(await verifyAuditChain(other.sql)).toMatchObject({ ok: true, keyed: 0, unkeyed: 3 });
    expect(await verifyAuditChain(other.sql, { anchor: { id: 3, mac: newest?.mac as string } })).toMatchObject({
      ok: false,
      problem: { id: 3, reason: expect.stringMatching(/its MAC is not the anchored one/) },
    });
  });

  it("keeps one chain when two connections append at once, each waiting for the other's lock", async () => {
    const { db, url } = await fresh();
    // PGlite is one connection in one process; PostgreSQL gets a second pool, as a second console process would.
    const other = url ? await openDatabase({ databaseUrl: url, pgliteDir: "" }) : db;
    if (other !== db) cleanups.unshift(() => other.close());
    await withAuditRows(db, 1);

    // A holds the chain's lock inside its transaction; B's append waits for it, then must chain onto A's row.
    let inserted!: () => void;
    const aInserted = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    let release!: () => void;
    const aReleased = new Promise<void>((resolve) => {
      release = resolve;
    });
    const a = db.sql.transaction(async (tx) => {
      await audit(tx, { action: "test.a", result: "ok", actor: someone });
      inserted();
      await aReleased;
    });
    await aInserted;
    const b = audit(other.sql, { action: "test.b", result: "ok", actor: someone });
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await Promise.all([a, b]);
    const order = await db.sql.query<{ action: string }>("SELECT action FROM console.audit_log ORDER BY id");
    expect(order.map((r) => r.action)).toEqual(["test.action", "test.a", "test.b"]);

    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        audit(i % 2 ? other.sql : db.sql, { action: "test.parallel", result: "ok", actor: someone, input: { i } }),
      ),
    );
    expect(await verifyAuditChain(db.sql)).toMatchObject({ ok: true, rows: 43, keyed: 43, problem: null });
  });
});
