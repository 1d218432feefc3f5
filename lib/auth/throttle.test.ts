import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { admit, backoffMs, type FailureHistory, SIGN_IN_LIMITS } from "./throttle";

// The promises of the guessing limits (lib/auth/throttle.ts), checked on the pure decision for
// attackers who try at the exact instant they are allowed to, and for any sequence of attempts
// fast-check makes. lib/auth/sign-in.test.ts checks that the database feeds it the same history.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const L = SIGN_IN_LIMITS;

interface Failure {
  at: number;
  account: string;
  address: string;
}

/** The console's bookkeeping in memory: every admitted attempt fails (the attackers never guess right). */
class Simulation {
  readonly failures: Failure[] = [];
  now = 0;
  constructor(readonly known: Set<string> = new Set()) {}

  history(account: string, address: string, now = this.now): FailureHistory {
    const times = (keep: (f: Failure) => boolean) => this.failures.filter(keep).map((f) => f.at);
    return {
      now,
      known: this.known.has(`${account}|${address}`),
      pair: times((f) => f.account === account && f.address === address),
      address: times((f) => f.address === address),
      account: times((f) => f.account === account),
      global: times(() => true),
    };
  }

  /** One attempt now; recorded as a failure when admitted. */
  attempt(account: string, address: string): ReturnType<typeof admit> {
    const admission = admit(this.history(account, address));
    if (admission.ok) this.failures.push({ at: this.now, account, address });
    return admission;
  }

  /** An attacker who waits exactly as long as told: the attempt is made at the announced instant. */
  attemptWhenAllowed(account: string, address: string): number {
    const first = admit(this.history(account, address));
    if (!first.ok) this.now = first.retryAt;
    const admission = this.attempt(account, address);
    expect(admission, "an attempt at the announced instant is admitted").toEqual({ ok: true });
    return this.now;
  }
}

