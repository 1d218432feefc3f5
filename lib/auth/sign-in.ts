import { audit } from "../audit/log";
import type { ConsoleExecutor, SqlDriver } from "../db/driver";
import { badCharacter, shownText } from "../input/values";
import { logAnonymousRefusal } from "../log";
import { metrics } from "../metrics";
import { linkAllowed, provisionedUser } from "../users/provision";
import { updateUser } from "../users/store";
import { ldapAuthenticate, readLdapConfig } from "./ldap";
import { hashPassword, needsRehash, spendPasswordCheck, verifyPassword } from "./passwords";
import { isRole, type Role } from "./roles";
import { checkSecondFactor } from "./second-factor";
import type { SecondFactorAsk } from "./second-factor-code";
import { issueChallenge } from "./security-keys";
import { openSession } from "./sessions";
import { forgetOldFailures, reserveAttempt, settleAttempt } from "./throttle";
import type { ThrottleScope } from "./throttled-code";

interface SignedIn {
  userId: number;
  username: string;
  role: Role;
  sessionId: string;
}

export type SignInResult =
  | { ok: true; user: SignedIn }
  | { ok: false; reason: "invalid" | "directory_unavailable" | "no_console_group" }
  /** The directory vouched for the person, but the console account of that name is not the directory's, and no administrator allowed linking it. */
  | { ok: false; reason: "account_not_linked" }
  /** The user name or password holds a NUL, a control character or broken Unicode: nothing was looked up. */
  | { ok: false; reason: "bad_bytes" }
  /** The password was right; the person's second factor is asked for (again). */
  | { ok: false; reason: "second_factor_required" | "second_factor_wrong"; ask: SecondFactorAsk }
  | { ok: false; reason: "throttled"; scope: ThrottleScope; retryAfterSeconds: number };

function normalizeUsername(typed: string): string {
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
  options: { at?: Date; code?: string; assertion?: string } = {},
): Promise<SignInResult> {
  const result = await checkPassword(db, typedUsername, password, request, options);
  // Counted for the registry's monitoring (lib/metrics.ts): failures and throttling by kind.
  metrics().signIns.inc({ result: result.ok ? "ok" : result.reason });
  return result;
}

