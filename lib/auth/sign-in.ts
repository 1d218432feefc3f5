import { audit } from "../audit/log";
import type { SqlDriver } from "../db/driver";
import { logAnonymousRefusal } from "../log";
import { hashPassword, needsRehash, spendPasswordCheck, verifyPassword } from "./passwords";
import { isRole, type Role } from "./roles";
import { openSession } from "./sessions";
import { forgetOldFailures, reserveAttempt, settleAttempt } from "./throttle";
import type { ThrottleScope } from "./throttled-code";

export interface SignedIn {
  userId: number;
  username: string;
  role: Role;
  sessionId: string;
}

export type SignInResult =
  | { ok: true; user: SignedIn }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "throttled"; scope: ThrottleScope; retryAfterSeconds: number };

export function normalizeUsername(typed: string): string {
  return typed.trim().toLowerCase().slice(0, 200);
}

/**
 * Checks a user name and password. The answer to the caller is only "signed in", "invalid" or
 * "throttled" (with which limit and how long to wait), the same whether or not the account
 * exists; the audit log records the detail. The limits on guessing — per account, per address,
 * over everything, and who stays exempt so that nobody can keep a person out — are described in
 * lib/auth/throttle.ts. `options.at`: the attempt's instant, for tests.
 */
export async function signInWithPassword(
  db: SqlDriver,
  typedUsername: string,
  password: string,
  request: { clientAddress: string | null; userAgent: string | null },
  options: { at?: Date } = {},
): Promise<SignInResult> {
  const username = normalizeUsername(typedUsername);
  const who = { username: username || "(empty)", clientAddress: request.clientAddress };
  // The attempt is recorded before the password is checked, under locks, so parallel guesses
  // cannot all slip in under a limit; a successful sign-in takes its record back.
  const attempt = await reserveAttempt(db, username, request.clientAddress, options.at);
  if (!attempt.ok) {
    // Logged (a few lines a minute), not audited: a throttled attempt costs its sender nothing, and
    // an audit row each would let anyone grow the audit log and queue every change behind its lock.
    // Every password actually checked is audited, and the limits bound how many those are.
    logAnonymousRefusal("auth.sign_in", {
      code: "throttled",
      username: who.username,
      limit: attempt.scope,
      retryAfterSeconds: attempt.retryAfterSeconds,
      client: request.clientAddress,
    });
    return { ok: false, reason: "throttled", scope: attempt.scope, retryAfterSeconds: attempt.retryAfterSeconds };
  }

  const user = await db.prisma.user.findUnique({
    where: { username },
    select: { id: true, username: true, role: true, passwordHash: true, disabledAt: true },
  });
  const problem = !user
    ? "unknown_user"
    : !user.passwordHash
      ? "no_password"
      : !(await verifyPassword(password, user.passwordHash))
        ? "wrong_password"
        : user.disabledAt
          ? "disabled"
          : !isRole(user.role)
            ? "unknown_role"
            : null;
  if (!user?.passwordHash) await spendPasswordCheck(password);

  if (problem || !user || !isRole(user.role)) {
    await db.transaction(async (tx) => {
      await forgetOldFailures(tx);
      await audit(tx, { action: "auth.sign_in", result: "refused", errorCode: problem ?? "invalid", actor: who });
    });
    return { ok: false, reason: "invalid" };
  }

  // A hash of the older form (bcrypt of the password itself, which ignores what follows its 72nd
  // byte) is replaced while the password is at hand.
  const upgraded = user.passwordHash && needsRehash(user.passwordHash) ? await hashPassword(password) : null;
  const role = user.role;
  const sessionId = await db.transaction(async (tx) => {
    await settleAttempt(tx, attempt.id);
    if (upgraded) {
      await tx.query("SELECT console.user_set_password_hash($1, $3, $2)", [user.id, user.passwordHash, upgraded]);
    }
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
