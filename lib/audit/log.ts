import type { Actor } from "../auth/sessions";
import type { SqlExecutor } from "../db/driver";

export type AuditResult = "ok" | "refused" | "error";

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
 * Appends one row to the audit log. Writes call it inside their own transaction, so the row
 * exists exactly when the change does. The database assigns id, time and the hash chain.
 */
export async function audit(db: SqlExecutor, entry: AuditEntry): Promise<void> {
  const actor = entry.actor;
  const person = actor && "userId" in actor ? actor : null;
  await db.query(
    `INSERT INTO console.audit_log
       (actor, actor_id, role, session_id, client_address, action, object_ids, input, result, error_code)
     VALUES ($1, $2, $3, $4, $5, $6, $7::int[], $8::jsonb, $9, $10)`,
    [
      actor?.username ?? null,
      person?.userId ?? null,
      person?.role ?? null,
      person?.sessionId ?? null,
      actor?.clientAddress ?? null,
      entry.action,
      entry.objectIds ?? [],
      JSON.stringify(entry.input ?? {}),
      entry.result,
      entry.errorCode ?? null,
    ],
  );
}
