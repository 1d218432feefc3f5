import { createHash } from "node:crypto";
import { readConfig } from "../config";
import type { SqlExecutor } from "../db/driver";
import { type AuditKeyRing, auditKeyRing, auditMac, sameMac, UTC_MICROSECONDS } from "./keys";

export interface AuditVerification {
  ok: boolean;
  /** Rows verified; when there is a problem, the rows before it. */
  rows: number;
  /** Of them, rows written before keyed chaining (no MAC): the oldest rows of a log older than the key. */
  unkeyed: number;
  /** Of them, rows whose MAC was recomputed with the audit key and matched. */
  keyed: number;
  /** The newest row verified: with its MAC, an anchor to check later (`audit:verify -- --anchor ID:MAC`). */
  newest: { id: number; at: string; hash: string; mac: string | null } | null;
  /** The first row that does not fit the chain, and how. */
  problem: { id: number; reason: string } | null;
}

export interface VerifyOptions {
  /** The keys to check MACs with; default: the configured ones (AUDIT_KEYS or the key file), never generated here. */
  keys?: AuditKeyRing | null;
  pageSize?: number;
  /**
   * A row seen earlier, kept outside the database: its id and its MAC (or the MAC's first 16+ hex
   * digits), as `--anchor` gives it, or its id, hash and MAC as the anchor file holds them
   * (lib/audit/anchor.ts; `description` says which anchor, for messages). The chain alone cannot
   * show that its newest rows were cut off, with the head moved back; an anchor can: the row must
   * still be there, unchanged.
   */
  anchor?: { id: number; mac: string } | StoredAnchorRow;
}

/** An anchored row as the anchor file names it: every one of its values must match. */
interface StoredAnchorRow {
  id: number;
  hash: string;
  mac: string | null;
  description: string;
}

function isStored(anchor: NonNullable<VerifyOptions["anchor"]>): anchor is StoredAnchorRow {
  return "hash" in anchor;
}

interface AuditRowText {
  id: string;
  at: string;
  actor: string | null;
  actor_id: string | null;
  role: string | null;
  session_id: string | null;
  client_address: string | null;
  action: string;
  object_ids: string;
  input: string;
  result: string;
  error_code: string | null;
  prev_hash: string;
  hash: string;
  key_id: number | null;
  mac: string | null;
}

/**
 * The unkeyed chain's hash, as console.audit_row_hash computes it — recomputed here rather than by
 * that function, which whoever owns the database could replace.
 */
function rowHash(row: AuditRowText): string {
  const fields = [
    row.prev_hash,
    row.id,
    row.at,
    row.actor ?? "",
    row.actor_id ?? "",
    row.role ?? "",
    row.session_id ?? "",
    row.client_address ?? "",
    row.action,
    row.object_ids,
    row.input,
    row.result,
    row.error_code ?? "",
  ];
  return createHash("sha256").update(fields.join("\x1f"), "utf8").digest("hex");
}

/**
 * Verifies console.audit_log from its first row to its head. Every row must follow the one before
 * it (no gap in the ids, its prev_hash the previous hash) and match its hash; from the first keyed
 * row on, every row must carry a MAC that the configured audit key reproduces over its values,
 * the previous row's hash and the previous row's MAC. Whoever writes the database can recompute
 * the hashes after removing or changing a row, but not the MACs. Rows before the first keyed one
 * were written before keyed chaining; the first keyed row's MAC covers their last hash. Reads in
 * pages, so it works on years of audit rows.
 */
