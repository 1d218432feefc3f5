import { randomUUID } from "node:crypto";
import type { SqlExecutor } from "../db/driver";
import { isLocale, type Locale } from "../i18n/config";
import { isRole, type Role } from "./roles";

export const IDLE_TIMEOUT_MS = 30 * 60 * 1000;
export const ABSOLUTE_LIFETIME_MS = 12 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, so reading pages does not write on every request. */
const TOUCH_INTERVAL_MS = 60 * 1000;

/** A person acting through a valid session. */
export interface Actor {
  userId: number;
  username: string;
  role: Role;
  sessionId: string | null;
  clientAddress: string | null;
  /** The language the person chose in the console; null or absent: not chosen, the browser's decides. */
  locale?: Locale | null;
}

export type SessionEnd = "signed_out" | "idle" | "expired" | "disabled" | "revoked";

export async function openSession(
  db: SqlExecutor,
  userId: number,
  info: { clientAddress: string | null; userAgent: string | null },
): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO console.sessions (id, user_id, session_version, client_address, user_agent)
     SELECT $1, id, session_version, $3, left($4, 400) FROM console.users WHERE id = $2`,
    [id, userId, info.clientAddress, info.userAgent],
  );
  return id;
}

interface SessionRow {
  id: string;
  ended_at: Date | null;
  created_at: Date;
  last_seen_at: Date;
  session_version: number;
  user_id: number;
  username: string;
  role: string;
  disabled_at: Date | null;
  user_version: number;
  locale: string | null;
}

/**
 * The actor behind a session, or why there is none. The database decides, not the cookie: a user
 * disabled, re-roled or signed out elsewhere loses access on the very next request.
 */
export async function validateSession(
  db: SqlExecutor,
  sessionId: string,
  now: Date = new Date(),
): Promise<{ actor: Omit<Actor, "clientAddress"> } | { ended: SessionEnd | "unknown" }> {
  const [row] = await db.query<SessionRow>(
    `SELECT s.id, s.ended_at, s.created_at, s.last_seen_at, s.session_version,
            u.id AS user_id, u.username, u.role, u.disabled_at, u.session_version AS user_version, u.locale
       FROM console.sessions s JOIN console.users u ON u.id = s.user_id
      WHERE s.id = $1`,
    [sessionId],
  );
  if (!row) return { ended: "unknown" };
  if (row.ended_at) return { ended: "signed_out" };
  const end: SessionEnd | null = row.disabled_at
    ? "disabled"
    : row.session_version !== row.user_version
      ? "revoked"
      : now.getTime() - row.created_at.getTime() >= ABSOLUTE_LIFETIME_MS
        ? "expired"
        : now.getTime() - row.last_seen_at.getTime() >= IDLE_TIMEOUT_MS
          ? "idle"
          : null;
  if (end) {
    await endSession(db, sessionId, end, now);
    return { ended: end };
  }
  if (now.getTime() - row.last_seen_at.getTime() >= TOUCH_INTERVAL_MS) {
    await db.query("UPDATE console.sessions SET last_seen_at = $2 WHERE id = $1", [sessionId, now]);
  }
  if (!isRole(row.role)) return { ended: "revoked" };
  return {
    actor: {
      userId: row.user_id,
      username: row.username,
      role: row.role,
      sessionId: row.id,
      locale: isLocale(row.locale) ? row.locale : null,
    },
  };
}

export async function endSession(db: SqlExecutor, sessionId: string, reason: SessionEnd, now: Date = new Date()): Promise<void> {
  await db.query("UPDATE console.sessions SET ended_at = $2, end_reason = $3 WHERE id = $1 AND ended_at IS NULL", [sessionId, now, reason]);
}
