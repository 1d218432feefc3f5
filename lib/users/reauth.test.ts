import { Secret, TOTP } from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { testBackends } from "../../testing/databases";
import { freePort } from "../../testing/free-port";
import { actAs, signedInAs } from "../../testing/sessions";
import { startSmtp } from "../../testing/smtp";
import { SoftwareAuthenticator } from "../../testing/software-authenticator";
import { sessionAnswer } from "../auth/options";
import type { RequestContext } from "../auth/request-context";
import { newRecoveryCodes, newSecret, sealSecret } from "../auth/second-factor";
import { endSession, openSession, validateSession } from "../auth/sessions";
import type { Database } from "../db/client";
import { mailSettled } from "../mail";
import { setUserPassword } from "./admin";
import { takeOwnNotices } from "./notices";
import { setOwnEmail } from "./own-password";
import { browserSummary, endOwnSession, ownSessions, sessionHandle } from "./own-sessions";
import { FRESH_SIGN_IN_MS } from "./reauth";
import { confirmSecondFactor, ownSecondFactor, removeOwnSecondFactor, renewRecoveryCodes, startSecondFactor } from "./second-factor";
import { addSecurityKey, removeSecurityKey, securityKeyOptions } from "./security-keys";
import { insertUser } from "./store";

const ORIGIN = "https://console.registry.example";
const PASSWORD = "eve's long console passphrase";
const WRONG = "not eve's passphrase at all";
let addresses = 0;

describe("a browser's name from its User-Agent", () => {
  it("names the browser, its major version and the system", () => {
    const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
    const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const edge = `${chrome} Edg/131.0.2903.70`;
    const safari =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
    expect(browserSummary(firefox)).toBe("Firefox 128 (Linux)");
    expect(browserSummary(chrome)).toBe("Chrome 131 (Windows)");
    expect(browserSummary(edge)).toBe("Edge 131 (Windows)");
    expect(browserSummary(safari)).toBe("Safari 17 (iOS)");
    expect(browserSummary("vitest")).toBe("vitest");
    expect(browserSummary(null)).toBe("?");
  });
});

