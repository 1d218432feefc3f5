import "server-only";
import * as z from "zod";
import { zodError } from "../actions/message";
import { InputError, parseInput } from "../actions/result";
import { audit } from "../audit/log";
import { refusalInput } from "../audit/said";
import { authorize } from "../auth/guard";
import { readLdapConfig } from "../auth/ldap";
import { MAX_CURRENT_PASSWORD_LENGTH } from "../auth/password-limits";
import { passwordProblem } from "../auth/password-policy";
import { hashPassword } from "../auth/passwords";
import type { Role } from "../auth/roles";
import { type Message, msg } from "../i18n/message";
import { mailNotice, recordNotice } from "./notices";
import { checkOwnPassword, ownSignInChange } from "./reauth";
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
      await audit(db.sql, { action: ACTION, result: "refused", errorCode: "invalid", actor, input: refusalInput(error.text) });
    throw error;
  }

  const [user] = await db.sql.query<{ password_hash: string | null; display_name: string | null }>(
    "SELECT password_hash, display_name FROM console.users WHERE id = $1",
    [actor.userId],
  );
  if (!user?.password_hash) throw await refuse("no_password", msg("users.noOwnPassword"), "currentPassword");

  // Counted against the guessing limits; a right password takes its record back.
  const wrong = await checkOwnPassword(db, actor, user.password_hash, data.currentPassword);
  if (wrong) throw await refuse(wrong.errorCode, wrong.message, "currentPassword");

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
    await recordNotice(tx, actor.userId, "password_changed", actor);
    return others.count;
  });
  if (ended === null) throw await refuse("conflict", msg("users.passwordChangedMeanwhile"), "currentPassword");
  mailNotice(actor.userId, "password_changed", actor);
  return { message: msg("users.ownPasswordChanged", { count: ended }) };
}

/**
 * What /preferences shows of the signed-in person's own account. `proof`: what they give to change
 * how they sign in (lib/users/reauth.ts): their console password, their directory password, or —
 * single sign-on — a fresh sign-in.
 */
export async function ownAccount(): Promise<{
  username: string;
  role: Role;
  hasPassword: boolean;
  email: string | null;
  proof: "password" | "directory" | "fresh_sign_in";
}> {
  const { actor, db } = await authorize("self.password", "account.read");
  const user = await db.prisma.user.findUniqueOrThrow({
    where: { id: actor.userId },
    select: { passwordHash: true, directoryDn: true, email: true },
  });
  const proof = user.directoryDn && readLdapConfig() ? "directory" : user.passwordHash ? "password" : "fresh_sign_in";
  return { username: actor.username, role: actor.role, hasPassword: user.passwordHash !== null, email: user.email, proof };
}

const emailSchema = z.object({
  email: z
    .string({ error: zodError("users.emailForm") })
    .trim()
    .max(254, { error: zodError("users.emailForm") })
    .pipe(z.union([z.literal(""), z.email({ error: zodError("users.emailForm") })])),
});

/** Sets (or clears, with "") where notices of changes to the person's sign-in are mailed; with the current password. */
export function setOwnEmail(input: unknown): Promise<{ message: Message }> {
  return ownSignInChange("user.set_own_email", emailSchema, input, async (tx, data, actor) => {
    const email = data.email === "" ? null : data.email;
    // The notice of this change goes to the address it replaces too: whoever moved it is told there.
    const before = await tx.prisma.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { email: true } });
    await tx.prisma.user.update({ where: { id: actor.userId }, data: { email, updatedAt: new Date() }, select: { id: true } });
    return {
      result: { message: email ? msg("users.emailSet", { email }) : msg("users.emailCleared") },
      audit: { userId: actor.userId, email },
      notice: "email_changed",
      alsoMail: before.email && before.email !== email ? before.email : undefined,
    };
  });
}
