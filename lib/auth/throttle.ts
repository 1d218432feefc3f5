import type { SqlDriver, SqlExecutor } from "../db/driver";
import type { ThrottleScope } from "./throttled-code";

/**
 * Password guessing limits (OWASP ASVS 4.0 V2.2.1: at most 100 failed attempts an hour on one
 * account, and anti-automation that does not let an attacker lock the real person out).
 *
 * Every password check — a sign-in, or the current password when someone changes their own — is
 * one *attempt* on an *account* (the user name typed, whether or not it exists, so the answers do
 * not tell which accounts exist) from a client *address* (what lib/auth/request-context.ts gives;
 * attempts without one share the bucket ""). An attempt that is let through is recorded in
 * console.sign_in_failures before the password is checked, and the record is taken back if the
 * password was right: what stays are failures. Attempts that a limit refuses are not checked and
 * not recorded (only logged), so hammering a closed door does not push the limits further.
 *
 * The limits, over failures of the last hour unless said otherwise:
 *
 * 1. Account and address (the guesser): 5 failures free, then each further attempt waits
 *    1 s, 2 s, 4 s, … after the previous failure, at most 5 minutes. One address gets at most
 *    about 24 guesses at an account in any hour (12 an hour when it keeps going).
 * 2. Address, over all accounts (password spraying from one place): 20 failures free, then the
 *    same growing wait up to 10 minutes: at most about 35 an hour.
 * 3. Account, over all addresses (a distributed attack on one person): 30 failures free, then a
 *    growing wait up to a minute, and no more than 80 failures an hour from addresses the account
 *    has not signed in from; 100 failures an hour in all, from anywhere, is the hard ceiling.
 * 4. Everything, over all accounts and addresses: at most 100 failures a minute from addresses
 *    that are new to the account tried (a circuit breaker for large credential stuffing).
 *
 * Why a person cannot be kept out by someone else:
 *
 * - There is no lock-out, only waits, and a throttled attempt is refused without looking at the
 *   password — a correct password is *not* accepted during a wait, because then the limit would
 *   not limit guessing (a guesser would learn the right password the moment they tried it). The
 *   protection of the real person lies in *whose* attempts are slowed instead.
 * - Limits 1 and 2 slow the attacker's own address only. A single attacking address stays far
 *   below limit 3 (24 < 30), so the real person, from an address without recent failures, signs
 *   in at once while the account is being guessed at from elsewhere.
 * - Only a distributed attack reaches limit 3 or 4. Then an address without failures proves
 *   nothing (a botnet has thousands), so instead the addresses the account has *signed in from*
 *   in the last 90 days (console.sessions) are exempt from limits 2, 3 and 4: the person signs in
 *   from their usual network while the attack runs, and only limit 1 (their own typing) and the
 *   ceiling of 100 failures an hour apply to them. An attacker cannot make an address known
 *   without the password. Failures from known addresses are what may take the account from 80
 *   to 100 an hour, so the attackers elsewhere cannot use that reserve up.
 * - What remains: from a new network, during a distributed attack on their account, a person
 *   waits until it eases (the waits and ceilings are an hour at most after the failures that
 *   caused them); an attacker behind the same address as the person (one NAT) is the same
 *   client to the console and shares its waits.
 *
 * Counting is exact across console processes: the database is the shared state, and the check
 * and the record of an attempt happen under transaction-scoped advisory locks — the address's,
 * then the account's, then (for limit 4) one for all — taken always in that order, so parallel
 * guesses cannot slip in under a limit and no two attempts wait for each other in a circle.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const SIGN_IN_LIMITS = {
  /** The window of limits 1–3. */
  windowMs: HOUR,
  /** 1: one address's failures on one account. */
  pair: { free: 5, maxDelayMs: 5 * MINUTE },
  /** 2: one address's failures on all accounts (not counted against an address known for the account tried). */
  address: { free: 20, maxDelayMs: 10 * MINUTE },
  /** 3: one account's failures from all addresses. */
  account: { free: 30, maxDelayMs: MINUTE, newAddressCeiling: 80, ceiling: 100 },
  /** 4: all failures, over a minute. */
  global: { windowMs: MINUTE, ceiling: 100 },
  /** An address the account signed in from this recently is known to it. */
  knownAddressMs: 90 * 24 * HOUR,
} as const;