async function checkPassword(
  db: SqlDriver,
  typedUsername: string,
  password: string,
  request: { clientAddress: string | null; userAgent: string | null },
  options: { at?: Date; code?: string; assertion?: string },
): Promise<SignInResult> {
  // Characters no user name has (and PostgreSQL or an encoder would refuse or change) are refused
  // before the name is looked up anywhere: the attempt is throttled and audited under the name as
  // shown with U+FFFD in their place, as "bad_bytes". Passwords may hold control characters.
  const badBytes = badCharacter(typedUsername, { controls: true }) ?? badCharacter(password, { controls: false });
  const username = normalizeUsername(badBytes ? shownText(typedUsername) : typedUsername);
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

  const attemptId = attempt.id;
  if (badBytes) {
    // Counted against the limits like a wrong password, so a flood of them is throttled.
    await db.transaction(async (tx) => {
      await forgetOldFailures(tx);
      await audit(tx, {
        action: "auth.sign_in",
        result: "refused",
        errorCode: "bad_bytes",
        actor: who,
        input: { method: "password", problem: badBytes },
      });
    });
    return { ok: false, reason: "bad_bytes" };
  }
  const user = await db.prisma.user.findUnique({
    where: { username },
    select: { id: true, username: true, role: true, passwordHash: true, disabledAt: true, directoryDn: true, linkAllowedUntil: true },
  });
  // A refusal counts as a guess against the limits, except when no password was wrong: the directory
  // could not check it, or it was right and the groups refuse (so an outage locks nobody out).
  type Refusal = Exclude<SignInResult, { ok: true } | { reason: "throttled" | "bad_bytes" }>;
  const refuse = async (problem: string, method: string, refusal: Refusal = { ok: false, reason: "invalid" }): Promise<Refusal> => {
    await db.transaction(async (tx) => {
      // A directory person refused an account not theirs counts too: it checked that account's console password.
      if (!["invalid", "second_factor_wrong", "account_not_linked"].includes(refusal.reason)) await settleAttempt(tx, attemptId);
      await forgetOldFailures(tx);
      await audit(tx, { action: "auth.sign_in", result: "refused", errorCode: problem, actor: who, input: { method } });
    });
    return refusal;
  };

  // The password (or the directory) said yes: a person with a second factor also gives its code.
  const secondFactorThen = async (
    signedIn: { id: number; username: string; role: Role },
    method: "password" | "ldap",
    more?: (tx: ConsoleExecutor) => Promise<void>,
  ) => {
    const check = await db.transaction((tx) => checkSecondFactor(tx, signedIn.id, options));
    if (check.kind === "missing" || check.kind === "wrong") {
      // With security keys, the answer carries a new challenge for this person's key to sign.
      const keyChallenge = check.methods.key ? issueChallenge("sign-in", signedIn.id) : null;
      const ask = {
        state: check.kind === "missing" ? "required" : "wrong",
        totp: check.methods.totp,
        keyChallenge,
        keyIds: check.keyIds,
      } as const;
      return check.kind === "missing"
        ? refuse("second_factor_required", method, { ok: false, reason: "second_factor_required", ask })
        : refuse(check.problem ?? "wrong_second_factor", method, { ok: false, reason: "second_factor_wrong", ask });
    }
    return openSignedIn(db, attempt.id, signedIn, request, method, more, check.kind === "none" ? undefined : check.kind);
  };

  // The registry's directory first, when there is one (lib/auth/ldap.ts). A directory entry speaks
  // for the console account of its name only when that account is the directory's already, or an
  // administrator allowed linking it (Users page); otherwise the account is another person's, whom
  // the entry neither signs in as nor changes: it signs in with its console password alone.
  const ldap = readLdapConfig();
  const outcome = ldap ? await ldapAuthenticate(ldap, username, password) : null;
  const notTheDirectorys = user !== null && !user.directoryDn && !linkAllowed(user.linkAllowedUntil);
  if (outcome?.kind === "member" && !notTheDirectorys) {
    if (user?.disabledAt) return refuse("disabled", "ldap");
    const person = {
      username,
      role: outcome.role,
      displayName: outcome.displayName,
      source: { kind: "directory" as const, directoryDn: outcome.dn },
    };
    const account = await provisionedUser(db, person, user);
    if (!account) return refuse("account_not_linked", "ldap", { ok: false, reason: "account_not_linked" });
    return secondFactorThen(account, "ldap");
  }
  if (outcome?.kind === "no_group" && !notTheDirectorys) {
    // Taken out of every console group: their sessions end now, and they may not sign in.
    if (user) await db.transaction((tx) => updateUser(tx, user.id, {}));
    return refuse("not_in_console_group", "ldap", { ok: false, reason: "no_console_group" });
  }
  // A directory account signs in through the directory only; other accounts with their console
  // password, unless LDAP_LOCAL_PASSWORDS=off.
  const local = !ldap || (ldap.localPasswords && !user?.directoryDn);
  if (outcome?.kind === "unavailable" && !(local && user?.passwordHash)) {
    console.error(`LDAP directory ${ldap?.url} unavailable at sign-in of ${username}: ${outcome.detail}`);
    await spendPasswordCheck(password);
    return refuse("directory_unavailable", "ldap", { ok: false, reason: "directory_unavailable" });
  }
  // The directory vouched for a person whose name is a console account not linked to the directory,
  // and that account's own password did not match: the person is told to ask an administrator.
  const notLinked = outcome?.kind === "member" && notTheDirectorys;
  if (!local) {
    await spendPasswordCheck(password);
    if (notLinked) return refuse("account_not_linked", "ldap", { ok: false, reason: "account_not_linked" });
    return refuse(outcome?.kind === "wrong_password" ? "wrong_password" : "unknown_user", "ldap");
  }

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
  if (notLinked && (problem === "wrong_password" || problem === "no_password"))
    return refuse("account_not_linked", "ldap", { ok: false, reason: "account_not_linked" });
  if (problem || !user || !isRole(user.role)) return refuse(problem ?? "invalid", "password");

  // A hash of the older form (bcrypt of the password itself, which ignores what follows its 72nd
  // byte) is replaced while the password is at hand.
  const upgraded = user.passwordHash && needsRehash(user.passwordHash) ? await hashPassword(password) : null;
  return secondFactorThen({ id: user.id, username: user.username, role: user.role }, "password", async (tx) => {
    if (upgraded) await tx.query("SELECT console.user_set_password_hash($1, $3, $2)", [user.id, user.passwordHash, upgraded]);
  });
}

/** Opens the session of a checked sign-in, takes its attempt back and audits it. */
async function openSignedIn(
  db: SqlDriver,
  attemptId: string,
  user: { id: number; username: string; role: Role },
  request: { clientAddress: string | null; userAgent: string | null },
  method: "password" | "ldap",
  more: (tx: ConsoleExecutor) => Promise<void> = async () => {},
  secondFactor?: "totp" | "recovery" | "security_key",
): Promise<SignInResult> {
  const sessionId = await db.transaction(async (tx) => {
    await settleAttempt(tx, attemptId);
    await more(tx);
    const id = await openSession(tx, user.id, request);
    await audit(tx, {
      action: "auth.sign_in",
      result: "ok",
      actor: { userId: user.id, username: user.username, role: user.role, sessionId: id, clientAddress: request.clientAddress },
      input: { method, ...(secondFactor ? { secondFactor } : {}) },
    });
    return id;
  });
  return { ok: true, user: { userId: user.id, username: user.username, role: user.role, sessionId } };
}
