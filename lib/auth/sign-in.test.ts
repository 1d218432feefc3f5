import bcrypt from "bcrypt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testBackends } from "../../testing/databases";
import { TEST_CLIENT } from "../../testing/sessions";
import type { Database } from "../db/client";
import { insertUser, updateUser } from "../users/store";
import { ABSOLUTE_LIFETIME_MS, IDLE_TIMEOUT_MS, openSession } from "./sessions";
import { signInWithPassword } from "./sign-in";
import { SIGN_IN_LIMITS } from "./throttle";

const PASSWORD = "a long enough password";
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const from = (clientAddress: string) => ({ clientAddress, userAgent: "vitest" });

describe.each(testBackends())("password sign-in on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
    await insertUser(db.sql, { username: "alice", role: "operator", password: PASSWORD });
  });
  afterAll(() => drop());

  // Each test that plays with time gets an hour-spaced epoch of its own, a day ahead of the
  // database's clock: failures recorded at one epoch are outside every window of the next.
  let epochs = 0;
  const epoch = () => Date.now() + 24 * HOUR + ++epochs * 3 * HOUR;

  const auditRows = (username: string) =>
    db.sql.query<{ result: string; error_code: string | null; session_id: string | null; client_address: string; input: unknown }>(
      "SELECT result, error_code, session_id, client_address, input FROM console.audit_log WHERE action = 'auth.sign_in' AND actor = $1 ORDER BY id",
      [username],
    );
  /** Failures recorded directly (what an attack already did), at the given instants. */
  const recordFailures = (rows: { username: string; address: string; at: number }[]) =>
    db.sql.query(
      `INSERT INTO console.sign_in_failures (username, client_address, at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[])`,
      [rows.map((r) => r.username), rows.map((r) => r.address), rows.map((r) => new Date(r.at).toISOString())],
    );
  /** The account has signed in from `address` before (a session opened from there). */
  const knownAt = async (username: string, address: string) => {
    const [{ id }] = await db.sql.query<{ id: number }>("SELECT id FROM console.users WHERE username = $1", [username]);
    await openSession(db.sql, id, from(address));
  };
  const signIn = (username: string, password: string, address: string, at: number) =>
    signInWithPassword(db.sql, username, password, from(address), { at: new Date(at) });

  it("signs in with the right password, opens a session and audits it", async () => {
    const result = await signInWithPassword(db.sql, "  Alice ", PASSWORD, TEST_CLIENT);
    expect(result).toMatchObject({ ok: true, user: { username: "alice", role: "operator" } });
    const [row] = (await auditRows("alice")).slice(-1);
    expect(row).toMatchObject({ result: "ok", client_address: TEST_CLIENT.clientAddress });
    expect(row.session_id).toBe(result.ok ? result.user.sessionId : null);
  });

  it("gives the same answer for a wrong password and an unknown account, and audits the difference", async () => {
    expect(await signInWithPassword(db.sql, "alice", "wrong password!!", TEST_CLIENT)).toEqual({ ok: false, reason: "invalid" });
    expect(await signInWithPassword(db.sql, "nobody", "wrong password!!", TEST_CLIENT)).toEqual({ ok: false, reason: "invalid" });
    expect((await auditRows("alice")).at(-1)).toMatchObject({ result: "refused", error_code: "wrong_password" });
    expect((await auditRows("nobody")).at(-1)).toMatchObject({ result: "refused", error_code: "unknown_user" });
  });

  it("refuses a disabled account even with the right password", async () => {
    const id = await insertUser(db.sql, { username: "dora", role: "support", password: PASSWORD });
    await updateUser(db.sql, id, { disabled: true });
    expect(await signInWithPassword(db.sql, "dora", PASSWORD, TEST_CLIENT)).toEqual({ ok: false, reason: "invalid" });
    expect((await auditRows("dora")).at(-1)).toMatchObject({ error_code: "disabled" });
  });

  it("makes one address wait longer and longer between guesses at an account, existing or not", async () => {
    await insertUser(db.sql, { username: "bob", role: "support", password: PASSWORD });
    for (const username of ["bob", "ghost"]) {
      const t = epoch();
      for (let i = 0; i < SIGN_IN_LIMITS.pair.free; i++) {
        expect(await signIn(username, `guess number ${i}`, "203.0.113.5", t)).toEqual({ ok: false, reason: "invalid" });
      }
      // Refused without looking at the password, even the right one: a wait that a right guess
      // could skip would not slow guessing.
      const throttled = { ok: false, reason: "throttled", scope: "address" };
      const audited = (await auditRows(username)).length;
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      try {
        (globalThis as Record<symbol, Map<string, unknown> | undefined>)[Symbol.for("registry-state-console.log-windows")]?.clear();
        expect(await signIn(username, PASSWORD, "203.0.113.5", t)).toEqual({ ...throttled, retryAfterSeconds: 1 });
        // Logged (rate-limited), not audited: anyone can send throttled attempts at no cost.
        expect(warn.mock.calls.map(([line]) => String(line))).toEqual([
          `auth.sign_in: refused code="throttled" username="${username}" limit="address" retryAfterSeconds=1 client="203.0.113.5"`,
        ]);
        expect(await auditRows(username)).toHaveLength(audited);
      } finally {
        warn.mockRestore();
      }
      expect(await signIn(username, "guess number 6", "203.0.113.5", t + SECOND)).toEqual({ ok: false, reason: "invalid" });
      expect(await signIn(username, PASSWORD, "203.0.113.5", t + 2 * SECOND)).toEqual({ ...throttled, retryAfterSeconds: 1 });
      expect(await signIn(username, "guess number 7", "203.0.113.5", t + 3 * SECOND)).toEqual({ ok: false, reason: "invalid" });
      expect(await signIn(username, PASSWORD, "203.0.113.5", t + 3 * SECOND)).toEqual({ ...throttled, retryAfterSeconds: 4 });
      // After the wait, the right password signs in (an account that does not exist stays "invalid").
      expect(await signIn(username, PASSWORD, "203.0.113.5", t + 7 * SECOND)).toEqual(
        username === "bob" ? expect.objectContaining({ ok: true }) : { ok: false, reason: "invalid" },
      );
    }
  });

  it("lets the person sign in from an address without failures while their account is guessed at from another", async () => {
    await insertUser(db.sql, { username: "erin", role: "support", password: PASSWORD });
    const t = epoch();
    // Ten guesses within a minute from one address (the old limit of 10 a minute per name).
    let at = t;
    for (let i = 0; i < 10; i++) {
      at += i < 5 ? 0 : 2 ** (i - 5) * SECOND; // 0, 0, 0, 0, 0, then 1 s, 2 s, 4 s, 8 s, 16 s
      const result = await signIn("erin", `attacker guess ${i}`, "198.51.100.66", at);
      expect(result).toEqual({ ok: false, reason: "invalid" });
    }
    expect(at - t).toBeLessThan(MINUTE);
    expect(await signIn("erin", PASSWORD, "198.51.100.66", at)).toMatchObject({ ok: false, reason: "throttled" });
    expect(await signIn("erin", PASSWORD, "192.0.2.44", at)).toMatchObject({ ok: true, user: { username: "erin" } });
  });

  it("stops a distributed attack at 80 failures an hour from new addresses and 100 in all, but not the person at an address they used", async () => {
    await insertUser(db.sql, { username: "frank", role: "support", password: PASSWORD });
    await knownAt("frank", "192.0.2.10");
    await knownAt("frank", "192.0.2.11");
    const t = epoch();
    // 80 guesses from 80 addresses over the last 50 minutes, and 15 of the person's own typos from home.
    await recordFailures([
      ...Array.from({ length: 80 }, (_, i) => ({ username: "frank", address: `198.18.0.${i}`, at: t - 50 * MINUTE + i * 30 * SECOND })),
      ...Array.from({ length: 15 }, (_, i) => ({ username: "frank", address: "192.0.2.11", at: t - 30 * MINUTE + i * SECOND })),
    ]);
    // A new address is refused until fewer than 80 failures are left in the hour: when the 16th
    // oldest (a guess from 42.5 minutes ago) is an hour old.
    expect(await signIn("frank", PASSWORD, "203.0.113.200", t)).toEqual({
      ok: false,
      reason: "throttled",
      scope: "account",
      retryAfterSeconds: 17.5 * 60,
    });
    // The person at the office, where they signed in before, is let in; its typos count up to 100.
    expect(await signIn("frank", PASSWORD, "192.0.2.10", t)).toMatchObject({ ok: true });
    for (let i = 0; i < 5; i++) expect(await signIn("frank", `typo ${i}`, "192.0.2.10", t)).toEqual({ ok: false, reason: "invalid" });
    expect(await signIn("frank", PASSWORD, "192.0.2.10", t + 10 * SECOND)).toMatchObject({
      ok: false,
      reason: "throttled",
      scope: "account",
    });
    const [{ failures }] = await db.sql.query<{ failures: number }>(
      "SELECT count(*)::int AS failures FROM console.sign_in_failures WHERE username = 'frank' AND at > $1::timestamptz - interval '1 hour'",
      [new Date(t).toISOString()],
    );
    expect(failures).toBe(SIGN_IN_LIMITS.account.ceiling);
  });

  it("slows one address spraying many accounts, but not people who signed in from it before, nor other addresses", async () => {
    await insertUser(db.sql, { username: "gina", role: "support", password: PASSWORD });
    await knownAt("gina", "198.51.100.77");
    const t = epoch();
    await recordFailures(
      Array.from({ length: SIGN_IN_LIMITS.address.free }, (_, i) => ({
        username: `sprayed-${i}`,
        address: "198.51.100.77",
        at: t - 500 - i,
      })),
    );
    expect(await signIn("sprayed-99", "Summer2026!", "198.51.100.77", t)).toEqual({
      ok: false,
      reason: "throttled",
      scope: "address",
      retryAfterSeconds: 1,
    });
    expect(await signIn("gina", PASSWORD, "198.51.100.77", t)).toMatchObject({ ok: true });
    expect(await signIn("sprayed-99", "Summer2026!", "198.51.100.78", t)).toEqual({ ok: false, reason: "invalid" });
  });

  it(`refuses new addresses on every account after ${SIGN_IN_LIMITS.global.ceiling} failures in a minute, but not known ones`, async () => {
    await insertUser(db.sql, { username: "hana", role: "support", password: PASSWORD });
    await knownAt("hana", "192.0.2.30");
    const t = epoch();
    await recordFailures(
      Array.from({ length: SIGN_IN_LIMITS.global.ceiling }, (_, i) => ({
        username: `stuffed-${i}`,
        address: `198.18.1.${i}`,
        at: t - 30 * SECOND + i * 100,
      })),
    );
    expect(await signIn("hana", PASSWORD, "203.0.113.31", t)).toEqual({
      ok: false,
      reason: "throttled",
      scope: "global",
      retryAfterSeconds: 30,
    });
    expect(await signIn("hana", PASSWORD, "192.0.2.30", t)).toMatchObject({ ok: true });
    expect(await signIn("hana", PASSWORD, "203.0.113.31", t + 30 * SECOND)).toMatchObject({ ok: true });
  });

  it("lets no more than the limit through when the guesses come in parallel", async () => {
    const t = epoch();
    const free = SIGN_IN_LIMITS.pair.free;
    const guesses = await Promise.all(Array.from({ length: 2 * free }, (_, i) => signIn("carol", `parallel guess ${i}`, "203.0.113.8", t)));
    expect(guesses.filter((g) => !g.ok && g.reason === "invalid")).toHaveLength(free);
    expect(guesses.filter((g) => !g.ok && g.reason === "throttled")).toHaveLength(free);
  });

  it("reads all of a long password: two that share their first 72 bytes do not both sign in", async () => {
    const head = `${"ř".repeat(30)}twelve bytes`; // 72 bytes of UTF-8
    expect(Buffer.byteLength(head)).toBe(72);
    await insertUser(db.sql, { username: "ivan", role: "support", password: `${head} and the real end` });
    expect(await signInWithPassword(db.sql, "ivan", `${head} and another end`, from("192.0.2.50"))).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await signInWithPassword(db.sql, "ivan", head, from("192.0.2.50"))).toEqual({ ok: false, reason: "invalid" });
    expect(await signInWithPassword(db.sql, "ivan", `${head} and the real end`, from("192.0.2.50"))).toMatchObject({ ok: true });
  });

  it("still accepts a hash of the older form (bcrypt of the password itself) and replaces it at sign-in", async () => {
    const head = "x".repeat(72);
    const id = await insertUser(db.sql, { username: "jan", role: "support", password: null });
    await db.sql.query("UPDATE console.users SET password_hash = $2 WHERE id = $1", [id, await bcrypt.hash(`${head} real`, 4)]);
    // The older form cannot tell these apart; once replaced, the console can.
    expect(await signInWithPassword(db.sql, "jan", `${head} real`, from("192.0.2.51"))).toMatchObject({ ok: true });
    const [{ password_hash }] = await db.sql.query<{ password_hash: string }>("SELECT password_hash FROM console.users WHERE id = $1", [
      id,
    ]);
    // The current form, at the tests' cost (testing/quick-bcrypt.ts; passwords.test.ts checks 12).
    expect(password_hash).toMatch(/^rsc2:\$2b\$04\$/);
    expect(await signInWithPassword(db.sql, "jan", `${head} fake`, from("192.0.2.51"))).toEqual({ ok: false, reason: "invalid" });
    expect(await signInWithPassword(db.sql, "jan", `${head} real`, from("192.0.2.51"))).toMatchObject({ ok: true });
  });

  // Issue 39: a NUL in the user name answered `error=invalid byte sequence for encoding "UTF8": 0x00`
  // (PostgreSQL's text, raised out of authorize) and the attempt was neither audited nor logged.
  it.each([
    ["a NUL", "ali\u0000ce", "nul"],
    ["a lone surrogate", "ali\uD800ce", "surrogate"],
    ["a control character", "ali\u001bce", "control"],
    ["a tab inside the name", "ali\tce", "control"],
    ["a DEL", "ali\u007fce", "control"],
  ])("refuses a user name with %s before looking it up, and audits it as bad_bytes", async (_what, typed, problem) => {
    const lookUp = vi.spyOn(db.sql.prisma.user, "findUnique");
    try {
      expect(await signInWithPassword(db.sql, typed, PASSWORD, from("192.0.2.60"))).toEqual({ ok: false, reason: "bad_bytes" });
      expect(lookUp).not.toHaveBeenCalled();
    } finally {
      lookUp.mockRestore();
    }
    const [row] = (await auditRows("ali\uFFFDce")).slice(-1);
    expect(row).toMatchObject({ result: "refused", error_code: "bad_bytes", input: { method: "password", problem } });
    // Counted against the limits like a wrong guess.
    const [{ n }] = await db.sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM console.sign_in_failures WHERE username = $1 AND client_address = '192.0.2.60'",
      ["ali\uFFFDce"],
    );
    expect(n).toBeGreaterThan(0);
  });

  it("refuses a password with a NUL or a lone surrogate as bad_bytes; one with other control characters is checked", async () => {
    expect(await signInWithPassword(db.sql, "alice", `${PASSWORD}\u0000`, from("192.0.2.61"))).toEqual({ ok: false, reason: "bad_bytes" });
    expect(await signInWithPassword(db.sql, "alice", `${PASSWORD}\uDC00`, from("192.0.2.61"))).toEqual({ ok: false, reason: "bad_bytes" });
    expect(await signInWithPassword(db.sql, "alice", `${PASSWORD}\t`, from("192.0.2.61"))).toEqual({ ok: false, reason: "invalid" });
    expect((await auditRows("alice")).at(-1)).toMatchObject({ error_code: "wrong_password" });
  });

  it("keeps the limits the issue sets: at most 100 failures an hour on one account, 30 minutes idle, 12 hours in all", () => {
    expect(SIGN_IN_LIMITS.windowMs).toBe(HOUR);
    expect(SIGN_IN_LIMITS.account.ceiling).toBe(100);
    expect(IDLE_TIMEOUT_MS).toBe(30 * 60 * 1000);
    expect(ABSOLUTE_LIFETIME_MS).toBe(12 * 60 * 60 * 1000);
  });
});
