import { createHmac, randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";
import type { ConsoleConfig } from "../config";
import type { SqlExecutor } from "../db/driver";
import { type AuditKeyRing, sameMac } from "./keys";
import { type AuditVerification, verifyAuditChain } from "./verify";

/**
 * The audit log's anchor: the newest row the console has seen (its id, hash and MAC), signed with
 * the audit key and kept in a file outside the database. The chains show every row changed, removed
 * or inserted, but not rows cut off the end with the head moved back: whoever owns the database can
 * do that and the chain is whole again. The anchor can: the row it names must still be there,
 * unchanged. The database's roles cannot rewrite the file, nor sign another one without the key.
 */
export interface AuditAnchor {
  /** The database whose log it is: current_database(). */
  database: string;
  id: number;
  hash: string;
  /** The row's MAC (null for a row written before keyed chaining). */
  mac: string | null;
  /** When it was written (ISO 8601, UTC). */
  writtenAt: string;
  keyId: number;
  /** HMAC-SHA256 under key `keyId` over everything above. */
  signature: string;
}

type AnchorConfig = Pick<ConsoleConfig, "auditAnchorFile" | "databaseUrl" | "pgliteDir">;

/**
 * Where the anchor is kept: AUDIT_ANCHOR_FILE; otherwise beside the audit key file, in the folder
 * that holds PGLITE_DIR: `audit.anchor` for the embedded database, `audit.<database>.anchor` for a
 * PostgreSQL database (so that several databases used from one place keep theirs apart).
 */
export function auditAnchorFile(config: AnchorConfig, database: string): string {
  if (config.auditAnchorFile) return config.auditAnchorFile;
  const name = config.databaseUrl
    ? `audit.${database.replace(/[^A-Za-z0-9_-]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}.anchor`
    : "audit.anchor";
  return path.join(path.dirname(config.pgliteDir), name);
}

async function currentDatabase(db: SqlExecutor): Promise<string> {
  const [row] = await db.query<{ name: string }>("SELECT current_database() AS name");
  return row.name;
}

function signature(secret: string, anchor: Omit<AuditAnchor, "signature">): string {
  const canonical = JSON.stringify([
    "registry-state-console audit anchor v1",
    anchor.keyId,
    anchor.database,
    anchor.id,
    anchor.hash,
    anchor.mac,
    anchor.writtenAt,
  ]);
  return createHmac("sha256", secret).update(canonical, "utf8").digest("hex");
}

export function signAnchor(
  ring: AuditKeyRing,
  row: { database: string; id: number; hash: string; mac: string | null },
  at = new Date(),
): AuditAnchor {
  const unsigned = { ...row, writtenAt: at.toISOString(), keyId: ring.signing.id };
  return { ...unsigned, signature: signature(ring.signing.secret, unsigned) };
}

/** Why `anchor` cannot be believed (it is not of this database, or not signed with a configured key), or null. */
function anchorProblem(anchor: AuditAnchor, ring: AuditKeyRing | null, database: string, file: string): string | null {
  const key = ring?.keys.find((k) => k.id === anchor.keyId);
  if (!key) {
    return `the audit log's anchor in ${file} is signed with audit key ${anchor.keyId}, which is not configured${ring ? ` (${ring.source} has key ${ring.keys.map((k) => k.id).join(", ")})` : " (set AUDIT_KEYS)"}`;
  }
  const { signature: given, ...unsigned } = anchor;
  if (!sameMac(given, signature(key.secret, unsigned))) {
    return (
      `the audit log's anchor in ${file} does not carry the audit key's signature: it was forged or damaged (or key ${anchor.keyId} in ${ring?.source} ` +
      "is not the key that wrote it), and is not used (nor replaced); restore the anchor you kept, or find out who wrote it"
    );
  }
  if (anchor.database !== database) {
    return `the audit log's anchor in ${file} is of database ${anchor.database}, not ${database}: set AUDIT_ANCHOR_FILE for each database`;
  }
  return null;
}

const HEX64 = /^[0-9a-f]{64}$/;

/** The anchor in `file`: absent (null) or its content, unchecked; a problem when it is not an anchor at all. */
export function readAnchor(file: string): { anchor: AuditAnchor | null } | { problem: string } {
  let text: string;
  try {
    text = readFileSync(/* turbopackIgnore: true */ file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { anchor: null };
    return { problem: `cannot read the audit log's anchor ${file}: ${(error as Error).message}` };
  }
  try {
    const a = JSON.parse(text) as Record<string, unknown>;
    if (
      typeof a.database === "string" &&
      Number.isSafeInteger(a.id) &&
      (a.id as number) > 0 &&
      typeof a.hash === "string" &&
      HEX64.test(a.hash) &&
      (a.mac === null || (typeof a.mac === "string" && HEX64.test(a.mac))) &&
      typeof a.writtenAt === "string" &&
      Number.isSafeInteger(a.keyId) &&
      typeof a.signature === "string" &&
      HEX64.test(a.signature)
    ) {
      const { database, id, hash, mac, writtenAt, keyId, signature } = a as unknown as AuditAnchor;
      return { anchor: { database, id, hash, mac, writtenAt, keyId, signature } };
    }
  } catch {
    // reported below
  }
  return {
    problem: `the audit log's anchor ${file} is not an anchor the console wrote (damaged or replaced); it is not used (nor replaced)`,
  };
}

/** A lock held only while the file is read and replaced; one left behind by a crashed process is taken over after a minute. */
const STALE_LOCK_MS = 60_000;

/**
 * Replaces the anchor in `file` with `next`, only when the file still holds `expected` (what the
 * caller checked against the database; null: no file) and `next` is newer: anchors only move
 * forward, whichever of several processes (instances, audit:verify) writes first. Written beside
 * and renamed into place, so a reader sees a whole anchor. Returns whether it was written.
 */
export function replaceAnchor(file: string, expected: AuditAnchor | null, next: AuditAnchor): boolean {
  if (expected && next.id <= expected.id) return false;
  mkdirSync(/* turbopackIgnore: true */ path.dirname(file), { recursive: true });
  const lock = `${file}.lock`;
  let fd: number;
  try {
    fd = openSync(/* turbopackIgnore: true */ lock, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    try {
      if (Date.now() - statSync(/* turbopackIgnore: true */ lock).mtimeMs < STALE_LOCK_MS) return false;
      unlinkSync(/* turbopackIgnore: true */ lock);
    } catch {
      return false;
    }
    return replaceAnchor(file, expected, next);
  }
  try {
    writeSync(fd, String(process.pid));
    const current = readAnchor(file);
    const holds = "anchor" in current && (current.anchor?.signature ?? null) === (expected?.signature ?? null);
    if (!holds) return false;
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    writeFileSync(/* turbopackIgnore: true */ temporary, `${JSON.stringify(next)}\n`, { mode: 0o600 });
    renameSync(/* turbopackIgnore: true */ temporary, /* turbopackIgnore: true */ file);
    return true;
  } finally {
    closeSync(fd);
    unlinkSync(/* turbopackIgnore: true */ lock);
  }
}

interface NewestRow {
  id: string;
  hash: string;
  mac: string | null;
}

async function newestRow(db: SqlExecutor): Promise<NewestRow | null> {
  const [row] = await db.query<NewestRow>("SELECT id::text AS id, hash, mac FROM console.audit_log ORDER BY id DESC LIMIT 1");
  return row ?? null;
}

export interface AnchoredVerification extends AuditVerification {
  /** The anchor file. */
  file: string;
  /** The anchor the log was checked against; null when there was none yet. */
  anchor: AuditAnchor | null;
  /** The anchor written after the check (the newest row); null when none was (the log not intact, or nothing newer). */
  written: AuditAnchor | null;
  /** The anchor file could not be believed (`problem` says why); the chain itself was intact. */
  anchorRefused: boolean;
  /** Why the new anchor could not be written (the file's folder not writable, …). */
  writeError?: string;
}

/**
 * Verifies the whole audit log (verifyAuditChain) against the anchor kept in `file`: the row it
 * names must still be there with the same hash and MAC, which shows rows cut off the end and a
 * head rewritten. A forged or unreadable anchor fails the check. When the log is intact, the
 * newest row becomes the new anchor.
 */
export async function verifyAuditLog(
  db: SqlExecutor,
  options: { keys: AuditKeyRing | null; config: AnchorConfig; file?: string },
): Promise<AnchoredVerification> {
  const database = await currentDatabase(db);
  const file = options.file ?? auditAnchorFile(options.config, database);
  const stored = readAnchor(file);
  const anchor = "anchor" in stored ? stored.anchor : null;
  const problem = "problem" in stored ? stored.problem : anchor && anchorProblem(anchor, options.keys, database, file);
  if (problem) {
    // An anchor that cannot be believed fails the check; a chain that is broken (or a wrong key) is said first.
    const chain = await verifyAuditChain(db, { keys: options.keys });
    if (!chain.ok) return { ...chain, file, anchor: null, written: null, anchorRefused: false };
    return {
      ...chain,
      ok: false,
      problem: { id: anchor?.id ?? 0, reason: problem },
      file,
      anchor: null,
      written: null,
      anchorRefused: true,
    };
  }
  const result = await verifyAuditChain(db, {
    keys: options.keys,
    anchor: anchor
      ? { id: anchor.id, hash: anchor.hash, mac: anchor.mac, description: `the anchor written at ${anchor.writtenAt} (${file})` }
      : undefined,
  });
  let written: AuditAnchor | null = null;
  let writeError: string | undefined;
  if (result.ok && result.newest && options.keys && (!anchor || result.newest.id > anchor.id)) {
    const next = signAnchor(options.keys, { database, id: result.newest.id, hash: result.newest.hash, mac: result.newest.mac });
    try {
      if (replaceAnchor(file, anchor, next)) written = next;
    } catch (error) {
      writeError = `the anchor could not be written to ${file}: ${(error as Error).message}`;
    }
  }
  return { ...result, file, anchor, written, anchorRefused: false, writeError };
}

export interface AnchorAdvance {
  /** What happened: written (the anchor moved to `anchor`), unchanged, or refused (`problem`: the log or the anchor is not what it was). */
  outcome: "written" | "unchanged" | "refused";
  anchor?: AuditAnchor;
  problem?: string;
}

/**
 * Moves the anchor in `file` to the log's newest row, as the running console does after appends
 * and every minute. Cheap (two indexed reads): it does not verify the chain, which audit:verify
 * does; it only refuses to move past an anchored row that is gone or changed, so that the evidence
 * of a cut stays in the file until someone looks.
 */
export async function advanceAuditAnchor(db: SqlExecutor, ring: AuditKeyRing, config: AnchorConfig, file?: string): Promise<AnchorAdvance> {
  const database = await currentDatabase(db);
  const where = file ?? auditAnchorFile(config, database);
  const stored = readAnchor(where);
  if ("problem" in stored) return { outcome: "refused", problem: stored.problem };
  const anchor = stored.anchor;
  if (anchor) {
    const problem = anchorProblem(anchor, ring, database, where);
    if (problem) return { outcome: "refused", problem };
    const [row] = await db.query<{ hash: string; mac: string | null }>("SELECT hash, mac FROM console.audit_log WHERE id = $1", [
      anchor.id,
    ]);
    if (!row || row.hash !== anchor.hash || row.mac !== anchor.mac) {
      return {
        outcome: "refused",
        problem: row
          ? `audit row ${anchor.id} is not the row anchored at ${anchor.writtenAt} (${where}): the audit log was rewritten`
          : `audit row ${anchor.id}, anchored at ${anchor.writtenAt} (${where}), is gone: the audit log's newest rows were removed`,
      };
    }
  }
  const newest = await newestRow(db);
  if (!newest || (anchor && Number(newest.id) <= anchor.id)) return { outcome: "unchanged" };
  const next = signAnchor(ring, { database, id: Number(newest.id), hash: newest.hash, mac: newest.mac });
  return replaceAnchor(where, anchor, next) ? { outcome: "written", anchor: next } : { outcome: "unchanged" };
}
