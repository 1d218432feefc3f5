import type { Actor } from "../auth/sessions";
import { readConfig } from "../config";
import type { SqlDriver, SqlExecutor } from "../db/driver";
import { auditAppended } from "./anchoring";
import { auditKeyRing, auditMac, UTC_MICROSECONDS } from "./keys";

type AuditResult = "ok" | "refused" | "error";

export interface AuditEntry {
  action: string;
  result: AuditResult;
  /** Who acted; for a failed sign-in, the user name that was typed. */
  actor: Actor | { username: string; clientAddress: string | null } | null;
  errorCode?: string;
  objectIds?: number[];
  input?: Record<string, unknown>;
}

/**
 * Appends one row to the audit log. Writes call it inside their own transaction (`db` is then that
 * transaction), so the row exists exactly when the change does; given the driver itself, it opens a
 * transaction of its own.
 *
 * The row is signed here, in the console process, with the audit key the database does not hold:
 * under the chain's lock (console.audit_head's row, FOR UPDATE, which every console process
 * takes through console.audit_chain_lock(): its database role may not lock that row itself) it reads the head, takes the row's id and time and PostgreSQL's own text of its values,
 * and stores HMAC-SHA256 over them and the previous row's MAC. The database's trigger adds the
 * unkeyed hash chain and moves the head.
 */
export async function audit(db: SqlExecutor | SqlDriver, entry: AuditEntry): Promise<void> {
  if ("transaction" in db) {
    await db.transaction((tx) => append(tx, entry));
    auditAppended();
    return;
  }
  await append(db, entry);
  // The running console moves the log's anchor (lib/audit/anchoring.ts) shortly after, once this commits.
  auditAppended();
}

async function append(tx: SqlExecutor, entry: AuditEntry): Promise<void> {
  const ring = auditKeyRing(readConfig());
  if (!ring) throw new Error("no audit key: auditKeyRing returned none while creating one");
  const key = ring.signing;
  const actor = entry.actor;
  const person = actor && "userId" in actor ? actor : null;
  // The lock first: every value read after it is the chain's newest (READ COMMITTED takes a new
  // snapshot per statement, so the previous row's MAC is read in a statement of its own).
  const [head] = await tx.query<{
    last_id: string;
    last_hash: string;
    at: string;
    object_ids: string;
    input: string;
    session_id: string | null;
    actor_id: string | null;
  }>(
    `SELECT h.last_id::text AS last_id, h.last_hash,
            to_char(clock_timestamp() AT TIME ZONE 'UTC', ${UTC_MICROSECONDS}) AS at,
            $1::int[]::text AS object_ids, $2::jsonb::text AS input, $3::uuid::text AS session_id,
            $4::int::text AS actor_id
       FROM console.audit_chain_lock() h`,
    [entry.objectIds ?? [], JSON.stringify(entry.input ?? {}), person?.sessionId ?? null, person?.userId ?? null],
  );
  if (!head) throw new Error("console.audit_head has no row: the audit log's chain cannot be extended");
  const [previous] = await tx.query<{ mac: string | null }>("SELECT mac FROM console.audit_log WHERE id = $1", [head.last_id]);
  const row = {
    keyId: key.id,
    prevMac: previous?.mac ?? null,
    prevHash: head.last_hash,
    id: (BigInt(head.last_id) + 1n).toString(),
    at: head.at,
    actor: actor?.username ?? null,
    actorId: head.actor_id,
    role: person?.role ?? null,
    sessionId: head.session_id,
    clientAddress: actor?.clientAddress ?? null,
    action: entry.action,
    objectIds: head.object_ids,
    input: head.input,
    result: entry.result,
    errorCode: entry.errorCode ?? null,
  };
  await tx.query(
    `INSERT INTO console.audit_log
       (id, at, actor, actor_id, role, session_id, client_address, action, object_ids, input, result, error_code, key_id, mac)
     VALUES ($1::bigint, $2::timestamptz, $3, $4::int, $5, $6::uuid, $7, $8, $9::int[], $10::jsonb, $11, $12, $13, $14)`,
    [
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
      row.keyId,
      auditMac(key, row),
    ],
  );
}