describe.each(testBackends())("changing how one signs in, on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;

  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await smtp?.close();
    await drop?.();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  /** A new user with a password, and a browser of theirs at an address of its own. */
  async function person(username: string, options: { password?: string | null } = {}) {
    const userId = await insertUser(db.sql, {
      username,
      role: "operator",
      password: options.password === undefined ? PASSWORD : options.password,
    });
    const clientAddress = `203.0.113.${++addresses}`;
    const browser = async (): Promise<RequestContext> => ({
      claims: { sid: await openSession(db.sql, userId, { clientAddress, userAgent: "vitest" }), uid: userId },
      clientAddress,
      userAgent: "vitest",
      db,
    });
    const session = await browser();
    return { userId, clientAddress, session, browser, as: <T>(work: () => Promise<T>) => actAs(session, work) };
  }

  const totpOn = async (userId: number) => {
    const secret = newSecret();
    await db.prisma.secondFactor.create({
      data: { userId, secret: sealSecret(secret), confirmedAt: new Date(), recoveryHashes: newRecoveryCodes().hashes },
    });
    return secret;
  };
  const aKey = async (userId: number) =>
    (
      await db.prisma.securityKey.create({
        data: { userId, credentialId: `K${"x".repeat(20)}${userId}`, publicKey: new Uint8Array([1]), name: "blue key" },
      })
    ).id;
  const snapshot = async (userId: number) => ({
    factor: await db.prisma.secondFactor.findUnique({ where: { userId } }),
    keys: await db.prisma.securityKey.findMany({ where: { userId }, orderBy: { id: "asc" } }),
    email: (await db.prisma.user.findUniqueOrThrow({ where: { id: userId } })).email,
    notices: await db.prisma.accountNotice.count({ where: { userId } }),
  });
  const failures = async (username: string) =>
    (await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM console.sign_in_failures WHERE username = $1", [username]))[0].n;

  it("changes no second factor and no e-mail address with a session alone or a wrong password; each refusal audited, wrong ones counted", async () => {
    vi.stubEnv("NEXTAUTH_URL", ORIGIN);
    const eve = await person("eve");
    await totpOn(eve.userId);
    const keyId = await aKey(eve.userId);
    const registration = JSON.stringify(new SoftwareAuthenticator().register(await eve.as(() => securityKeyOptions()), ORIGIN));
    // Finn is half-way through setting up an app: the code is right, the password is not given.
    const finn = await person("finn");
    await finn.as(() => startSecondFactor());
    const pending = await finn.as(() => ownSecondFactor());
    if (pending.state !== "pending") throw new Error("not pending");
    const code = TOTP.generate({ secret: Secret.fromBase32(pending.base32) });

    const changes: [string, typeof eve, (proof: { currentPassword?: string }) => Promise<unknown>][] = [
      ["enrol an app", finn, (proof) => confirmSecondFactor({ code, ...proof })],
      ["turn the app off", eve, (proof) => removeOwnSecondFactor(proof)],
      ["new recovery codes", eve, (proof) => renewRecoveryCodes(proof)],
      ["add a security key", eve, (proof) => addSecurityKey({ name: "thief's key", response: registration, ...proof })],
      ["remove a security key", eve, (proof) => removeSecurityKey({ keyId, ...proof })],
      ["set the e-mail address", eve, (proof) => setOwnEmail({ email: "thief@evil.example", ...proof })],
    ];
    const before = [await snapshot(eve.userId), await snapshot(finn.userId)];
    for (const [what, who, change] of changes) {
      await expect(
        who.as(() => change({})),
        what,
      ).rejects.toThrow("Enter your current password.");
      await expect(
        who.as(() => change({ currentPassword: "" })),
        what,
      ).rejects.toThrow("Enter your current password.");
      await expect(
        who.as(() => change({ currentPassword: WRONG })),
        what,
      ).rejects.toThrow("The current password is wrong; nothing was changed.");
    }
    expect([await snapshot(eve.userId), await snapshot(finn.userId)]).toEqual(before);
    // Wrong passwords are guesses, counted like a sign-in's; a missing one is not.
    expect(await failures("eve")).toBe(5);
    expect(await failures("finn")).toBe(1);
    const refusals = await db.prisma.auditEntry.findMany({ where: { actor: { in: ["eve", "finn"] }, result: "refused" } });
    expect(refusals.map((r) => `${r.action} ${r.errorCode}`).sort()).toEqual(
      [
        "user.second_factor.enrol",
        "user.second_factor.remove",
        "user.second_factor.recovery_codes",
        "user.security_key.add",
        "user.security_key.remove",
        "user.set_own_email",
      ]
        .flatMap((action) => [`${action} no_password_given`, `${action} no_password_given`, `${action} wrong_password`])
        .sort(),
    );
    expect(JSON.stringify(refusals.map((r) => r.input))).not.toContain(WRONG);
  });

  it("makes each change with the current password, audits it, and tells the person once, on the first page of their next session", async () => {
    vi.stubEnv("NEXTAUTH_URL", ORIGIN);
    const gina = await person("gina");
    await totpOn(gina.userId);
    const keyId = await aKey(gina.userId);
    const proof = { currentPassword: PASSWORD };
    const { recoveryCodes } = await gina.as(() => renewRecoveryCodes(proof));
    expect(recoveryCodes).toHaveLength(10);
    await gina.as(() => removeSecurityKey({ keyId, ...proof }));
    const options = await gina.as(() => securityKeyOptions());
    const response = JSON.stringify(new SoftwareAuthenticator().register(options, ORIGIN));
    await gina.as(() => addSecurityKey({ name: "new key", response, ...proof }));
    await gina.as(() => removeOwnSecondFactor(proof));
    expect(await gina.as(() => ownSecondFactor())).toEqual({ state: "off" });
    // Replacing the app: set it up again.
    await gina.as(() => startSecondFactor());
    const pending = await gina.as(() => ownSecondFactor());
    if (pending.state !== "pending") throw new Error("not pending");
    await gina.as(() => confirmSecondFactor({ code: TOTP.generate({ secret: Secret.fromBase32(pending.base32) }), ...proof }));
    expect(await gina.as(() => ownSecondFactor())).toMatchObject({ state: "on", recoveryLeft: 10 });
    expect(await failures("gina")).toBe(0);

    const done = await db.prisma.auditEntry.findMany({ where: { actor: "gina", result: "ok" }, orderBy: { id: "asc" } });
    expect(done.map((r) => r.action)).toEqual([
      "user.second_factor.recovery_codes",
      "user.security_key.remove",
      "user.security_key.add",
      "user.second_factor.remove",
      "user.second_factor.start",
      "user.second_factor.enrol",
    ]);
    // Not in the session that made the changes (it was opened before them)…
    expect(await gina.as(() => takeOwnNotices())).toEqual([]);
    // …but on the first page of the next one, once.
    const next = await gina.browser();
    const notices = await actAs(next, () => takeOwnNotices());
    expect(notices.map((n) => n.kind)).toEqual([
      "recovery_codes_renewed",
      "security_key_removed",
      "security_key_added",
      "second_factor_removed",
      "second_factor_enrolled",
    ]);
    expect(notices[0]).toMatchObject({ byUsername: "gina", clientAddress: gina.clientAddress });
    expect(await actAs(next, () => takeOwnNotices())).toEqual([]);
  });

  it("counts wrong passwords against the guessing limits: after enough, even the right one waits", async () => {
    const hal = await person("hal");
    await totpOn(hal.userId);
    for (let n = 0; n < 5; n++) await expect(hal.as(() => renewRecoveryCodes({ currentPassword: WRONG }))).rejects.toThrow(/wrong/);
    expect(await failures("hal")).toBe(5);
    // Five more from the same address just now (a bcrypt check can outlast the first wait of 1 s):
    // the next attempt waits far longer than this test runs.
    await db.sql.query(
      "INSERT INTO console.sign_in_failures (username, client_address, at) SELECT 'hal', $1, now() FROM generate_series(1, 5)",
      [hal.clientAddress],
    );
    const factor = await db.prisma.secondFactor.findUniqueOrThrow({ where: { userId: hal.userId } });
    await expect(hal.as(() => renewRecoveryCodes({ currentPassword: PASSWORD }))).rejects.toThrow(/Too many wrong passwords/);
    expect(await db.prisma.secondFactor.findUniqueOrThrow({ where: { userId: hal.userId } })).toEqual(factor);
    expect(await db.prisma.auditEntry.count({ where: { actor: "hal", errorCode: "throttled" } })).toBe(1);
  });

  it("asks a single sign-on account (no password) for a fresh sign-in", async () => {
    const ivy = await person("ivy", { password: null });
    expect(await ivy.as(() => setOwnEmail({ email: "ivy@registry.example" }))).toEqual({
      message: { key: "users.emailSet", values: { email: "ivy@registry.example" } },
    });
    const sid = ivy.session.claims?.sid ?? "";
    await db.prisma.session.update({ where: { id: sid }, data: { createdAt: new Date(Date.now() - FRESH_SIGN_IN_MS - 1000) } });
    await expect(ivy.as(() => setOwnEmail({ email: "thief@evil.example" }))).rejects.toThrow(/Sign out, sign in again/);
    expect((await db.prisma.user.findUniqueOrThrow({ where: { id: ivy.userId } })).email).toBe("ivy@registry.example");
    await expect(ivy.as(() => setOwnEmail({ email: "not an address", currentPassword: "" }))).rejects.toThrow(/not an e-mail address/);
  });

  it("mails each change to the person's address (and a changed address to the old one too); a mail that fails changes nothing", async () => {
    vi.stubEnv("SMTP_URL", smtp.url);
    vi.stubEnv("SMTP_FROM", "Registry Console <console@registry.example>");
    const jan = await person("jan");
    await totpOn(jan.userId);
    const proof = { currentPassword: PASSWORD };
    await jan.as(() => setOwnEmail({ email: "jan@registry.example", ...proof }));
    await jan.as(() => setOwnEmail({ email: "jan.novak@registry.example", ...proof }));
    await jan.as(() => removeOwnSecondFactor(proof));
    const admin = await signedInAs(db, "admin", "admin-mail");
    await actAs(admin, () => setUserPassword({ userId: jan.userId, password: "an entirely new console passphrase" }));
    await mailSettled();
    const toJan = smtp.mails.filter((m) => m.to.some((to) => to.startsWith("jan")));
    // Sent in the background, so in any order.
    expect(toJan.map((m) => m.to.join()).sort()).toEqual([
      "jan.novak@registry.example",
      "jan.novak@registry.example",
      "jan.novak@registry.example",
      "jan@registry.example",
      "jan@registry.example",
    ]);
    const about = (text: string) => toJan.filter((m) => m.text.includes(text));
    for (const mail of toJan) {
      expect(mail.text).toContain("Subject: Registry State Console: how you sign in was changed");
      expect(mail.text).toContain("From: Registry Console <console@registry.example>");
      expect(mail.text).toContain("Hello jan,");
    }
    // The change of address went to both the old and the new one.
    expect(
      about("the e-mail address for these notices was changed.")
        .map((m) => m.to.join())
        .sort(),
    ).toEqual(["jan.novak@registry.example", "jan@registry.example", "jan@registry.example"]);
    const [off] = about("two-step sign-in with an authenticator app was turned off.");
    expect(off.to).toEqual(["jan.novak@registry.example"]);
    expect(off.text).toContain(`From address ${jan.clientAddress}.`);
    const [set] = about("an administrator set a new password for you.");
    expect(set.text).toContain("By admin-mail.");

    // The SMTP server gone: the change is made all the same, and the failure logged.
    vi.stubEnv("SMTP_URL", `smtp://127.0.0.1:${await freePort()}`);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    await totpOn(jan.userId);
    // (The administrator's new password ended Jan's sessions: a new one.)
    await expect(
      actAs(await jan.browser(), () => removeOwnSecondFactor({ currentPassword: "an entirely new console passphrase" })),
    ).resolves.toMatchObject({ message: { key: "secondFactor.removed" } });
    await mailSettled();
    expect(await db.prisma.secondFactor.count({ where: { userId: jan.userId } })).toBe(0);
    expect(logged.mock.calls.map((call) => String(call[0])).join("\n")).toMatch(/mail to jan\.novak@registry\.example .* was not sent/);
  });

  it("lists the person's open sessions and ends any of them, never another person's", async () => {
    const kim = await person("kim");
    const other = await kim.browser();
    const leo = await person("leo");
    const ended = await kim.browser();
    await endSession(db.sql, ended.claims?.sid ?? "", "signed_out");
    const sessions = await kim.as(() => ownSessions());
    expect(sessions).toHaveLength(2);
    expect(sessions.find((s) => s.current)).toMatchObject({
      handle: sessionHandle(kim.session.claims?.sid ?? ""),
      clientAddress: kim.clientAddress,
    });
    expect(JSON.stringify(sessions)).not.toContain(other.claims?.sid);

    // Leo's session, named by its handle, is not Kim's to end.
    const leoHandle = sessionHandle(leo.session.claims?.sid ?? "");
    await expect(kim.as(() => endOwnSession({ session: leoHandle }))).rejects.toThrow("That session is not one of yours");
    await expect(kim.as(() => endOwnSession({ session: leo.session.claims?.sid }))).rejects.toThrow("That session is not one of yours");
    await expect(kim.as(() => endOwnSession({ session: ["x"] }))).rejects.toThrow("That session is not one of yours");
    expect(await validateSession(db.sql, leo.session.claims?.sid ?? "")).toHaveProperty("actor");

    await kim.as(() => endOwnSession({ session: sessionHandle(other.claims?.sid ?? "") }));
    expect(await validateSession(db.sql, other.claims?.sid ?? "")).toEqual({ ended: "signed_out" });
    expect(await kim.as(() => ownSessions())).toHaveLength(1);
    expect(
      await db.prisma.auditEntry.findFirst({ where: { actor: "kim", action: "user.session.end" }, orderBy: { id: "desc" } }),
    ).toMatchObject({
      result: "ok",
    });
    expect(await db.prisma.auditEntry.count({ where: { actor: "kim", action: "user.session.end", result: "refused" } })).toBe(3);
  });

  it("answers /api/auth/session as signed out for a session that was ended or revoked", async () => {
    const mia = await person("mia");
    const ask = (sid: string) =>
      actAs(mia.session, () =>
        sessionAnswer({ session: { user: { name: "mia" }, expires: new Date().toISOString() }, token: { sid, name: "mia" } }),
      );
    const sid = mia.session.claims?.sid ?? "";
    expect(await ask(sid)).toMatchObject({ user: { name: "mia" } });
    // Revoked (the person's sessions were ended by a change of password elsewhere).
    await db.prisma.user.update({ where: { id: mia.userId }, data: { sessionVersion: { increment: 1 } } });
    expect(await ask(sid)).toEqual({});
    const fresh = await mia.browser();
    expect(await ask(fresh.claims?.sid ?? "")).toMatchObject({ user: { name: "mia" } });
    await endSession(db.sql, fresh.claims?.sid ?? "", "revoked");
    expect(await ask(fresh.claims?.sid ?? "")).toEqual({});
  });
});
