import "server-only";
import * as z from "zod";
import { type Message, msg, zodError } from "../actions/message";
import { InputError, parseInput } from "../actions/result";
import { audit } from "../audit/log";
import { authorize } from "../auth/guard";
import { MAX_CURRENT_PASSWORD_LENGTH } from "../auth/password-limits";
import { passwordProblem } from "../auth/password-policy";
import { hashPassword, verifyPassword } from "../auth/passwords";
import type { Role } from "../auth/roles";
import { reserveAttempt, settleAttempt } from "../auth/throttle";
import { passwordSchema } from "./schemas";

const ACTION = "user.change_own_password";

const changeOwnPasswordSchema = z
  .object({
    currentPassword: z
      .string({ error: zodError("users.enterCurrentPassword") })
      .min(1, { error: zodError("users.enterCurrentPassword") })
      .max(MAX_CURRENT_PASSWORD_LENGTH, { error: zodError("users.wrongCurrentPassword") }),
    newPassword: passwordSchema,
    confirmPassword: z.string({ error: zodError("users.passwordsDiffer") }),
  })
  .refine((data) => data.newPassword === data.confirmPassword, { error: zodError("users.passwordsDiffer"), path: ["confirmPassword"] });

/** "12 seconds" or "5 minutes", said in the person's language. */
export function waitText(seconds: number): Message {
  return seconds <= 90 ? msg("users.waitSeconds", { count: seconds }) : msg("users.waitMinutes", { count: Math.ceil(seconds / 60) });
}

/**
 * A signed-in person changes their own password. They prove it is them with the current one —
 * a session alone is not enough (a browser left open, a stolen cookie) — and that check counts
 * against the same guessing limits as sign-in (lib/auth/throttle.ts). The new password passes
 * the same rules as any other (lib/auth/password-policy.ts). The change ends every other
 * session of theirs (other browsers must sign in again with the new password); the session
 * that made the change stays. Audited, whether done or refused.
 */
export async function changeOwnPassword(input: unknown): Promise<{ message: Message }> {
  const { actor, db } = await authorize("self.password", ACTION);
  const refuse = async (errorCode: string, message: Message, field: string) => {
    await audit(db.sql, { action: ACTION, result: "refused", errorCode, actor, input: { userId: actor.userId, error: field } });
    return new InputError(message, { [field]: [message] });
  };
  let data: z.output<typeof changeOwnPasswordSchema>;
  try {
    data = parseInput(changeOwnPasswordSchema, input);
  } catch (error) {
    if (error instanceof InputError)
      await audit(db.sql, { action: ACTION, result: "refused", errorCode: "invalid", actor, input: { error: error.message } });
    throw error;
  }

  const [user] = await db.sql.query<{ password_hash: string | null; display_name: string | null }>(
    "SELECT password_hash, display_name FROM console.users WHERE id = $1",
    [actor.userId],
  );
  if (!user?.password_hash) throw await refuse("no_password", msg("users.noOwnPassword"), "currentPassword");

  const attempt = await reserveAttempt(db.sql, actor.username, actor.clientAddress);
  if (!attempt.ok) {
    throw await refuse("throttled", msg("users.passwordThrottled", { wait: waitText(attempt.retryAfterSeconds) }), "currentPassword");
  }
  if (!(await verifyPassword(data.currentPassword, user.password_hash))) {
    throw await refuse("wrong_password", msg("users.wrongCurrentPassword"), "currentPassword");
  }
  // The current password was right: it was no guess.
  await settleAttempt(db.sql, attempt.id);

  if (data.newPassword === data.currentPassword) throw await refuse("invalid", msg("users.passwordUnchanged"), "newPassword");
  const problem = await passwordProblem(data.newPassword, [actor.username, user.display_name]);
  if (problem) throw await refuse("invalid", problem, "newPassword");

  const hash = await hashPassword(data.newPassword);
  const ended = await db.sql.transaction(async (tx) => {
    // Only if nobody changed the password since it was checked above (another session, an admin).
    // The running console's role writes a hash only through console.user_set_password_hash.
    const [{ set }] = await tx.query<{ set: boolean }>("SELECT console.user_set_password_hash($1, $3, $2) AS set", [
      actor.userId,
      user.password_hash,
      hash,
    ]);
    if (!set) return null;
    const now = new Date();
    const changed = await tx.prisma.user.update({
      where: { id: actor.userId },
      data: { sessionVersion: { increment: 1 }, updatedAt: now },
      select: { sessionVersion: true },
    });
    // The other sessions end; this one is moved to the new version and stays.
    const others = await tx.prisma.session.updateMany({
      where: { userId: actor.userId, endedAt: null, ...(actor.sessionId ? { id: { not: actor.sessionId } } : {}) },
      data: { endedAt: now, endReason: "revoked" },
    });
    if (actor.sessionId) {
      await tx.prisma.session.update({
        where: { id: actor.sessionId },
        data: { sessionVersion: changed.sessionVersion },
        select: { id: true },
      });
    }
    await audit(tx, { action: ACTION, result: "ok", actor, input: { userId: actor.userId, otherSessionsEnded: others.count } });
    return others.count;
  });
  if (ended === null) throw await refuse("conflict", msg("users.passwordChangedMeanwhile"), "currentPassword");
  return { message: msg("users.ownPasswordChanged", { count: ended }) };
}

/** What /preferences shows of the signed-in person's own account. */
export async function ownAccount(): Promise<{ username: string; role: Role; hasPassword: boolean }> {
  const { actor, db } = await authorize("self.password", "account.read");
  const hasPassword = (await db.prisma.user.count({ where: { id: actor.userId, passwordHash: { not: null } } })) > 0;
  return { username: actor.username, role: actor.role, hasPassword };
}
