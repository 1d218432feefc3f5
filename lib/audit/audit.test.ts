import { afterEach, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { runScript } from "../../testing/run-script";
import { actAs, signedInAs } from "../../testing/sessions";
import { english } from "../actions/message";
import type { Database } from "../db/client";
import { audit } from "./log";
import { listAudit } from "./query";
import { verifyAuditChain } from "./verify";

const someone = { username: "alice", clientAddress: "192.0.2.1" };

async function withAuditRows(db: Database, count: number): Promise<void> {
  for (let i = 1; i <= count; i++) {
    await audit(db.sql, { action: "test.action", result: "ok", actor: someone, objectIds: [i], input: { reason: `row ${i}` } });
  }
}

/** What someone with the database superuser's rights could do behind the application's back. */
async function tamper(db: Database, sql: string): Promise<void> {
  await db.direct.exec(`ALTER TABLE console.audit_log DISABLE TRIGGER USER; ${sql}; ALTER TABLE console.audit_log ENABLE TRIGGER USER;`);
}

describe.each(testBackends())("audit log on $name", (backend) => {
  const drops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(drops.splice(0).map((d) => d()));
  });
  async function fresh(): Promise<Database> {
    const { db, drop } = await backend.createMigrated();
    drops.push(drop);
    return db;
  }

  it("chains every row to the one before it", async () => {
    const db = await fresh();
    await withAuditRows(db, 5);
    const rows = await db.sql.query<{ id: string; prev_hash: string; hash: string }>(
      "SELECT id::text, prev_hash, hash FROM console.audit_log ORDER BY id",
    );
    expect(rows.map((r) => Number(r.id))).toEqual([1, 2, 3, 4, 5]);
    expect(rows[0].prev_hash).toBe("0".repeat(64));
    for (let i = 1; i < rows.length; i++) expect(rows[i].prev_hash).toBe(rows[i - 1].hash);
    expect(await verifyAuditChain(db.sql)).toMatchObject({ ok: true, rows: 5, keyed: 5, unkeyed: 0, problem: null });
  });

  it("cannot be updated, deleted or truncated through the application's connection", async () => {
    const db = await fresh();
    await withAuditRows(db, 2);
    await expect(db.sql.query("UPDATE console.audit_log SET result = 'error' WHERE id = 1")).rejects.toThrow(/append-only/);
    await expect(db.sql.query("DELETE FROM console.audit_log WHERE id = 2")).rejects.toThrow(/append-only/);
    await expect(db.direct.exec("TRUNCATE console.audit_log")).rejects.toThrow(/append-only/);
    await expect(db.sql.query("UPDATE console.audit_head SET last_id = 1")).rejects.toThrow(/moves only when an audit row is appended/);
    expect(await verifyAuditChain(db.sql)).toMatchObject({ ok: true, rows: 2 });
  });

  it("detects a row changed behind the triggers' back", async () => {
    const db = await fresh();
    await withAuditRows(db, 4);
    await tamper(db, `UPDATE console.audit_log SET input = '{"reason": "nothing to see"}' WHERE id = 3`);
    expect(await verifyAuditChain(db.sql)).toMatchObject({
      ok: false,
      rows: 2,
      problem: { id: 3, reason: "its content was changed after it was written" },
    });
  });

  it("detects a removed row and a removed newest row", async () => {
    const db = await fresh();
    await withAuditRows(db, 4);
    await tamper(db, "DELETE FROM console.audit_log WHERE id = 2");
    expect(await verifyAuditChain(db.sql)).toMatchObject({ ok: false, problem: { id: 3, reason: "rows 2–2 are missing" } });

    const other = await fresh();
    await withAuditRows(other, 3);
    await tamper(other, "DELETE FROM console.audit_log WHERE id = 3");
    expect(await verifyAuditChain(other.sql)).toMatchObject({
      ok: false,
      rows: 2,
      problem: { reason: expect.stringMatching(/newest rows are missing/) },
    });
  });

  it("lists newest first in numeric order and pages on to older rows", async () => {
    const db = await fresh();
    await withAuditRows(db, 60);
    const admin = await signedInAs(db, "admin");
    const first = await actAs(admin, () => listAudit({ action: "test.action" }));
    expect(first.rows.map((r) => r.id)).toEqual(Array.from({ length: 50 }, (_, i) => 60 - i));
    expect(first.nextBefore).toBe(11);
    const second = await actAs(admin, () => listAudit({ action: "test.action", before: String(first.nextBefore) }));
    expect(second.rows.map((r) => r.id)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(second.nextBefore).toBeNull();
  });

  it("filters by an action or a group of actions; an action no entry has is named in a notice and ignored", async () => {
    const db = await fresh();
    await withAuditRows(db, 2);
    await audit(db.sql, { action: "test.other", result: "ok", actor: someone, input: {} });
    await audit(db.sql, { action: "testing.more", result: "ok", actor: someone, input: {} });
    const admin = await signedInAs(db, "admin");
    const list = (action: string) => actAs(admin, () => listAudit({ action }));
    const all = await actAs(admin, () => listAudit({}));
    expect(all.rows).toHaveLength(4);
    expect((await list("test.other")).rows.map((r) => r.action)).toEqual(["test.other"]);
    expect((await list("test")).rows.map((r) => r.action)).toEqual(["test.other", "test.action", "test.action"]);
    for (const action of ["drop.table", "test.actio", "tes", "test.action.x"]) {
      const page = await list(action);
      expect(page.notices.map(english), action).toEqual([
        `No entry of the audit log has the action “${action}”; the action filter is ignored.`,
      ]);
      expect(page.filters.action).toBe("");
      expect(page.rows).toEqual(all.rows);
    }
  });

  it("stays one unbroken chain when many writers append at once", async () => {
    const db = await fresh();
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => audit(db.sql, { action: "test.parallel", result: "ok", actor: someone, input: { i } })),
    );
    expect(await verifyAuditChain(db.sql)).toMatchObject({ ok: true, rows: 40, keyed: 40, problem: null });
  });
});

describe("npm run audit:verify", () => {
  it("reports an altered log with a non-zero exit status", async () => {
    const [backend] = testBackends();
    const { db, drop } = await backend.createMigrated();
    try {
      await withAuditRows(db, 3);
      await tamper(db, "UPDATE console.audit_log SET actor = 'mallory' WHERE id = 2");
      const dir = (db.sql.location.match(/embedded database (.*)$/) ?? [])[1];
      await db.close();
      const result = await runScript("audit-verify.ts", [], { DATABASE_URL: "", PGLITE_DIR: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/Audit log NOT intact: row 2: its content was changed/);
    } finally {
      await drop().catch(() => {});
    }
  });
});
