import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { testBackends } from "../../testing/databases";
import { actAs, signedInAs, TEST_CLIENT } from "../../testing/sessions";
import { SoftwareAuthenticator } from "../../testing/software-authenticator";
import type { Database } from "../db/client";
import { listUsers } from "../users/admin";
import { resetSecondFactor } from "../users/second-factor";
import { addSecurityKey, MAX_SECURITY_KEYS, ownSecurityKeys, removeSecurityKey, securityKeyOptions } from "../users/security-keys";
import { insertUser } from "../users/store";
import { authorize } from "./guard";
import { CHALLENGE_LIFETIME_MS, issueChallenge, readChallenge, registrationOptions } from "./security-keys";
import { openSession, validateSession } from "./sessions";
import { signInWithPassword } from "./sign-in";

const ORIGIN = "https://console.registry.example";

describe("security key challenges", () => {
  it("are read back only for their purpose and person, unchanged and within five minutes", () => {
    const now = Date.UTC(2026, 10, 27, 12);
    const challenge = issueChallenge("sign-in", 42, now);
    expect(challenge).toMatch(/^[A-Za-z0-9_-]{60}$/);
    expect(readChallenge(challenge, "sign-in", 42, now + 1000)).toBe(now);
    expect(readChallenge(challenge, "sign-in", 43, now)).toBeNull();
    expect(readChallenge(challenge, "register", 42, now)).toBeNull();
    expect(readChallenge(challenge, "sign-in", 42, now + CHALLENGE_LIFETIME_MS + 1)).toBeNull();
    // Issued "in the future": within 30 s another instance's clock may be ahead; further, refused.
    expect(readChallenge(challenge, "sign-in", 42, now - 10_000)).toBe(now);
    expect(readChallenge(challenge, "sign-in", 42, now - 60_000)).toBeNull();
    const bytes = Buffer.from(challenge, "base64url");
    for (const at of [0, 3, 10, 20, 40]) {
      const changed = Buffer.from(bytes);
      changed[at] ^= 1;
      expect(readChallenge(changed.toString("base64url"), "sign-in", 42, now)).toBeNull();
    }
    expect(readChallenge(`${challenge}AA`, "sign-in", 42, now)).toBeNull();
    expect(readChallenge("", "sign-in", 42, now)).toBeNull();
    expect(issueChallenge("sign-in", 42, now)).not.toBe(challenge);
  });

  it("offer the keys' usual algorithms (EdDSA, ES256, RS256), whatever else the runtime's Web Crypto has", async () => {
    const options = await registrationOptions({ id: 7, username: "grace", displayName: null }, []);
    expect(options.pubKeyCredParams.map((p) => p.alg)).toEqual([-8, -7, -257]);
  });
});

const PASSWORD = "grace's long console password";
let addresses = 0;
const from = () => ({ clientAddress: `203.0.113.${++addresses}`, userAgent: "vitest" });

