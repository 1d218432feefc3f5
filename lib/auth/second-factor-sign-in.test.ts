import { Secret, TOTP } from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { testBackends } from "../../testing/databases";
import { actAs, signedInAs, TEST_CLIENT } from "../../testing/sessions";
import type { Database } from "../db/client";
import { listUsers } from "../users/admin";
import { confirmSecondFactor, ownSecondFactor, resetSecondFactor, startSecondFactor } from "../users/second-factor";
import { insertUser } from "../users/store";
import { AccessError, authorize } from "./guard";
import { openSession, validateSession } from "./sessions";
import { signInWithPassword } from "./sign-in";

const PASSWORD = "ada's long console password";
const REQUIRED = { ok: false, reason: "second_factor_required", ask: { state: "required", totp: true, keyChallenge: null, keyIds: [] } };
const WRONG = { ok: false, reason: "second_factor_wrong", ask: { state: "wrong", totp: true, keyChallenge: null, keyIds: [] } };
let addresses = 0;
const from = () => ({ clientAddress: `198.51.100.${++addresses}`, userAgent: "vitest" });

describe.each(testBackends())("two-step sign-in on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let secret = "";
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
    await insertUser(db.sql, { username: "ada", role: "operator", password: PASSWORD });
  });
  afterAll(() => drop());
  afterEach(() => vi.unstubAllEnvs());

  const signIn = (code?: string) => signInWithPassword(db.sql, "ada", PASSWORD, from(), { code });
  const asAda = async <T>(work: () => Promise<T>) => {
    const user = await db.prisma.user.findUniqueOrThrow({ where: { username: "ada" }, select: { id: true } });
    const sid = await openSession(db.sql, user.id, TEST_CLIENT);
    return actAs({ claims: { sid, uid: user.id }, ...TEST_CLIENT, db }, work);
  };
  const codeAt = (ms: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: ms });

  it("enrols: a key for the app, confirmed by a code from it, and ten recovery codes shown once", async () => {
    expect(await asAda(() => ownSecondFactor())).toEqual({ state: "off" });
    await asAda(() => startSecondFactor());
    const pending = await asAda(() => ownSecondFactor());
    if (pending.state !== "pending") throw new Error("not pending");
    secret = pending.base32;
    expect(pending.qrSvg).toMatch(/^<svg/);
    await expect(asAda(() => confirmSecondFactor({ currentPassword: PASSWORD, code: "000000" }))).rejects.toThrow(
      /not the one your app shows now/,
    );
    const confirmed = await asAda(() => confirmSecondFactor({ currentPassword: PASSWORD, code: codeAt(Date.now()) }));
    recoveryCodes = confirmed.recoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    expect(await asAda(() => ownSecondFactor())).toMatchObject({ state: "on", recoveryLeft: 10 });
    await expect(asAda(() => startSecondFactor())).rejects.toThrow(/on already/);
  });

  it("asks for the code after a right password, refuses a wrong or reused one, and takes a recovery code once", async () => {
    expect(await signIn()).toEqual(REQUIRED);
    expect(await signIn("123456")).toEqual(WRONG);
    // A wrong password is refused before any code is asked for.
    expect(await signInWithPassword(db.sql, "ada", "not the password", from(), { code: codeAt(Date.now()) })).toEqual({
      ok: false,
      reason: "invalid",
    });
    const code = codeAt(Date.now() + 30_000);
    expect(await signIn(code)).toMatchObject({ ok: true, user: { username: "ada" } });
    expect(await signIn(code)).toEqual(WRONG);
    expect(await signIn(recoveryCodes[0])).toMatchObject({ ok: true });
    expect(await signIn(recoveryCodes[0])).toEqual(WRONG);
    const rows = await db.prisma.auditEntry.findMany({
      where: { actor: "ada", action: "auth.sign_in", result: "ok" },
      orderBy: { id: "desc" },
      take: 2,
    });
    expect(rows.map((r) => r.input)).toEqual([
      { method: "password", secondFactor: "recovery" },
      { method: "password", secondFactor: "totp" },
    ]);
  });

  it("lets an administrator reset it (a lost phone): the person's sessions end and a password alone signs in again", async () => {
    // The last code used was one step ahead: a recovery code signs in now.
    const signedIn = await signIn(recoveryCodes[1]);
    if (!signedIn.ok) throw new Error("not signed in");
    const admin = { ...(await signedInAs(db, "admin")), db };
    const ada = (await actAs(admin, () => listUsers())).find((u) => u.username === "ada");
    expect(ada).toMatchObject({ secondFactor: true });
    await actAs(admin, () => resetSecondFactor({ userId: ada?.id }));
    expect(await validateSession(db.sql, signedIn.user.sessionId)).toHaveProperty("ended");
    expect(await signIn()).toMatchObject({ ok: true });
    await expect(actAs(admin, () => resetSecondFactor({ userId: ada?.id }))).rejects.toThrow(/no two-step sign-in to reset/);
    expect(await db.prisma.auditEntry.count({ where: { action: "user.second_factor.reset", result: "ok" } })).toBe(1);
  });

  it("with SECOND_FACTOR=admins keeps an administrator without it to their own account until they set it up", async () => {
    vi.stubEnv("SECOND_FACTOR", "admins");
    const admin = { ...(await signedInAs(db, "admin")), db };
    const refused = await actAs(admin, () => authorize("users.manage", "users.list")).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AccessError);
    expect(refused).toMatchObject({ status: 403, enrolFirst: true });
    // Their own account stays open, so they can set it up.
    await expect(actAs(admin, () => ownSecondFactor())).resolves.toEqual({ state: "off" });
    // Others are not held.
    const operator = { ...(await signedInAs(db, "operator")), db };
    await expect(actAs(operator, () => authorize("registry.read", "objects.list"))).resolves.toBeTruthy();
  });
});
