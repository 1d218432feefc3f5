import { readFileSync, utimesSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { runScript } from "../../testing/run-script";
import { checkDatabase } from "../check";
import type { Database } from "../db/client";
import { type AuditAnchor, advanceAuditAnchor, auditAnchorFile, readAnchor, replaceAnchor, signAnchor, verifyAuditLog } from "./anchor";
import { startAuditAnchoring } from "./anchoring";
import type { AuditKeyRing } from "./keys";
import { audit } from "./log";
import { verifyAuditChain } from "./verify";

// The key vitest.config.ts gives every test (AUDIT_KEYS), which audit() signs rows with.
const KEY = { id: 1, secret: "test-audit-key-not-secret-0123456789abcdef" };
const RING: AuditKeyRing = { signing: KEY, keys: [KEY], source: "AUDIT_KEYS" };
const OTHER_KEY = { id: 1, secret: "someone-elses-key-of-enough-length-0000000" };
const OTHER: AuditKeyRing = { signing: OTHER_KEY, keys: [OTHER_KEY], source: "AUDIT_KEYS" };
const someone = { username: "alice", clientAddress: "192.0.2.1" };
const NO_CONFIG = { auditAnchorFile: undefined, databaseUrl: undefined, pgliteDir: "/unused/pglite" };

async function append(db: Database, count: number, action = "test.action"): Promise<void> {
  for (let i = 0; i < count; i++) await audit(db.sql, { action, result: "ok", actor: someone, input: { i } });
}

/**
 * What the finding did as the tables' owner (or a superuser): the newest rows deleted behind the
 * triggers' back (session_replication_role = replica skips them, for a superuser on PostgreSQL
 * and in PGlite) and console.audit_head moved back to match, so the chain in the database ends,
 * whole, at row `keep`.
 */
async function cutOffAfter(db: Database, keep: number): Promise<void> {
  await db.direct.exec(`
    SET session_replication_role = replica;
    DELETE FROM console.audit_log WHERE id > ${keep};
    UPDATE console.audit_head SET last_id = ${keep}, last_hash = (SELECT hash FROM console.audit_log WHERE id = ${keep});
    RESET session_replication_role;`);
  const [left] = await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM console.audit_log");
  expect(left.n).toBe(keep);
}

function location(db: Database): string | undefined {
  return (db.sql.location.match(/embedded database (.*)$/) ?? [])[1];
}

/** The environment of `npm run audit:verify` for the test's database (an embedded one must be closed first). */
function scriptEnv(db: Database, url: string | undefined, file: string): Record<string, string> {
  return url
    ? { DATABASE_URL: url, AUDIT_ANCHOR_FILE: file }
    : { DATABASE_URL: "", PGLITE_DIR: location(db) as string, AUDIT_ANCHOR_FILE: file };
}

describe("where the anchor is kept", () => {
  it("is AUDIT_ANCHOR_FILE, else beside the audit key file: one for the embedded database, one per PostgreSQL database", () => {
    expect(auditAnchorFile({ ...NO_CONFIG, auditAnchorFile: "/var/lib/console/anchor" }, "x")).toBe("/var/lib/console/anchor");
    expect(auditAnchorFile({ ...NO_CONFIG, pgliteDir: "/srv/.data/pglite" }, "postgres")).toBe("/srv/.data/audit.anchor");
    const pg = { ...NO_CONFIG, databaseUrl: "postgresql://console@db/registry", pgliteDir: "/srv/.data/pglite" };
    expect(auditAnchorFile(pg, "registry")).toBe("/srv/.data/audit.registry.anchor");
    expect(auditAnchorFile(pg, "../a b")).toBe("/srv/.data/audit.%2e%2e%2fa%20b.anchor");
  });
});

describe.each(testBackends())("the audit log's anchor outside the database on $name", (backend) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  });
  async function fresh(): Promise<{ db: Database; url?: string; file: string }> {
    const { db, drop, url } = await backend.createMigrated();
    const dir = await mkdtemp(path.join(tmpdir(), "rsc-anchor-"));
    cleanups.push(drop, () => rm(dir, { recursive: true, force: true }));
    return { db, url, file: path.join(dir, "audit.anchor") };
  }
  const stored = (file: string) => (readAnchor(file) as { anchor: AuditAnchor | null }).anchor;

  it("shows the newest rows deleted by the owner with console.audit_head moved back, which the chain alone calls intact", async () => {
    const { db, url, file } = await fresh();
    await append(db, 5);
    // The first check keeps an anchor; the running console moves it as rows are appended.
    const first = await verifyAuditLog(db.sql, { keys: RING, config: NO_CONFIG, file });
    expect(first).toMatchObject({ ok: true, rows: 5, anchor: null, written: { id: 5 } });
    await append(db, 3, "admin.user_role_changed");
    expect(await advanceAuditAnchor(db.sql, RING, NO_CONFIG, file)).toMatchObject({ outcome: "written", anchor: { id: 8 } });
    expect(stored(file)).toMatchObject({ id: 8, keyId: 1, mac: expect.stringMatching(/^[0-9a-f]{64}$/) });

    await cutOffAfter(db, 5);
    // What audit:verify said before: the chain in the database is whole.
    expect(await verifyAuditChain(db.sql, { keys: RING })).toMatchObject({ ok: true, rows: 5 });
    // Against the anchor it is not.
    expect(await verifyAuditLog(db.sql, { keys: RING, config: NO_CONFIG, file })).toMatchObject({
      ok: false,
      written: null,
      problem: {
        id: 8,
        reason: expect.stringMatching(/^rows after #5 are missing: the log ends at row 5, but the anchor written at .* holds row 8/),
      },
    });
    // So does `npm run db:check`'s audit chain.
    const check = await checkDatabase(db.sql, ["audit chain"], { auditAnchor: { ...NO_CONFIG, auditAnchorFile: file } });
    expect(check.ok).toBe(false);
    expect(check.checks[0].examples).toEqual([expect.stringMatching(/^audit row 8: rows after #5 are missing/)]);
    // The running console does not move the anchor past it, and says so.
    expect(await advanceAuditAnchor(db.sql, RING, NO_CONFIG, file)).toMatchObject({
      outcome: "refused",
      problem: expect.stringMatching(/audit row 8, anchored at .*, is gone: the audit log's newest rows were removed/),
    });
    expect(stored(file)).toMatchObject({ id: 8 });

    // New rows fill the ids again: row 8 is now another row, the head rewritten.
    await append(db, 4);
    expect(await verifyAuditChain(db.sql, { keys: RING })).toMatchObject({ ok: true, rows: 9 });
    expect(await verifyAuditLog(db.sql, { keys: RING, config: NO_CONFIG, file })).toMatchObject({
      ok: false,
      rows: 7,
      problem: { id: 8, reason: expect.stringMatching(/it is not the row the anchor written at .* holds: the log was rewritten/) },
    });
    const logged: string[] = [];
    const anchoring = startAuditAnchoring(
      async () => db.sql,
      RING,
      { ...NO_CONFIG, auditAnchorFile: file },
      {
        info: () => {},
        error: (line) => logged.push(line),
      },
    );
    anchoring.stop();
    await anchoring.first;
    expect(logged).toEqual([
      expect.stringMatching(
        /^audit log: audit row 8 is not the row anchored at .*: the audit log was rewritten\. Run npm run audit:verify\.$/,
      ),
    ]);
    expect(stored(file)).toMatchObject({ id: 8 });

    // `npm run audit:verify` without arguments says so and exits 2.
    const env = scriptEnv(db, url, file);
    if (!url) await db.close();
    const run = await runScript("audit-verify.ts", [], env);
    expect(run.stderr).toMatch(/Audit log NOT intact: row 8: it is not the row the anchor written at .* holds/);
    expect(run.code).toBe(2);
  });

  it("keeps and moves the anchor from audit:verify without arguments", async () => {
    const { db, url, file } = await fresh();
    await append(db, 2);
    const env = scriptEnv(db, url, file);
    if (!url) await db.close();
    const first = await runScript("audit-verify.ts", [], env);
    expect(first.stdout).toMatch(/No anchor was kept in .* yet/);
    expect(first.stdout).toMatch(/The anchor in .* now holds row 2\./);
    expect(first.code).toBe(0);
    const second = await runScript("audit-verify.ts", [], env);
    expect(second.stdout).toMatch(/Row 2, anchored at .*, is in the log unchanged\./);
    expect(second.code).toBe(0);
    expect(stored(file)).toMatchObject({ id: 2 });
  });

  it("refuses a forged anchor, and one of another database, and does not replace them", async () => {
    const { db, url, file } = await fresh();
    await append(db, 4);
    const [row] = await db.sql.query<{ hash: string; mac: string }>("SELECT hash, mac FROM console.audit_log WHERE id = 2");
    const [{ name }] = await db.sql.query<{ name: string }>("SELECT current_database() AS name");

    // An anchor moved back to row 2, made without the audit key (here: with another one).
    const forged = signAnchor(OTHER, { database: name, id: 2, hash: row.hash, mac: row.mac });
    writeFileSync(file, JSON.stringify(forged));
    const refusal = /the audit log's anchor in .* does not carry the audit key's signature: it was forged or damaged/;
    expect(await verifyAuditLog(db.sql, { keys: RING, config: NO_CONFIG, file })).toMatchObject({
      ok: false,
      rows: 4,
      written: null,
      anchorRefused: true,
      problem: { id: 2, reason: expect.stringMatching(refusal) },
    });
    expect(await advanceAuditAnchor(db.sql, RING, NO_CONFIG, file)).toMatchObject({
      outcome: "refused",
      problem: expect.stringMatching(refusal),
    });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(forged);

    // A genuine anchor with a value changed after signing.
    const genuine = signAnchor(RING, { database: name, id: 4, hash: row.hash, mac: row.mac });
    writeFileSync(file, JSON.stringify({ ...genuine, id: 2 }));
    expect(await verifyAuditLog(db.sql, { keys: RING, config: NO_CONFIG, file })).toMatchObject({
      ok: false,
      problem: { reason: expect.stringMatching(refusal) },
    });

    // Not an anchor at all.
    writeFileSync(file, "{}");
    expect(await verifyAuditLog(db.sql, { keys: RING, config: NO_CONFIG, file })).toMatchObject({
      ok: false,
      problem: { reason: expect.stringMatching(/is not an anchor the console wrote/) },
    });
    expect(readFileSync(file, "utf8")).toBe("{}");

    // Another database's anchor, signed with the same key.
    writeFileSync(file, JSON.stringify(signAnchor(RING, { database: "elsewhere", id: 1, hash: row.hash, mac: row.mac })));
    expect(await verifyAuditLog(db.sql, { keys: RING, config: NO_CONFIG, file })).toMatchObject({
      ok: false,
      problem: { reason: expect.stringMatching(/is of database elsewhere, not /) },
    });

    // `npm run audit:verify` refuses the forged one with exit status 2.
    writeFileSync(file, JSON.stringify(forged));
    const env = scriptEnv(db, url, file);
    if (!url) await db.close();
    const run = await runScript("audit-verify.ts", [], env);
    expect(run.stderr).toMatch(
      /Audit log NOT verified against its anchor: the audit log's anchor in .* does not carry the audit key's signature/,
    );
    expect(run.code).toBe(2);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(forged);
  });

  it("only moves forward, whichever of several writers comes first, and logs each new anchor", async () => {
    const { db, file } = await fresh();
    await append(db, 3);
    // Several instances at once: each writes the newest row or leaves it to the one that does.
    const advances = await Promise.all(Array.from({ length: 6 }, () => advanceAuditAnchor(db.sql, RING, NO_CONFIG, file)));
    expect(advances.some((a) => a.outcome === "written")).toBe(true);
    expect(advances.every((a) => a.outcome !== "refused")).toBe(true);
    const at3 = stored(file) as AuditAnchor;
    expect(at3).toMatchObject({ id: 3 });

    // A writer that checked the anchor at row 3 and saw row 5 loses to one that already wrote row 6.
    const [{ name }] = await db.sql.query<{ name: string }>("SELECT current_database() AS name");
    const row = { database: name, hash: "a".repeat(64), mac: null };
    const at6 = signAnchor(RING, { ...row, id: 6 });
    expect(replaceAnchor(file, at3, at6)).toBe(true);
    expect(replaceAnchor(file, at3, signAnchor(RING, { ...row, id: 5 }))).toBe(false);
    expect(replaceAnchor(file, at6, signAnchor(RING, { ...row, id: 6 }))).toBe(false);
    expect(stored(file)).toEqual(at6);

    // A writer holding the lock: the others leave the file alone; a lock left by a crash is taken over.
    writeFileSync(`${file}.lock`, "12345");
    const at7 = signAnchor(RING, { ...row, id: 7 });
    expect(replaceAnchor(file, at6, at7)).toBe(false);
    const old = new Date(Date.now() - 120_000);
    utimesSync(`${file}.lock`, old, old);
    expect(replaceAnchor(file, at6, at7)).toBe(true);
    expect(stored(file)).toEqual(at7);

    // The running console: it anchors at once and logs the new anchor with the --anchor that
    // audit:verify takes; later it moves only when there is a newer row.
    const other = await fresh();
    await append(other.db, 2);
    const lines: string[] = [];
    const anchoring = startAuditAnchoring(
      async () => other.db.sql,
      RING,
      { ...NO_CONFIG, auditAnchorFile: other.file },
      {
        info: (line) => lines.push(line),
        error: (line) => lines.push(line),
      },
    );
    // Stopped at once: no timer runs during the test; the first move and tick() still work.
    anchoring.stop();
    await anchoring.first;
    const [{ mac }] = await other.db.sql.query<{ mac: string }>("SELECT mac FROM console.audit_log WHERE id = 2");
    expect(lines).toEqual([
      `audit anchor: row 2 at ${stored(other.file)?.writtenAt}; check later with npm run audit:verify -- --anchor 2:${mac.slice(0, 32)}`,
    ]);
    expect(await anchoring.tick()).toMatchObject({ outcome: "unchanged" });
    await append(other.db, 1);
    expect(await anchoring.tick()).toMatchObject({ outcome: "written", anchor: { id: 3 } });
    expect(stored(other.file)).toMatchObject({ id: 3 });
  });
});
