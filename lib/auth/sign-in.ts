import { audit } from "../audit/log";
import type { SqlDriver } from "../db/driver";
import { spendPasswordCheck, verifyPassword } from "./passwords";
import { isRole, type Role } from "./roles";
import { openSession } from "./sessions";

export const MAX_FAILURES_PER_MINUTE = 10;

export interface SignedIn {
  userId: number;
  username: string;
  role: Role;
  sessionId: string;
}

export type SignInResult = { ok: true; user: SignedIn } | { ok: false; reason: "invalid" | "throttled" };

interface UserRow {
  id: number;
  username: string;
  role: string;
  password_hash: string | null;
  disabled_at: Date | null;
}

export function normalizeUsername(typed: string): string {
  return typed.trim().toLowerCase().slice(0, 200);
}

/**
 * Checks a user name and password. The answer to the caller is only "signed in", "invalid" or
 * "throttled", the same whether or not the account exists; the audit log records the detail.
 * Failures are counted per typed user name, so guessing at an account is slowed down on every
 * console instance alike.
 */
export async function signInWithPassword(
  db: SqlDriver,
  typedUsername: string,
  password: string,
  request: { clientAddress: string | null; userAgent: string | null },
): Promise<SignInResult> {
  const username = normalizeUsername(typedUsername);
  const who = { username: username || "(empty)", clientAddress: request.clientAddress };
  // The attempt is counted before the password is checked, under a per-name lock, so parallel
  // guesses cannot all slip in under the limit; a successful sign-in takes its count back.
  const attempt = await db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(7353010, hashtext($1))", [username]);
    const [{ failures }] = await tx.query<{ failures: number }>(
      "SELECT count(*)::int AS failures FROM console.sign_in_failures WHERE username = $1 AND at > now() - interval '1 minute'",
      [username],
    );
    if (failures >= MAX_FAILURES_PER_MINUTE) return null;
    const [{ at }] = await tx.query<{ at: Date }>("INSERT INTO console.sign_in_failures (username) VALUES ($1) RETURNING at", [username]);
    return at;
  });
  if (!attempt) {
    await audit(db, { action: "auth.sign_in", result: "refused", errorCode: "throttled", actor: who });
    return { ok: false, reason: "throttled" };
  }

  const [user] = await db.query<UserRow>("SELECT id, username, role, password_hash, disabled_at FROM console.users WHERE username = $1", [
    username,
  ]);
  const problem = !user
    ? "unknown_user"
    : !user.password_hash
      ? "no_password"
      : !(await verifyPassword(password, user.password_hash))
        ? "wrong_password"
        : user.disabled_at
          ? "disabled"
          : !isRole(user.role)
            ? "unknown_role"
            : null;
  if (!user?.password_hash) await spendPasswordCheck(password);

  if (problem || !user || !isRole(user.role)) {
    await db.transaction(async (tx) => {
      await tx.query("DELETE FROM console.sign_in_failures WHERE at < now() - interval '1 day'");
      await audit(tx, { action: "auth.sign_in", result: "refused", errorCode: problem ?? "invalid", actor: who });
    });
    return { ok: false, reason: "invalid" };
  }

  const role = user.role;
  const sessionId = await db.transaction(async (tx) => {
    await tx.query("DELETE FROM console.sign_in_failures WHERE username = $1 AND at = $2", [username, attempt]);
    const id = await openSession(tx, user.id, request);
    await audit(tx, {
      action: "auth.sign_in",
      result: "ok",
      actor: { userId: user.id, username: user.username, role, sessionId: id, clientAddress: request.clientAddress },
      input: { method: "password" },
    });
    return id;
  });
  return { ok: true, user: { userId: user.id, username: user.username, role, sessionId } };
}
