import { hashPassword } from "../auth/passwords";
import type { Role } from "../auth/roles";
import type { SqlExecutor } from "../db/driver";

/** Plain reads and writes of console.users; callers check permissions and audit. */

export interface UserRecord {
  id: number;
  username: string;
  displayName: string | null;
  role: Role;
  disabled: boolean;
  createdAt: string;
  openSessions: number;
  lastSeen: string | null;
}

export async function insertUser(
  db: SqlExecutor,
  input: { username: string; displayName?: string | null; role: Role; password: string | null },
): Promise<number> {
  const hash = input.password === null ? null : await hashPassword(input.password);
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO console.users (username, display_name, role, password_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT (username) DO NOTHING RETURNING id`,
    [input.username, input.displayName || null, input.role, hash],
  );
  return row?.id ?? 0;
}

export async function findUser(
  db: SqlExecutor,
  id: number,
): Promise<{ id: number; username: string; displayName: string | null; role: Role; disabled: boolean } | null> {
  const [row] = await db.query<{ id: number; username: string; displayName: string | null; role: Role; disabled: boolean }>(
    `SELECT id, username, display_name AS "displayName", role, disabled_at IS NOT NULL AS disabled FROM console.users WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return row ?? null;
}

export async function countActiveAdmins(db: SqlExecutor): Promise<number> {
  const [{ admins }] = await db.query<{ admins: number }>(
    "SELECT count(*)::int AS admins FROM console.users WHERE role = 'admin' AND disabled_at IS NULL",
  );
  return admins;
}

export async function countUsers(db: SqlExecutor): Promise<number> {
  const [{ users }] = await db.query<{ users: number }>("SELECT count(*)::int AS users FROM console.users");
  return users;
}

/** Applies a change and ends every session of the user: the next request must sign in again. */
export async function updateUser(
  db: SqlExecutor,
  id: number,
  change: { role?: Role; disabled?: boolean; password?: string },
): Promise<void> {
  // The running console's database role may not write password hashes itself: a new one goes
  // through the one function that does only that (migration 20261125230000_database_roles).
  if (change.password !== undefined)
    await db.query("SELECT console.user_set_password_hash($1, $2)", [id, await hashPassword(change.password)]);
  await db.query(
    `UPDATE console.users SET
        role = coalesce($2, role),
        disabled_at = CASE WHEN $3::boolean IS NULL THEN disabled_at WHEN $3 THEN coalesce(disabled_at, now()) ELSE NULL END,
        session_version = session_version + 1,
        updated_at = now()
      WHERE id = $1`,
    [id, change.role ?? null, change.disabled ?? null],
  );
  await db.query("UPDATE console.sessions SET ended_at = now(), end_reason = 'revoked' WHERE user_id = $1 AND ended_at IS NULL", [id]);
}

export async function listUserRecords(db: SqlExecutor): Promise<UserRecord[]> {
  const rows = await db.query<{
    id: number;
    username: string;
    display_name: string | null;
    role: Role;
    disabled: boolean;
    created_at: Date;
    open_sessions: number;
    last_seen: Date | null;
  }>(
    `SELECT u.id, u.username, u.display_name, u.role, u.disabled_at IS NOT NULL AS disabled, u.created_at,
            (SELECT count(*)::int FROM console.sessions s WHERE s.user_id = u.id AND s.ended_at IS NULL
                AND s.session_version = u.session_version) AS open_sessions,
            (SELECT max(s.last_seen_at) FROM console.sessions s WHERE s.user_id = u.id) AS last_seen
       FROM console.users u ORDER BY u.username`,
  );
  return rows.map((r) => ({
    id: r.id,
    username: r.username,
    displayName: r.display_name,
    role: r.role,
    disabled: r.disabled,
    createdAt: r.created_at.toISOString(),
    openSessions: r.open_sessions,
    lastSeen: r.last_seen?.toISOString() ?? null,
  }));
}
