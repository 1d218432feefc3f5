import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import { type AuditKey, ConfigError, type ConsoleConfig, parseAuditKeys } from "../config";

/**
 * The secret keys of the audit log's MAC chain. They live outside the database (AUDIT_KEYS, or the
 * embedded console's key file), so that whoever can write the database — the console's own role,
 * its owner, a superuser — cannot recompute a MAC after removing or changing a row.
 */
export interface AuditKeyRing {
  /** Signs new rows: AUDIT_KEYS's first entry, or the key file's. */
  signing: AuditKey;
  /** Every key rows may name, the signing one included. */
  keys: AuditKey[];
  /** Where the keys came from, for messages: "AUDIT_KEYS" or the key file's path. */
  source: string;
}

type KeyConfig = Pick<ConsoleConfig, "auditKeys" | "databaseUrl" | "pgliteDir" | "production">;

/** The file that keeps a generated key: `audit.key` in the folder that holds PGLITE_DIR (default .data/audit.key). */
export function auditKeyFile(config: Pick<ConsoleConfig, "pgliteDir">): string {
  return path.join(path.dirname(config.pgliteDir), "audit.key");
}

const MISSING_IN_PRODUCTION =
  "AUDIT_KEYS is not set. On PostgreSQL in production every console instance must sign audit rows with the same secret key, kept out of the database: " +
  "generate one with `openssl rand -base64 32` and set AUDIT_KEYS=1:<that secret> on every instance (docs/operating.md, “Audit log: keys, anchor and verification”).";

const rings = new Map<string, AuditKeyRing>();

/**
 * The key ring the process signs and verifies with. AUDIT_KEYS wins; without it, PostgreSQL in
 * production is refused, and otherwise (the embedded database, development) the key in
 * auditKeyFile() is used — generated on first use when `create` is set (writing rows), never by a
 * reader such as audit:verify, which gets null then.
 */
export function auditKeyRing(config: KeyConfig, options: { create: boolean } = { create: true }): AuditKeyRing | null {
  if (config.auditKeys?.length) {
    const cacheKey = `env\u0000${config.auditKeys.map((k) => `${k.id}:${k.secret}`).join(",")}`;
    let ring = rings.get(cacheKey);
    if (!ring) {
      ring = { signing: config.auditKeys[0], keys: config.auditKeys, source: "AUDIT_KEYS" };
      rings.set(cacheKey, ring);
    }
    return ring;
  }
  if (config.databaseUrl && config.production) throw new ConfigError(MISSING_IN_PRODUCTION);
  const file = auditKeyFile(config);
  const cached = rings.get(`file\u0000${file}`);
  if (cached) return cached;
  const text = readKeyFile(file) ?? (options.create ? createKeyFile(file) : null);
  if (text === null) return null;
  const parsed = parseAuditKeys(text, `the audit key file ${file}`);
  if ("problem" in parsed) throw new ConfigError(parsed.problem);
  const ring = { signing: parsed.keys[0], keys: parsed.keys, source: file };
  rings.set(`file\u0000${file}`, ring);
  if (config.databaseUrl) {
    console.warn(
      `AUDIT_KEYS is not set: audit rows on PostgreSQL are signed with the development key ${ring.signing.id} in ${file}. ` +
        "Outside development set AUDIT_KEYS, the same for every console instance and every command (npm run user too).",
    );
  }
  return ring;
}

/** The ring as an AUDIT_KEYS value, for child processes that must sign with the same keys. */
export function formatAuditKeys(ring: AuditKeyRing): string {
  return ring.keys.map((key) => `${key.id}:${key.secret}`).join(",");
}

function readKeyFile(file: string): string | null {
  try {
    const text = readFileSync(/* turbopackIgnore: true */ file, "utf8");
    if ((statSync(/* turbopackIgnore: true */ file).mode & 0o077) !== 0) {
      console.warn(`The audit key file ${file} can be read by other users of this machine: chmod 600 ${file}`);
    }
    return text.trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new ConfigError(`cannot read the audit key file ${file}: ${(error as Error).message}`);
  }
}

/**
 * Writes a new random key to `file`, readable by its owner only. Its id is random too (six digits),
 * so that it never takes an id an operator gives a key of their own (1, 2, …): rows it signed can
 * always be verified beside theirs by adding its line to AUDIT_KEYS. Written beside and then linked
 * into place, so a second process starting at the same moment reads a whole file or makes none: the
 * first link wins and both use its key.
 */
function createKeyFile(file: string): string {
  const text = `${randomInt(100_000, 1_000_000)}:${randomBytes(32).toString("base64")}`;
  // The key file lives at a path read at runtime: the build's file tracer is told not to follow it
  // (it would otherwise trace the whole project into the server's file list).
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    mkdirSync(/* turbopackIgnore: true */ path.dirname(file), { recursive: true });
    const fd = openSync(/* turbopackIgnore: true */ temporary, "wx", 0o600);
    try {
      writeSync(fd, `${text}\n`);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(/* turbopackIgnore: true */ temporary, /* turbopackIgnore: true */ file);
      console.log(
        `Generated the audit log's signing key in ${file} (readable by this user only). Keep it, and keep it out of database backups: ` +
          "without it the audit log cannot be verified (docs/operating.md, “Audit log: keys, anchor and verification”).",
      );
      return text;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      return readKeyFile(file) ?? text;
    }
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(
      `cannot create the audit key file ${file}: ${(error as Error).message}. Set AUDIT_KEYS instead (docs/operating.md, “Audit log: keys, anchor and verification”).`,
    );
  } finally {
    try {
      unlinkSync(/* turbopackIgnore: true */ temporary);
    } catch {
      // not created
    }
  }
}

/** What a row's MAC covers, each value as PostgreSQL renders it as text (null stays null). */
export interface AuditMacInput {
  keyId: number;
  /** The previous row's MAC; null for the first keyed row. */
  prevMac: string | null;
  /** The previous row's hash in the unkeyed chain: it ties the first keyed row to every row before it. */
  prevHash: string;
  id: string;
  /** The row's instant, UTC, microseconds: YYYY-MM-DDTHH:MI:SS.UUUUUUZ. */
  at: string;
  actor: string | null;
  actorId: string | null;
  role: string | null;
  sessionId: string | null;
  clientAddress: string | null;
  action: string;
  objectIds: string;
  input: string;
  result: string;
  errorCode: string | null;
}

/** HMAC-SHA256, hex, over the row's values as one JSON array (unambiguous, null distinct from ""). */
export function auditMac(key: AuditKey, row: AuditMacInput): string {
  const canonical = JSON.stringify([
    "registry-state-console audit row v1",
    row.keyId,
    row.prevMac,
    row.prevHash,
    row.id,
    row.at,
    row.actor,
    row.actorId,
    row.role,
    row.sessionId,
    row.clientAddress,
    row.action,
    row.objectIds,
    row.input,
    row.result,
    row.errorCode,
  ]);
  return createHmac("sha256", key.secret).update(canonical, "utf8").digest("hex");
}

export function sameMac(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}

export const UTC_MICROSECONDS = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;