describe.each(testBackends())("security keys on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let userId = 0;
  const authenticator = new SoftwareAuthenticator();

  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
    userId = await insertUser(db.sql, { username: "grace", role: "operator", password: PASSWORD });
  });
  afterAll(() => drop());
  beforeEach(() => vi.stubEnv("NEXTAUTH_URL", ORIGIN));
  afterEach(() => vi.unstubAllEnvs());

  const asGrace = async <T>(work: () => Promise<T>) => {
    const sid = await openSession(db.sql, userId, TEST_CLIENT);
    return actAs({ claims: { sid, uid: userId }, ...TEST_CLIENT, db }, work);
  };
  const register = async (name: string, origin = ORIGIN) => {
    const options = await asGrace(() => securityKeyOptions());
    return asGrace(() =>
      addSecurityKey({ currentPassword: PASSWORD, name, response: JSON.stringify(authenticator.register(options, origin)) }),
    );
  };
  const signIn = (options: { code?: string; assertion?: string } = {}) => signInWithPassword(db.sql, "grace", PASSWORD, from(), options);
  /** The password step, then the key's answer to the challenge it gave. */
  const keyAnswer = async (credentialId?: string, origin = ORIGIN) => {
    const asked = await signIn();
    if (asked.ok || !("ask" in asked) || !asked.ask.keyChallenge) throw new Error(`no challenge: ${JSON.stringify(asked)}`);
    return JSON.stringify(authenticator.authenticate(asked.ask.keyChallenge, origin, credentialId));
  };

  it("registers a key from the browser's answer, verified, under its name, and refuses answers that do not verify", async () => {
    const options = await asGrace(() => securityKeyOptions());
    expect(options).toMatchObject({
      rp: { id: "console.registry.example", name: "Registry State Console" },
      user: { name: "grace" },
      attestation: "none",
      authenticatorSelection: { residentKey: "discouraged", requireResidentKey: false, userVerification: "discouraged" },
      excludeCredentials: [],
    });
    expect(await register("blue YubiKey")).toEqual({ message: { key: "securityKeys.added", values: { name: "blue YubiKey" } } });
    const keys = await asGrace(() => ownSecurityKeys());
    expect(keys).toEqual([{ id: expect.any(Number), name: "blue YubiKey", createdAt: expect.any(String), lastUsedAt: null }]);
    // The next registration excludes the keys the person has.
    expect((await asGrace(() => securityKeyOptions())).excludeCredentials).toHaveLength(1);

    // An answer made at another origin (a phishing site), to a forged challenge, or not an answer at all.
    await expect(register("elsewhere", "https://console.registry.example.evil")).rejects.toThrow(/could not be verified/);
    const forged = authenticator.register({ ...options, challenge: Buffer.alloc(45, 7).toString("base64url") }, ORIGIN);
    await expect(
      asGrace(() => addSecurityKey({ currentPassword: PASSWORD, name: "forged", response: JSON.stringify(forged) })),
    ).rejects.toThrow(/could not be verified/);
    await expect(asGrace(() => addSecurityKey({ currentPassword: PASSWORD, name: "junk", response: "{not json" }))).rejects.toThrow(
      /could not be verified/,
    );
    // Options made for another person (their challenge) do not register a key for Grace.
    const someoneElses = { ...options, challenge: issueChallenge("register", userId + 1) };
    const theirs = authenticator.register(someoneElses, ORIGIN);
    await expect(
      asGrace(() => addSecurityKey({ currentPassword: PASSWORD, name: "theirs", response: JSON.stringify(theirs) })),
    ).rejects.toThrow(/could not be verified/);
    await expect(
      asGrace(() => addSecurityKey({ currentPassword: PASSWORD, name: "  ", response: JSON.stringify(forged) })),
    ).rejects.toThrow(/Give the key a name/);
    // The same answer again: that key is there already.
    const again = authenticator.register(await asGrace(() => securityKeyOptions()), ORIGIN);
    await asGrace(() => addSecurityKey({ currentPassword: PASSWORD, name: "second", response: JSON.stringify(again) }));
    await expect(
      asGrace(() => addSecurityKey({ currentPassword: PASSWORD, name: "second again", response: JSON.stringify(again) })),
    ).rejects.toThrow(/registered already/);
    expect((await asGrace(() => ownSecurityKeys())).map((k) => k.name)).toEqual(["blue YubiKey", "second"]);
    expect(await db.prisma.auditEntry.count({ where: { action: "user.security_key.add", result: "ok" } })).toBe(2);
    expect(await db.prisma.auditEntry.count({ where: { action: "user.security_key.add", result: "refused" } })).toBe(6);
  });

  it("asks for the key after a right password, signs in with its answer once, and refuses another account's key or an old answer", async () => {
    const asked = await signIn();
    const ids = (await db.prisma.securityKey.findMany({ where: { userId }, orderBy: { id: "asc" } })).map((k) => k.credentialId);
    // The ask names the person's keys, for the browser to ask for one of them.
    expect(asked).toMatchObject({ ok: false, reason: "second_factor_required", ask: { state: "required", totp: false, keyIds: ids } });
    const answer = await keyAnswer();
    const signedIn = await signIn({ assertion: answer });
    expect(signedIn).toMatchObject({ ok: true, user: { username: "grace" } });
    // The same answer again (a replay): its challenge predates the key's last use.
    expect(await signIn({ assertion: answer })).toMatchObject({ ok: false, reason: "second_factor_wrong", ask: { state: "wrong" } });
    // An answer to a challenge of another person's sign-in.
    const other = JSON.stringify(authenticator.authenticate(issueChallenge("sign-in", userId + 1), ORIGIN));
    expect(await signIn({ assertion: other })).toMatchObject({ ok: false, reason: "second_factor_wrong" });
    // Signed at another origin, or junk.
    expect(await signIn({ assertion: await keyAnswer(undefined, "https://evil.example") })).toMatchObject({ ok: false });
    expect(await signIn({ assertion: "{}" })).toMatchObject({ ok: false, reason: "second_factor_wrong" });
    // A key of another account does not sign Grace in.
    const hopper = await insertUser(db.sql, { username: "hopper", role: "support", password: PASSWORD });
    const stranger = new SoftwareAuthenticator();
    const options = await actAs({ claims: { sid: await openSession(db.sql, hopper, TEST_CLIENT), uid: hopper }, ...TEST_CLIENT, db }, () =>
      securityKeyOptions(),
    );
    const hopperKey = stranger.register(options, ORIGIN);
    await actAs({ claims: { sid: await openSession(db.sql, hopper, TEST_CLIENT), uid: hopper }, ...TEST_CLIENT, db }, () =>
      addSecurityKey({ currentPassword: PASSWORD, name: "hopper's", response: JSON.stringify(hopperKey) }),
    );
    const graceChallenge = (await signIn()) as { ask: { keyChallenge: string } };
    const foreign = JSON.stringify(stranger.authenticate(graceChallenge.ask.keyChallenge, ORIGIN));
    expect(await signIn({ assertion: foreign })).toMatchObject({ ok: false, reason: "second_factor_wrong" });
    // A key whose counter goes back (a clone) is refused.
    const [first] = await db.prisma.securityKey.findMany({ where: { userId }, orderBy: { id: "asc" } });
    const asked2 = (await signIn()) as { ask: { keyChallenge: string } };
    const cloned = JSON.stringify(authenticator.authenticate(asked2.ask.keyChallenge, ORIGIN, first.credentialId, { counter: 0 }));
    expect(await signIn({ assertion: cloned })).toMatchObject({ ok: false, reason: "second_factor_wrong" });

    const rows = await db.prisma.auditEntry.findMany({ where: { actor: "grace", action: "auth.sign_in", result: "ok" } });
    expect(rows.map((r) => r.input)).toEqual([{ method: "password", secondFactor: "security_key" }]);
    expect((await asGrace(() => ownSecurityKeys()))[0].lastUsedAt).not.toBeNull();
    // A key counts as two-step sign-in: in the users list and for SECOND_FACTOR=admins.
    const admin = { ...(await signedInAs(db, "admin")), db };
    expect((await actAs(admin, () => listUsers())).find((u) => u.username === "grace")).toMatchObject({ secondFactor: true });
    if (signedIn.ok) expect(await validateSession(db.sql, signedIn.user.sessionId)).toMatchObject({ actor: { secondFactor: true } });
  });

  it("refuses a replayed answer of a key whose counter stays 0 (a synced passkey), and asks again after five minutes", async () => {
    const passkey = new SoftwareAuthenticator();
    const options = await asGrace(() => securityKeyOptions());
    await asGrace(() =>
      addSecurityKey({ currentPassword: PASSWORD, name: "phone passkey", response: JSON.stringify(passkey.register(options, ORIGIN)) }),
    );
    // An answer (before the key's first use) that took longer than five minutes: asked again (not a wrong guess), with a new challenge.
    const late = issueChallenge("sign-in", userId, Date.now() - CHALLENGE_LIFETIME_MS - 1000);
    const again = await signIn({ assertion: JSON.stringify(passkey.authenticate(late, ORIGIN, undefined, { counter: 0 })) });
    expect(again).toMatchObject({ ok: false, reason: "second_factor_required", ask: { state: "required" } });
    const challengeOf = async () => ((await signIn()) as { ask: { keyChallenge: string } }).ask.keyChallenge;
    const earlier = await challengeOf();
    const answer = JSON.stringify(passkey.authenticate(await challengeOf(), ORIGIN, undefined, { counter: 0 }));
    expect(await signIn({ assertion: answer })).toMatchObject({ ok: true });
    // The counter cannot tell a replay here; the challenge's time can.
    expect(await signIn({ assertion: answer })).toMatchObject({ ok: false, reason: "second_factor_wrong" });
    // Nor is a challenge issued before the last use taken, though it was never used.
    const unused = JSON.stringify(passkey.authenticate(earlier, ORIGIN, undefined, { counter: 0 }));
    expect(await signIn({ assertion: unused })).toMatchObject({ ok: false, reason: "second_factor_wrong" });
    const refusals = await db.prisma.auditEntry.findMany({
      where: { action: "auth.sign_in", result: "refused", errorCode: { startsWith: "security_key_" } },
      select: { errorCode: true },
    });
    expect(new Set(refusals.map((r) => r.errorCode))).toEqual(
      new Set(["security_key_replayed", "security_key_unknown_key", "security_key_invalid", "security_key_counter"]),
    );
    await db.prisma.securityKey.deleteMany({ where: { name: "phone passkey" } });
  });

  it("removes only the person's own keys, at most ten, and an administrator's reset removes them all", async () => {
    const keys = await asGrace(() => ownSecurityKeys());
    const hoppers = await db.prisma.securityKey.findFirstOrThrow({ where: { user: { username: "hopper" } } });
    await expect(asGrace(() => removeSecurityKey({ currentPassword: PASSWORD, keyId: hoppers.id }))).rejects.toThrow(
      /Unknown security key/,
    );
    await expect(asGrace(() => removeSecurityKey({ currentPassword: PASSWORD, keyId: "x" }))).rejects.toThrow(/Unknown security key/);
    expect(await asGrace(() => removeSecurityKey({ currentPassword: PASSWORD, keyId: keys[1].id }))).toEqual({
      message: { key: "securityKeys.removed", values: { name: "second" } },
    });
    for (let n = 1; n < MAX_SECURITY_KEYS; n++) await register(`key ${n}`);
    await expect(register("one too many")).rejects.toThrow(/10 keys already/);

    const signedIn = await signIn({ assertion: await keyAnswer() });
    if (!signedIn.ok) throw new Error("not signed in");
    const admin = { ...(await signedInAs(db, "admin")), db };
    await actAs(admin, () => resetSecondFactor({ userId }));
    expect(await db.prisma.securityKey.count({ where: { userId } })).toBe(0);
    expect(await validateSession(db.sql, signedIn.user.sessionId)).toHaveProperty("ended");
    expect(await signIn()).toMatchObject({ ok: true });
  });

  it("with SECOND_FACTOR=admins, a key is enough for an administrator", async () => {
    vi.stubEnv("SECOND_FACTOR", "admins");
    const admin = { ...(await signedInAs(db, "admin")), db };
    await expect(actAs(admin, () => authorize("users.manage", "users.list"))).rejects.toMatchObject({ enrolFirst: true });
    const adminId = admin.claims?.uid ?? 0;
    await db.prisma.securityKey.create({
      data: { userId: adminId, credentialId: "A".repeat(43), publicKey: new Uint8Array([1]), name: "admin's key" },
    });
    await expect(actAs(admin, () => authorize("users.manage", "users.list"))).resolves.toBeTruthy();
  });
});
