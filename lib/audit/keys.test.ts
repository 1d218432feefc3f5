import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorLines, runScript } from "../../testing/run-script";
import { ConfigError, parseAuditKeys, readConfig } from "../config";
import { openDatabase } from "../db/client";
import { migrate } from "../db/migrations";
import { auditKeyFile, auditKeyRing, formatAuditKeys } from "./keys";
import { audit } from "./log";
import { verifyAuditChain } from "./verify";

const SECRET = "a-secret-of-at-least-thirty-two-characters";

/** The configuration read from exactly these variables. */
function configOf(env: Record<string, string>): ReturnType<typeof readConfig> {
  return readConfig(env as NodeJS.ProcessEnv);
}

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "rsc-audit-keys-"));
  dirs.push(dir);
  return dir;
}

describe("AUDIT_KEYS", () => {
  it("reads ID:SECRET entries, the first one signing", () => {
    const config = configOf({ AUDIT_KEYS: ` 2:${SECRET}x , 1:${SECRET} ` });
    expect(config.auditKeys).toEqual([
      { id: 2, secret: `${SECRET}x` },
      { id: 1, secret: SECRET },
    ]);
    const ring = auditKeyRing(config);
    expect(ring?.signing.id).toBe(2);
    expect(ring?.source).toBe("AUDIT_KEYS");
    expect(formatAuditKeys(ring as NonNullable<typeof ring>)).toBe(`2:${SECRET}x,1:${SECRET}`);
    expect(configOf({ AUDIT_KEYS: "  " }).auditKeys).toBeUndefined();
  });

  it("refuses malformed keys with a clear message that never repeats a secret", () => {
    const cases: [string, RegExp][] = [
      [SECRET, /AUDIT_KEYS entry 1 is not ID:SECRET \(e\.g\. AUDIT_KEYS=2:<new secret>,1:<old secret>/],
      [`x:${SECRET}`, /entry 1 has the key id "x"; a key id is a whole number from 1 to 2147483647/],
      [`0:${SECRET}`, /the key id "0"; a key id is a whole number/],
      [
        `1:${SECRET},2:too-short-secret`,
        /AUDIT_KEYS key 2 has a secret that is too short \(16 characters; at least 32\)\. Generate one with: openssl rand -base64 32/,
      ],
      [`1:${SECRET},1:${SECRET}y`, /AUDIT_KEYS names key id 1 twice/],
    ];
    for (const [value, message] of cases) {
      const parsed = parseAuditKeys(value);
      expect(parsed).toMatchObject({ problem: expect.stringMatching(message) });
      expect(() => configOf({ AUDIT_KEYS: value })).toThrow(ConfigError);
      try {
        configOf({ AUDIT_KEYS: value });
      } catch (error) {
        expect((error as Error).message).toMatch(/^configuration: AUDIT_KEYS: /);
        expect((error as Error).message).not.toContain(SECRET);
        expect((error as Error).message).not.toContain("too-short-secret");
      }
    }
  });
});

describe("the audit key without AUDIT_KEYS", () => {
  it("is a start-up error on PostgreSQL in production", () => {
    const config = configOf({ DATABASE_URL: "postgresql://console@db.example/registry", NODE_ENV: "production" });
    expect(() => auditKeyRing(config)).toThrow(ConfigError);
    expect(() => auditKeyRing(config)).toThrow(
      /AUDIT_KEYS is not set\. On PostgreSQL in production every console instance must sign audit rows with the same secret key.*openssl rand -base64 32/,
    );
  });

  it("outside production on PostgreSQL is the key file, with a warning to set AUDIT_KEYS", async () => {
    const dir = await tempDir();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const config = configOf({ DATABASE_URL: "postgresql://console@db.example/registry", PGLITE_DIR: path.join(dir, "pglite") });
      const ring = auditKeyRing(config);
      expect(ring?.source).toBe(path.join(dir, "audit.key"));
      expect(warn).toHaveBeenCalledWith(
        expect.stringMatching(/^AUDIT_KEYS is not set: audit rows on PostgreSQL are signed with the development key/),
      );
    } finally {
      warn.mockRestore();
    }
  });

  it("is generated for the embedded database on first use, beside its data directory, readable by its owner only", async () => {
    const dir = await tempDir();
    // npm start serves in production mode: the embedded console still needs no configuration.
    const config = configOf({ PGLITE_DIR: path.join(dir, "pglite"), NODE_ENV: "production" });
    const file = auditKeyFile(config);
    expect(file).toBe(path.join(dir, "audit.key"));
    expect(path.relative(config.pgliteDir, file).startsWith("..")).toBe(true);

    // Readers (audit:verify, db:check) never create one.
    expect(auditKeyRing(config, { create: false })).toBeNull();
    expect(existsSync(file)).toBe(false);

    const ring = auditKeyRing(config);
    expect(ring?.source).toBe(file);
    // A random six-digit id: never one an operator's own AUDIT_KEYS would use (1, 2, …).
    expect(ring?.signing.id).toBeGreaterThanOrEqual(100_000);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toMatch(/^[0-9]{6}:[A-Za-z0-9+/]{43}=\n$/);
    // The file's line is what AUDIT_KEYS takes, for moving to PostgreSQL or rotating.
    expect(configOf({ AUDIT_KEYS: readFileSync(file, "utf8").trim() }).auditKeys).toEqual(ring?.keys);

    // The embedded console signs with it, and a later process verifies with it.
    const db = await openDatabase(config);
    try {
      await migrate(db.direct);
      const previous = process.env.AUDIT_KEYS;
      const env = process.env as Record<string, string | undefined>;
      env.PGLITE_DIR = config.pgliteDir;
      delete env.AUDIT_KEYS;
      try {
        await audit(db.sql, { action: "test.file_key", result: "ok", actor: null });
      } finally {
        env.AUDIT_KEYS = previous;
        delete env.PGLITE_DIR;
      }
      expect(await db.sql.query("SELECT key_id FROM console.audit_log")).toEqual([{ key_id: ring?.signing.id }]);
    } finally {
      await db.close();
    }
    const run = await runScript("audit-verify.ts", [], { DATABASE_URL: "", PGLITE_DIR: config.pgliteDir, AUDIT_KEYS: "" });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Audit log intact: 1 rows; 1 with a MAC verified with the audit key\./);
    expect(run.stdout).toMatch(/Newest row 1 \(.*\); anchor: 1:[0-9a-f]{32}/);
    const anchor = (run.stdout.match(/anchor: (1:[0-9a-f]{32})/) ?? [])[1];
    expect(anchor).toBeDefined();
    const anchored = await runScript("audit-verify.ts", ["--anchor", anchor], {
      DATABASE_URL: "",
      PGLITE_DIR: config.pgliteDir,
      AUDIT_KEYS: "",
    });
    expect(anchored.code).toBe(0);
    expect(anchored.stdout).toMatch(/Anchor row 1 is in the log with its MAC\./);

    // Verified with another key, the same log is not intact.
    const id = ring?.signing.id;
    const wrong = await runScript("audit-verify.ts", [], { DATABASE_URL: "", PGLITE_DIR: config.pgliteDir, AUDIT_KEYS: `${id}:${SECRET}` });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/row 1: its MAC does not match/);
    const other = await runScript("audit-verify.ts", [], { DATABASE_URL: "", PGLITE_DIR: config.pgliteDir, AUDIT_KEYS: `1:${SECRET}` });
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(
      new RegExp(`row 1: it is signed with audit key ${id}, which is not configured \\(AUDIT_KEYS has key 1\\)`),
    );
    // The log checked against the key file it was signed with, read in place.
    const db2 = await openDatabase(config);
    try {
      expect(await verifyAuditChain(db2.sql, { keys: auditKeyRing(config, { create: false }) })).toMatchObject({ ok: true, keyed: 1 });
    } finally {
      await db2.close();
    }
  });

  it("stops audit:verify and db:check with one clear line, before they touch the database", async () => {
    const env = { DATABASE_URL: "postgresql://console:secret@127.0.0.1:1/registry", NODE_ENV: "production", AUDIT_KEYS: "" };
    for (const script of ["audit-verify.ts", "db-check.ts"]) {
      const result = await runScript(script, [], env);
      expect(result.code).toBe(1);
      const lines = errorLines(result);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/AUDIT_KEYS is not set/);
    }
    const short = await runScript("audit-verify.ts", [], { ...env, AUDIT_KEYS: "1:short-secret" });
    expect(short.code).toBe(1);
    expect(errorLines(short)).toEqual([
      expect.stringMatching(/configuration: AUDIT_KEYS: AUDIT_KEYS key 1 has a secret that is too short/),
    ]);
    expect(short.stderr).not.toContain("short-secret");
  });
});
