import "server-only";
import * as z from "zod";
import { InputError, parseInput } from "../actions/result";
import { audit } from "../audit/log";
import { refusalInput } from "../audit/said";
import { authorize } from "../auth/guard";
import { ldapAuthenticate, readLdapConfig } from "../auth/ldap";
import { MAX_CURRENT_PASSWORD_LENGTH } from "../auth/password-limits";
import { verifyPassword } from "../auth/passwords";
import type { Actor } from "../auth/sessions";
import { reserveAttempt, settleAttempt } from "../auth/throttle";
import type { Database } from "../db/client";
import type { ConsoleExecutor } from "../db/driver";
import { type Message, msg, type Text } from "../i18n/message";
import { mailNotice, type NoticeKind, recordNotice } from "./notices";

/**
 * A session alone does not change how a person signs in (ASVS 3.7.1): a browser left open or a
 * copied cookie must not add or remove a second factor, see new recovery codes, or move where
 * notices are mailed. The person proves it is them again:
 *
 * - an account with a console password: that password;
 * - a directory (LDAP) account: the directory password, checked by the directory;
 * - a single sign-on account (no password the console could ask): a fresh sign-in, a session
 *   opened less than FRESH_SIGN_IN_MS ago (the identity provider checked them then).
 *
 * Every password checked counts against the guessing limits like a sign-in (lib/auth/throttle.ts),
 * and a right one takes its record back.
 */
export const FRESH_SIGN_IN_MS = 10 * 60_000;

/** Why the proof was refused: the audit's code and what the person is told. */
export interface ProofRefusal {
  errorCode: "no_password_given" | "wrong_password" | "throttled" | "directory_unavailable" | "sign_in_again";
  message: Message;
}

/** "12 seconds" or "5 minutes", said in the person's language. */
function waitText(seconds: number): Message {
  return seconds <= 90 ? msg("users.waitSeconds", { count: seconds }) : msg("users.waitMinutes", { count: Math.ceil(seconds / 60) });
}

/**
 * Checks `password` against the console password hash `hash` of the signed-in person, counted
 * against the guessing limits: null when it is right.
 */
export async function checkOwnPassword(db: Database, actor: Actor, hash: string, password: string): Promise<ProofRefusal | null> {
  const attempt = await reserveAttempt(db.sql, actor.username, actor.clientAddress);
  if (!attempt.ok)
    return { errorCode: "throttled", message: msg("users.passwordThrottled", { wait: waitText(attempt.retryAfterSeconds) }) };
  if (!(await verifyPassword(password, hash))) return { errorCode: "wrong_password", message: msg("users.wrongCurrentPassword") };
  // The current password was right: it was no guess.
  await settleAttempt(db.sql, attempt.id);
  return null;
}

/** Whether the person at `actor`'s session is who signed in: null when proven, else why not. */
async function proveIdentity(db: Database, actor: Actor, password: string, now = new Date()): Promise<ProofRefusal | null> {
  const user = await db.prisma.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { passwordHash: true, directoryDn: true } });
  const ldap = user.directoryDn ? readLdapConfig() : null;
  if ((ldap || user.passwordHash) && !password) return { errorCode: "no_password_given", message: msg("users.enterCurrentPassword") };
  if (ldap) {
    const attempt = await reserveAttempt(db.sql, actor.username, actor.clientAddress);
    if (!attempt.ok)
      return { errorCode: "throttled", message: msg("users.passwordThrottled", { wait: waitText(attempt.retryAfterSeconds) }) };
    const outcome = await ldapAuthenticate(ldap, actor.username, password);
    if (outcome.kind === "unavailable") {
      // No password was found wrong: not a guess.
      console.error(`LDAP directory ${ldap.url} unavailable when ${actor.username} confirmed a change: ${outcome.detail}`);
      await settleAttempt(db.sql, attempt.id);
      return { errorCode: "directory_unavailable", message: msg("users.directoryUnavailable") };
    }
    if (outcome.kind !== "member" && outcome.kind !== "no_group")
      return { errorCode: "wrong_password", message: msg("users.wrongCurrentPassword") };
    await settleAttempt(db.sql, attempt.id);
    return null;
  }
  if (user.passwordHash) return checkOwnPassword(db, actor, user.passwordHash, password);
  // Single sign-on: the identity provider vouched for the person when this session was opened.
  const session = actor.sessionId
    ? await db.prisma.session.findUnique({ where: { id: actor.sessionId }, select: { createdAt: true } })
    : null;
  if (session && now.getTime() - session.createdAt.getTime() < FRESH_SIGN_IN_MS) return null;
  return { errorCode: "sign_in_again", message: msg("users.signInAgain", { minutes: FRESH_SIGN_IN_MS / 60_000 }) };
}

const proofSchema = z.object({
  currentPassword: z.string().max(MAX_CURRENT_PASSWORD_LENGTH).optional().catch(undefined),
});

/** What a change of a person's own sign-in gives back: its result, the audit's input, and the notice it leaves. */
export interface OwnSignInChange<T> {
  result: T;
  audit: Record<string, unknown>;
  notice: NoticeKind;
  /** An address the notice is mailed to besides the person's own (the one a change of address replaced). */
  alsoMail?: string;
}

/**
 * A change of the signed-in person's own sign-in (second factors, e-mail address), made only when
 * they prove it is them (proveIdentity; the input's `currentPassword`). Authorised, validated, the
 * identity checked, then the change, its audit row and its notice in one transaction; the notice is
 * mailed after the commit (a mail that fails is logged, the change stays). Every refusal is audited
 * (without the password) and changes nothing.
 */
export async function ownSignInChange<S extends z.ZodType, T>(
  action: string,
  schema: S,
  input: unknown,
  work: (tx: ConsoleExecutor, data: z.output<S>, actor: Actor) => Promise<OwnSignInChange<T>>,
): Promise<T> {
  const { actor, db } = await authorize("self.password", action);
  const refused = (errorCode: string, error: Text) =>
    audit(db.sql, { action, result: "refused", errorCode, actor, input: { userId: actor.userId, ...refusalInput(error) } });
  let data: z.output<S>;
  try {
    data = parseInput(schema, input);
  } catch (error) {
    if (error instanceof InputError) await refused("invalid", error.text);
    throw error;
  }
  const { currentPassword } = proofSchema.parse(typeof input === "object" && input !== null ? input : {});
  const problem = await proveIdentity(db, actor, currentPassword ?? "");
  if (problem) {
    await refused(problem.errorCode, "currentPassword");
    throw new InputError(problem.message, { currentPassword: [problem.message] });
  }
  let done: { result: T; notice: NoticeKind; alsoMail?: string };
  try {
    done = await db.sql.transaction(async (tx) => {
      const change = await work(tx, data, actor);
      await audit(tx, { action, result: "ok", actor, input: change.audit });
      await recordNotice(tx, actor.userId, change.notice, actor);
      return { result: change.result, notice: change.notice, alsoMail: change.alsoMail };
    });
  } catch (error) {
    if (error instanceof InputError) await refused("invalid", error.text);
    throw error;
  }
  mailNotice(actor.userId, done.notice, actor, done.alsoMail);
  return done.result;
}