/** The most failures matching `keep` in any window of `windowMs` (windows end at a failure). */
function busiestWindow(failures: Failure[], keep: (f: Failure) => boolean, windowMs: number): number {
  const times = failures
    .filter(keep)
    .map((f) => f.at)
    .sort((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while (times[start] <= times[end] - windowMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

describe("growing back-off", () => {
  it("is free for the first failures, then doubles from a second up to its ceiling", () => {
    expect([0, 4, 5, 6, 7, 12, 13, 14, 40].map((n) => backoffMs(n, 5, 5 * MINUTE))).toEqual([
      0,
      0,
      SECOND,
      2 * SECOND,
      4 * SECOND,
      128 * SECOND,
      256 * SECOND,
      300 * SECOND,
      300 * SECOND,
    ]);
  });

  it("makes one address wait longer and longer between guesses at one account, then about five minutes each", () => {
    const sim = new Simulation();
    const times = Array.from({ length: 60 }, () => sim.attemptWhenAllowed("alice", "203.0.113.9"));
    const gaps = times.slice(1).map((t, i) => (t - times[i]) / SECOND);
    expect(gaps.slice(0, 17)).toEqual([0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300, 300]);
    // Once the first burst has left the hour, the 12 or 13 failures still in it keep the wait at 256–300 s.
    expect(Math.min(...gaps.slice(17))).toBe(256);
  });
});

describe("ceilings", () => {
  it("lets one address make at most 24 guesses at one account in any hour, below where the account's own limits start", () => {
    const sim = new Simulation();
    while (sim.now < 5 * HOUR) sim.attemptWhenAllowed("alice", "203.0.113.9");
    const most = busiestWindow(sim.failures, () => true, HOUR);
    expect(most).toBe(24);
    expect(most).toBeLessThan(L.account.free);
  });

  it("lets one address spraying many accounts fail at most 35 times in any hour", () => {
    const sim = new Simulation();
    let i = 0;
    while (sim.now < 4 * HOUR) sim.attemptWhenAllowed(`user-${i++ % 500}`, "203.0.113.9");
    expect(busiestWindow(sim.failures, () => true, HOUR)).toBeLessThanOrEqual(35);
  });

  it("holds a distributed attack on one account to 80 failures an hour, with growing waits, and never above 100 with its known addresses", () => {
    const known = new Set(["alice|192.0.2.1", "alice|192.0.2.2"]);
    const sim = new Simulation(known);
    const times: number[] = [];
    const inLastHour = () => sim.failures.filter((f) => f.at > sim.now - HOUR).length;
    // Each guess comes from a new address of a botnet, the moment the account lets one in.
    let bot = 0;
    const nextBot = () => `198.18.${bot >> 8}.${bot++ & 255}`;
    while (inLastHour() < L.account.newAddressCeiling) times.push(sim.attemptWhenAllowed("alice", nextBot()));
    const gaps = times.slice(1).map((t, i) => (t - times[i]) / SECOND);
    expect(gaps.slice(0, 29).every((gap) => gap === 0)).toBe(true);
    expect(gaps.slice(29, 37)).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect(sim.now).toBeLessThan(HOUR);
    expect(sim.attempt("alice", nextBot())).toMatchObject({ ok: false, scope: "account" });

    // Meanwhile the person signs in from their office: not refused.
    expect(admit(sim.history("alice", "192.0.2.1"))).toEqual({ ok: true });
    // Their known addresses (and only they) may fail up to the hard ceiling of 100 an hour.
    for (let i = 0; i < 40; i++) {
      sim.attemptWhenAllowed("alice", i % 2 ? "192.0.2.1" : "192.0.2.2");
      expect(sim.attempt("alice", nextBot()).ok).toBe(false);
    }
    // The attack goes on for hours, at whatever rate it is let in.
    while (sim.now < 6 * HOUR) {
      sim.now += 10 * SECOND;
      sim.attempt("alice", nextBot());
    }
    expect(busiestWindow(sim.failures, () => true, HOUR)).toBe(L.account.ceiling);
    expect(busiestWindow(sim.failures, (f) => !known.has(`alice|${f.address}`), HOUR)).toBe(L.account.newAddressCeiling);
    expect(admit(sim.history("alice", "192.0.2.1"))).toEqual({ ok: true });
  });

  it(`stops all accounts together at ${L.global.ceiling} failures a minute from new addresses, but not a known one`, () => {
    const sim = new Simulation(new Set(["victim|192.0.2.1"]));
    for (let i = 0; i < 300; i++) {
      sim.now += 100;
      sim.attempt(`user-${i}`, `198.18.${i >> 8}.${i & 255}`);
    }
    expect(busiestWindow(sim.failures, () => true, MINUTE)).toBe(L.global.ceiling);
    const refused = admit(sim.history("victim", "198.51.100.1"));
    expect(refused).toMatchObject({ ok: false, scope: "global" });
    expect(admit(sim.history("victim", "192.0.2.1"))).toEqual({ ok: true });
  });
});

describe("for any sequence of attempts (fast-check)", () => {
  const ACCOUNTS = ["alice", "bob", "carol"];
  const ADDRESSES = Array.from({ length: 30 }, (_, i) => `198.18.0.${i}`);
  const step = fc.record({
    // Mostly quick attempts, sometimes long pauses.
    pause: fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 0, max: 5 * SECOND }) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 40 * MINUTE }) },
    ),
    account: fc.integer({ min: 0, max: ACCOUNTS.length - 1 }),
    address: fc.integer({ min: 0, max: ADDRESSES.length - 1 }),
    /** Waits for the announced instant when refused (the strongest attacker), instead of giving up. */
    patient: fc.boolean(),
  });
  const scenario = fc.record({
    known: fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 29 })), { maxLength: 6 }),
    steps: fc.array(step, { minLength: 1, maxLength: 400 }),
  });

  it("keeps every ceiling, and never keeps the person out of an address they are known at", () => {
    fc.assert(
      fc.property(scenario, ({ known, steps }) => {
        const knownPairs = new Set(known.map(([a, b]) => `${ACCOUNTS[a]}|${ADDRESSES[b]}`));
        const sim = new Simulation(knownPairs);
        for (const { pause, account, address, patient } of steps) {
          sim.now += pause;
          const who = [ACCOUNTS[account], ADDRESSES[address]] as const;
          // Before the attempt: a known address with no failures of its own on the account is
          // let in whatever the others did (unless the account is at its hard ceiling, which
          // only failures from known addresses can bring it to).
          for (const pair of knownPairs) {
            const [a, b] = pair.split("|");
            const own = sim.failures.filter((f) => f.account === a && f.address === b && f.at > sim.now - HOUR).length;
            const fromKnown = sim.failures.filter((f) => f.account === a && knownPairs.has(`${a}|${f.address}`) && f.at > sim.now - HOUR);
            if (own === 0 && fromKnown.length === 0) expect(admit(sim.history(a, b))).toEqual({ ok: true });
          }
          if (patient) sim.attemptWhenAllowed(...who);
          else sim.attempt(...who);
        }
        const isKnown = (f: Failure) => knownPairs.has(`${f.account}|${f.address}`);
        for (const account of ACCOUNTS) {
          expect(busiestWindow(sim.failures, (f) => f.account === account, HOUR)).toBeLessThanOrEqual(L.account.ceiling);
          expect(busiestWindow(sim.failures, (f) => f.account === account && !isKnown(f), HOUR)).toBeLessThanOrEqual(
            L.account.newAddressCeiling,
          );
          for (const address of ADDRESSES) {
            expect(busiestWindow(sim.failures, (f) => f.account === account && f.address === address, HOUR)).toBeLessThanOrEqual(24);
          }
        }
        for (const address of ADDRESSES) {
          expect(busiestWindow(sim.failures, (f) => f.address === address && !isKnown(f), HOUR)).toBeLessThanOrEqual(35);
        }
        expect(busiestWindow(sim.failures, (f) => !isKnown(f), MINUTE)).toBeLessThanOrEqual(L.global.ceiling);
      }),
      { numRuns: 150 },
    );
  });

  it("never lets one attacking address keep anyone else out of the same account", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 300 }), (steps) => {
        const sim = new Simulation();
        for (const { pause, patient } of steps) {
          sim.now += pause;
          if (patient) sim.attemptWhenAllowed("alice", "203.0.113.66");
          else sim.attempt("alice", "203.0.113.66");
          // The person, at an address the console has never seen and without recent failures.
          expect(admit(sim.history("alice", "198.51.100.20"))).toEqual({ ok: true });
        }
      }),
      { numRuns: 150 },
    );
  });
});