export async function verifyAuditChain(db: SqlExecutor, options: VerifyOptions = {}): Promise<AuditVerification> {
  const ring = options.keys !== undefined ? options.keys : auditKeyRing(readConfig(), { create: false });
  const pageSize = options.pageSize ?? 5_000;
  const [columns] = await db.query<{ keyed: boolean }>(
    `SELECT EXISTS (SELECT FROM information_schema.columns
                     WHERE table_schema = 'console' AND table_name = 'audit_log' AND column_name = 'mac') AS keyed`,
  );
  const keyColumns = columns?.keyed ? "a.key_id, a.mac" : "NULL::int AS key_id, NULL::text AS mac";
  let previousHash = "0".repeat(64);
  let previousMac: string | null = null;
  let previousId = 0;
  let firstKeyed: number | null = null;
  const result: AuditVerification = { ok: false, rows: 0, unkeyed: 0, keyed: 0, newest: null, problem: null };
  const fail = (id: number, reason: string): AuditVerification => ({ ...result, ok: false, problem: { id, reason } });
  for (;;) {
    const page = await db.query<AuditRowText>(
      `SELECT a.id::text AS id, to_char(a.at AT TIME ZONE 'UTC', ${UTC_MICROSECONDS}) AS at, a.actor, a.actor_id::text AS actor_id,
              a.role, a.session_id::text AS session_id, a.client_address, a.action, a.object_ids::text AS object_ids,
              a.input::text AS input, a.result, a.error_code, a.prev_hash, a.hash, ${keyColumns}
         FROM console.audit_log a WHERE a.id > $1 ORDER BY a.id LIMIT $2`,
      [previousId, pageSize],
    );
    for (const row of page) {
      const id = Number(row.id);
      if (id !== previousId + 1) return fail(id, `rows ${previousId + 1}–${id - 1} are missing`);
      if (row.prev_hash !== previousHash) return fail(id, "its link to the previous row is broken");
      if (row.hash !== rowHash(row)) return fail(id, "its content was changed after it was written");
      if (row.mac === null || row.key_id === null) {
        if (firstKeyed !== null) {
          return fail(
            id,
            `it has no MAC, but the log is keyed from row ${firstKeyed} on: it was inserted or rewritten behind the console's back`,
          );
        }
        result.unkeyed++;
      } else {
        const key = ring?.keys.find((k) => k.id === row.key_id);
        if (!key) {
          return fail(
            id,
            ring
              ? `it is signed with audit key ${row.key_id}, which is not configured (${ring.source} has key ${ring.keys.map((k) => k.id).join(", ")}); add it to AUDIT_KEYS to verify`
              : `it is signed with audit key ${row.key_id}, but no audit key is configured (set AUDIT_KEYS)`,
          );
        }
        const expected = auditMac(key, {
          keyId: row.key_id,
          prevMac: previousMac,
          prevHash: previousHash,
          id: row.id,
          at: row.at,
          actor: row.actor,
          actorId: row.actor_id,
          role: row.role,
          sessionId: row.session_id,
          clientAddress: row.client_address,
          action: row.action,
          objectIds: row.object_ids,
          input: row.input,
          result: row.result,
          errorCode: row.error_code,
        });
        if (!sameMac(row.mac, expected)) {
          return fail(
            id,
            `its MAC does not match: this row or the one before it was changed, removed, renumbered or inserted behind the console's back ` +
              `(or key ${row.key_id} in ${ring?.source} is not the key that signed it)`,
          );
        }
        firstKeyed ??= id;
        result.keyed++;
      }
      const anchor = options.anchor;
      if (anchor && id === anchor.id) {
        if (isStored(anchor)) {
          if (row.hash !== anchor.hash || row.mac !== anchor.mac) {
            return fail(
              id,
              `it is not the row ${anchor.description} holds: the log was rewritten (its head replaced) after the anchor was written`,
            );
          }
        } else if (!row.mac?.startsWith(anchor.mac.toLowerCase())) {
          return fail(id, `its MAC is not the anchored one (${anchor.mac}): the log was rewritten after the anchor was taken`);
        }
      }
      previousHash = row.hash;
      previousMac = row.mac;
      previousId = id;
      result.rows++;
      result.newest = { id, at: row.at, hash: row.hash, mac: row.mac };
    }
    if (page.length < pageSize) break;
  }
  const [head] = await db.query<{ last_id: string; last_hash: string }>(
    "SELECT last_id::text AS last_id, last_hash FROM console.audit_head",
  );
  if (!head || Number(head.last_id) !== previousId || head.last_hash !== previousHash) {
    return fail(Number(head?.last_id ?? 0), "the newest rows are missing (the chain ends before its recorded head)");
  }
  if (options.anchor && options.anchor.id > previousId) {
    const anchor = options.anchor;
    return fail(
      anchor.id,
      isStored(anchor)
        ? `rows after #${previousId} are missing: the log ends at row ${previousId}, but ${anchor.description} holds row ${anchor.id}; its newest rows were removed (and the head moved back)`
        : `the log ends at row ${previousId}, before the anchored row ${anchor.id}: its newest rows were removed (and the head moved back)`,
    );
  }
  return { ...result, ok: true };
}

/** `ID:MAC` as audit:verify prints it; the MAC may be shortened to its first 16 hex digits or more. */
export function parseAnchor(text: string): { id: number; mac: string } | null {
  const match = /^\s*([1-9][0-9]*):([0-9a-fA-F]{16,64})\s*$/.exec(text);
  return match ? { id: Number(match[1]), mac: match[2].toLowerCase() } : null;
}