/** The failures (epoch milliseconds, oldest first) an attempt is judged by. */
export interface FailureHistory {
  now: number;
  /** The address is one the account signed in from in the last 90 days. */
  known: boolean;
  /** This account from this address. */
  pair: readonly number[];
  /** This address, all accounts. */
  address: readonly number[];
  /** This account, all addresses. */
  account: readonly number[];
  /** All accounts and addresses (the last minute is what counts). */
  global: readonly number[];
}

export type Admission = { ok: true } | { ok: false; scope: ThrottleScope; retryAt: number };

/** The wait after the latest failure once `failures` have been counted: none while under `free`, then 1 s, 2 s, 4 s … up to `maxMs`. */
export function backoffMs(failures: number, free: number, maxMs: number): number {
  if (failures < free) return 0;
  return Math.min(SECOND * 2 ** Math.min(failures - free, 30), maxMs);
}

const within = (times: readonly number[], now: number, windowMs: number) => times.filter((t) => t > now - windowMs && t <= now);

/**
 * Whether an attempt may be checked now, and if not, which limit refuses it and when it may be
 * made. A pure function of the failures, so that its promises can be tested for any sequence of
 * attempts (lib/auth/throttle.test.ts); `reserveAttempt` feeds it from the database.
 */
export function admit(history: FailureHistory): Admission {
  const { now, known } = history;
  const L = SIGN_IN_LIMITS;
  const refusals: { scope: ThrottleScope; retryAt: number }[] = [];
  const backoff = (scope: ThrottleScope, times: readonly number[], free: number, maxMs: number) => {
    const recent = within(times, now, L.windowMs);
    const wait = backoffMs(recent.length, free, maxMs);
    const latest = recent.at(-1);
    if (wait > 0 && latest !== undefined && now < latest + wait) refusals.push({ scope, retryAt: latest + wait });
  };
  /** At `ceiling` failures in the window, the next attempt waits until the oldest of the last `ceiling` leaves it. */
  const ceiling = (scope: ThrottleScope, times: readonly number[], limit: number, windowMs: number) => {
    const recent = within(times, now, windowMs);
    if (recent.length >= limit) refusals.push({ scope, retryAt: recent[recent.length - limit] + windowMs });
  };

  backoff("address", history.pair, L.pair.free, L.pair.maxDelayMs);
  ceiling("account", history.account, L.account.ceiling, L.windowMs);
  if (!known) {
    backoff("address", history.address, L.address.free, L.address.maxDelayMs);
    backoff("account", history.account, L.account.free, L.account.maxDelayMs);
    ceiling("account", history.account, L.account.newAddressCeiling, L.windowMs);
    ceiling("global", history.global, L.global.ceiling, L.global.windowMs);
  }
  if (refusals.length === 0) return { ok: true };
  const binding = refusals.reduce((last, refusal) => (refusal.retryAt > last.retryAt ? refusal : last));
  return { ok: false, ...binding };
}

export type Reservation = { ok: true; id: string } | { ok: false; scope: ThrottleScope; retryAfterSeconds: number };

interface HistoryRow {
  now: number;
  known: boolean;
  pair: number[];
  address: number[];
  account: number[];
}

const epochMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;

/**
 * Admits an attempt at `username`'s password from `clientAddress`, or says which limit refuses
 * it. An admitted attempt is recorded as a failure at once; `settleAttempt` takes it back when
 * the password was right. `at`: the attempt's instant for tests (the database's clock otherwise).
 */
