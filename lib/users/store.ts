import { hashPassword } from "../auth/passwords";
import type { Role } from "../auth/roles";
import type { ConsoleExecutor } from "../db/driver";

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
  /** Who vouches for the account at sign-in: the console's own password, the directory, or the identity provider. */
  source: "console" | "directory" | "identity provider";
  /** Whether two-step sign-in is on. */
  secondFactor: boolean;
  /** Until when an administrator allowed the next single sign-on or directory sign-in under this name to link to the account; null: not allowed. */
  linkAllowedUntil: string | null;
}

export async function insertUser(
  db: ConsoleExecutor,
  input: {
    username: string;
    displayName?: string | null;
    role: Role;
    password: string | null;
    directoryDn?: string;
    oidcSubject?: string;
    oidcIssuer?: string;
  },
): Promise<number> {
  const hash = input.password === null ? null : await hashPassword(input.password);
  // ON CONFLICT DO NOTHING: a name taken meanwhile does not abort the caller's transaction.
  const [row] = await db.prisma.user.createManyAndReturn({
    data: [
      {
        username: input.username,
        displayName: input.displayName || null,
        role: input.role,
        passwordHash: hash,
        directoryDn: input.directoryDn,
        oidcSubject: input.oidcSubject,
        oidcIssuer: input.oidcIssuer,
      },
    ],
    skipDuplicates: true,
    select: { id: true },
  });
  return row?.id ?? 0;
}

export async function findUser(
  db: ConsoleExecutor,
  id: number,
): Promise<{ id: number; username: string; displayName: string | null; role: Role; disabled: boolean; directory: boolean } | null> {
  // FOR UPDATE: the change that read the user holds it until it commits (Prisma's models do not lock).
  const [row] = await db.query<{
    id: number;
    username: string;
    displayName: string | null;
    role: Role;
    disabled: boolean;
    directory: boolean;
  }>(
    `SELECT id, username, display_name AS "displayName", role, disabled_at IS NOT NULL AS disabled, directory_dn IS NOT NULL AS directory
       FROM console.users WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return row ?? null;
}

export async function countActiveAdmins(db: ConsoleExecutor): Promise<number> {
  return db.prisma.user.count({ where: { role: "admin", disabledAt: null } });
}

export async function countUsers(db: ConsoleExecutor): Promise<number> {
  return db.prisma.user.count();
}

/** Applies a change and ends every session of the user: the next request must sign in again. */
export async function updateUser(
  db: ConsoleExecutor,
  id: number,
  change: { role?: Role; disabled?: boolean; password?: string },
): Promise<void> {
  // The running console's database role may not write password hashes itself: a new one goes
  // through the one function that does only that (migration 20261125230000_database_roles).
  if (change.password !== undefined)
    await db.query("SELECT console.user_set_password_hash($1, $2)", [id, await hashPassword(change.password)]);
  const now = new Date();
  // Disabling an account already disabled keeps the instant it was first disabled.
  if (change.disabled) await db.prisma.user.updateMany({ where: { id, disabledAt: null }, data: { disabledAt: now } });
  await db.prisma.user.update({
    where: { id },
    data: {
      role: change.role,
      disabledAt: change.disabled === false ? null : undefined,
      sessionVersion: { increment: 1 },
      updatedAt: now,
    },
    select: { id: true },
  });
  await db.prisma.session.updateMany({ where: { userId: id, endedAt: null }, data: { endedAt: now, endReason: "revoked" } });
}

export async function listUserRecords(db: ConsoleExecutor): Promise<UserRecord[]> {
  // Raw: a session counts as open only at its user's current version, a comparison of two tables'
  // columns that Prisma's filters cannot express.
  const rows = await db.query<{
    id: number;
    username: string;
    display_name: string | null;
    role: Role;
    disabled: boolean;
    created_at: Date;
    open_sessions: number;
    last_seen: Date | null;
    source: UserRecord["source"];
    second_factor: boolean;
    link_allowed_until: Date | null;
  }>(
    `SELECT u.id, u.username, u.display_name, u.role, u.disabled_at IS NOT NULL AS disabled, u.created_at,
            CASE WHEN u.link_allowed_until > now() THEN u.link_allowed_until END AS link_allowed_until,
            CASE WHEN u.directory_dn IS NOT NULL THEN 'directory' WHEN u.oidc_subject IS NOT NULL THEN 'identity provider'
                 ELSE 'console' END AS source,
            (EXISTS (SELECT 1 FROM console.second_factors f WHERE f.user_id = u.id AND f.confirmed_at IS NOT NULL)
              OR EXISTS (SELECT 1 FROM console.security_keys k WHERE k.user_id = u.id)) AS second_factor,
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
    source: r.source,
    secondFactor: r.second_factor,
    linkAllowedUntil: r.link_allowed_until?.toISOString() ?? null,
  }));
}

/** Removes every second factor of `userId` (authenticator app, security keys) and ends their sessions; how many were removed. */
export async function removeSecondFactors(tx: ConsoleExecutor, userId: number): Promise<number> {
  const { count: apps } = await tx.prisma.secondFactor.deleteMany({ where: { userId } });
  const { count: keys } = await tx.prisma.securityKey.deleteMany({ where: { userId } });
  if (apps + keys > 0) await updateUser(tx, userId, {});
  return apps + keys;
}