export async function reserveAttempt(db: SqlDriver, username: string, clientAddress: string | null, at?: Date): Promise<Reservation> {
  const address = clientAddress ?? "";
  const L = SIGN_IN_LIMITS;
  return db.transaction(async (tx) => {
    await tx.run("SELECT pg_advisory_xact_lock(7353011, hashtext($1))", [address]);
    await tx.run("SELECT pg_advisory_xact_lock(7353010, hashtext($1))", [username]);
    // The instant is read after the locks: every failure recorded by an earlier holder is older.
    const [history] = await tx.query<HistoryRow>(
      `SELECT ${epochMs("t.now")} AS now,
              ARRAY(SELECT ${epochMs("f.at")} FROM console.sign_in_failures f
                     WHERE f.username = $1 AND f.client_address = $2 AND f.at > t.now - $4 * interval '1 millisecond' ORDER BY f.at) AS pair,
              ARRAY(SELECT ${epochMs("f.at")} FROM console.sign_in_failures f
                     WHERE f.client_address = $2 AND f.at > t.now - $4 * interval '1 millisecond' ORDER BY f.at) AS address,
              ARRAY(SELECT ${epochMs("f.at")} FROM console.sign_in_failures f
                     WHERE f.username = $1 AND f.at > t.now - $4 * interval '1 millisecond' ORDER BY f.at) AS account,
              ($2 <> '' AND EXISTS (
                SELECT FROM console.sessions s JOIN console.users u ON u.id = s.user_id
                 WHERE u.username = $1 AND s.client_address = $2 AND s.created_at > t.now - $5 * interval '1 millisecond')) AS known
         FROM (SELECT coalesce($3::timestamptz, clock_timestamp()) AS now) t`,
      [username, address, at ?? null, L.windowMs, L.knownAddressMs],
    );
    const local = {
      ...history,
      pair: history.pair.map(Number),
      address: history.address.map(Number),
      account: history.account.map(Number),
    };
    const first = admit({ ...local, now: Number(history.now), global: [] });
    if (!first.ok) return refused(first, Number(history.now));

    await tx.run("SELECT pg_advisory_xact_lock(7353012, 0)");
    const [global] = await tx.query<{ now: number; times: number[] }>(
      `SELECT ${epochMs("t.now")} AS now,
              ARRAY(SELECT ${epochMs("f.at")} FROM console.sign_in_failures f WHERE f.at > t.now - $2 * interval '1 millisecond' ORDER BY f.at) AS times
         FROM (SELECT coalesce($1::timestamptz, clock_timestamp()) AS now) t`,
      [at ?? null, L.global.windowMs],
    );
    const now = Number(global.now);
    const second = admit({ ...local, now, global: global.times.map(Number) });
    if (!second.ok) return refused(second, now);
    // Recorded at the instant it is recorded (not earlier than the one judged by): it ages out no sooner.
    const [{ id }] = await tx.query<{ id: string }>(
      `INSERT INTO console.sign_in_failures (username, client_address, at)
       VALUES ($1, $2, coalesce($3::timestamptz, clock_timestamp())) RETURNING id::text AS id`,
      [username, address, at ?? null],
    );
    return { ok: true, id };
  });
}

function refused(admission: { scope: ThrottleScope; retryAt: number }, now: number): Reservation {
  return { ok: false, scope: admission.scope, retryAfterSeconds: Math.max(1, Math.ceil((admission.retryAt - now) / SECOND)) };
}

/** The password was right: the attempt's record is taken back (earlier failures stay counted). */
export async function settleAttempt(db: SqlExecutor, id: string): Promise<void> {
  await db.query("DELETE FROM console.sign_in_failures WHERE id = $1::bigint", [id]);
}

/** Failures older than a day count for nothing any more. */
export async function forgetOldFailures(db: SqlExecutor): Promise<void> {
  await db.query("DELETE FROM console.sign_in_failures WHERE at < now() - interval '1 day'");
}
