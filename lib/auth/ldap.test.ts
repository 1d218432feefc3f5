import { Secret, TOTP } from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { testBackends } from "../../testing/databases";
import { actAs, signedInAs } from "../../testing/sessions";
import { personDn, type Slapd, startSlapd, strangerCa } from "../../testing/slapd";
import type { Database } from "../db/client";
import { StartupError } from "../db/errors";
import { allowAccountLink, listUsers, setUserPassword } from "../users/admin";
import { confirmSecondFactor, ownSecondFactor, removeOwnSecondFactor, startSecondFactor } from "../users/second-factor";
import { insertUser } from "../users/store";
import { readLdapConfig } from "./ldap";
import { validateSession } from "./sessions";
import { signInWithPassword } from "./sign-in";

// Each sign-in from an address of its own: the limits on guessing (lib/auth/throttle.ts) are not under test here.
let addresses = 0;
const from = () => ({ clientAddress: `192.0.2.${++addresses}`, userAgent: "vitest" });
const LOCAL_PASSWORD = "a console-only password";
const ADMIN2_PASSWORD = "admin2's own console password";

describe("LDAP settings", () => {
  it("reads nothing without LDAP_URL, and refuses a half or contradictory setting with what to fix", () => {
    expect(readLdapConfig({})).toBeNull();
    const base = { LDAP_URL: "ldap://dir.example:389", LDAP_ADMIN_GROUP: "cn=a,dc=x" };
    expect(() => readLdapConfig(base)).toThrow(StartupError);
    expect(() => readLdapConfig(base)).toThrow(/either LDAP_USER_DN .* or LDAP_SEARCH_BASE/);
    expect(() => readLdapConfig({ ...base, LDAP_USER_DN: "uid=x,dc=x" })).toThrow(/LDAP_USER_DN must contain \{username\}/);
    expect(() => readLdapConfig({ LDAP_URL: "ldap://dir.example", LDAP_USER_DN: "uid={username},dc=x" })).toThrow(
      /at least one of LDAP_ADMIN_GROUP/,
    );
    expect(() => readLdapConfig({ ...base, LDAP_URL: "http://dir.example" })).toThrow(/ldap:\/\/host/);
    expect(() =>
      readLdapConfig({ ...base, LDAP_URL: "ldaps://dir.example", LDAP_USER_DN: "uid={username}", LDAP_STARTTLS: "true" }),
    ).toThrow(/LDAP_STARTTLS is for ldap:\/\//);
    expect(() => readLdapConfig({ ...base, LDAP_USER_DN: "uid={username}", LDAP_CA_FILE: "/nonexistent/ca.pem" })).toThrow(
      /LDAP_CA_FILE \/nonexistent\/ca.pem cannot be read/,
    );
    expect(readLdapConfig({ ...base, LDAP_USER_DN: "uid={username},dc=x", LDAP_SUPPORT_GROUP: "cn=s,dc=x" })).toMatchObject({
      groups: [
        { role: "admin", dn: "cn=a,dc=x" },
        { role: "support", dn: "cn=s,dc=x" },
      ],
      localPasswords: true,
      startTls: false,
    });
  });
});

describe.each(testBackends())("sign-in through a real OpenLDAP directory on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let slapd: Slapd;

  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
    await insertUser(db.sql, { username: "local", role: "support", password: LOCAL_PASSWORD });
    await insertUser(db.sql, { username: "admin2", role: "admin", password: ADMIN2_PASSWORD });
    slapd = await startSlapd([
      { uid: "ada", password: "ada's directory password", name: "Ada Lovelace", groups: ["operator"] },
      { uid: "bob", password: "bob's directory password", name: "Bob", groups: [] },
      { uid: "local", password: "local's directory password", name: "Local", groups: [] },
      // Someone else in the directory who has the user name of the console-only administrator admin2.
      { uid: "admin2", password: "the other admin2's directory password", name: "Not Admin2", groups: ["support"] },
    ]);
  });
  afterAll(async () => {
    await slapd?.remove();
    await drop?.();
  });
  const pointAt = (env: Record<string, string>) => {
    for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
  };
  afterEach(() => vi.unstubAllEnvs());

  const signIn = (username: string, password: string) => signInWithPassword(db.sql, username, password, from());
  const userRow = (username: string) =>
    db.prisma.user.findUnique({
      where: { username },
      select: { id: true, role: true, directoryDn: true, passwordHash: true, displayName: true },
    });
  const endReason = async (id: string) => (await db.prisma.session.findUnique({ where: { id } }))?.endReason;
  const lastAudit = async (username: string) =>
    (await db.prisma.auditEntry.findFirst({ where: { actor: username, action: "auth.sign_in" }, orderBy: { id: "desc" } })) ?? null;

  it("signs a group member in with the directory password, making the console user with the group's role", async () => {
    pointAt(slapd.env);
    const result = await signIn("ada", "ada's directory password");
    expect(result).toMatchObject({ ok: true, user: { username: "ada", role: "operator" } });
    expect(await userRow("ada")).toMatchObject({
      role: "operator",
      directoryDn: personDn("ada"),
      passwordHash: null,
      displayName: "Ada Lovelace",
    });
    expect(await lastAudit("ada")).toMatchObject({ result: "ok", input: { method: "ldap" } });
    // A wrong or empty password is refused; an empty one would be an anonymous bind.
    expect(await signIn("ada", "wrong")).toEqual({ ok: false, reason: "invalid" });
    expect(await signIn("ada", "")).toEqual({ ok: false, reason: "invalid" });
    expect(await lastAudit("ada")).toMatchObject({ result: "refused", errorCode: "unknown_user" });
  });

  it("shows a directory account as the directory's on the users page, and refuses to give it a console password", async () => {
    const admin = { ...(await signedInAs(db, "admin")), db };
    const users = await actAs(admin, () => listUsers());
    expect(users.find((u) => u.username === "ada")).toMatchObject({ source: "directory" });
    expect(users.find((u) => u.username === "local")).toMatchObject({ source: "console" });
    const ada = await userRow("ada");
    await expect(actAs(admin, () => setUserPassword({ userId: ada?.id, password: "a strong new console password 42" }))).rejects.toThrow(
      /signs in with the directory's password/,
    );
    expect((await userRow("ada"))?.passwordHash).toBeNull();
  });

  it("asks a directory account for its directory password before a change of its second factor", async () => {
    pointAt(slapd.env);
    const signedIn = await signIn("ada", "ada's directory password");
    if (!signedIn.ok) throw new Error("not signed in");
    const ada = { claims: { sid: signedIn.user.sessionId, uid: signedIn.user.userId }, ...from(), db };
    await actAs(ada, () => startSecondFactor());
    const pending = await actAs(ada, () => ownSecondFactor());
    if (pending.state !== "pending") throw new Error("not pending");
    const code = TOTP.generate({ secret: Secret.fromBase32(pending.base32) });
    await expect(actAs(ada, () => confirmSecondFactor({ code }))).rejects.toThrow("Enter your current password.");
    await expect(actAs(ada, () => confirmSecondFactor({ code, currentPassword: "not ada's password" }))).rejects.toThrow(
      "The current password is wrong",
    );
    expect(await actAs(ada, () => ownSecondFactor())).toMatchObject({ state: "pending" });
    await actAs(ada, () => confirmSecondFactor({ code, currentPassword: "ada's directory password" }));
    expect(await actAs(ada, () => ownSecondFactor())).toMatchObject({ state: "on" });
    await actAs(ada, () => removeOwnSecondFactor({ currentPassword: "ada's directory password" }));
    expect(await actAs(ada, () => ownSecondFactor())).toEqual({ state: "off" });
  });

  it("finds people by a search as a service account too", async () => {
    pointAt(slapd.searchEnv);
    expect(await signIn("ada", "ada's directory password")).toMatchObject({ ok: true, user: { role: "operator" } });
    expect(await signIn("ada", "wrong")).toEqual({ ok: false, reason: "invalid" });
    expect(await signIn("nobody", "whatever it is")).toEqual({ ok: false, reason: "invalid" });
  });

  it("takes the role from the groups at every sign-in: promoted, the old sessions end; removed from all, every session ends", async () => {
    pointAt(slapd.env);
    const first = await signIn("ada", "ada's directory password");
    if (!first.ok) throw new Error("not signed in");
    await slapd.setGroups("ada", ["operator", "admin"]);
    const promoted = await signIn("ada", "ada's directory password");
    expect(promoted).toMatchObject({ ok: true, user: { role: "admin" } });
    expect(await validateSession(db.sql, first.user.sessionId)).toHaveProperty("ended");
    expect(await endReason(first.user.sessionId)).toBe("revoked");
    if (!promoted.ok) throw new Error("not signed in");
    expect(await validateSession(db.sql, promoted.user.sessionId)).toMatchObject({ actor: { role: "admin" } });

    await slapd.setGroups("ada", []);
    expect(await signIn("ada", "ada's directory password")).toEqual({ ok: false, reason: "no_console_group" });
    expect(await validateSession(db.sql, promoted.user.sessionId)).toHaveProperty("ended");
    expect(await endReason(promoted.user.sessionId)).toBe("revoked");
    expect(await lastAudit("ada")).toMatchObject({ result: "refused", errorCode: "not_in_console_group" });
    // A person the directory knows but no group admits gets no console user at all.
    expect(await signIn("bob", "bob's directory password")).toEqual({ ok: false, reason: "no_console_group" });
    expect(await userRow("bob")).toBeNull();
    await slapd.setGroups("ada", ["operator"]);
  });

  it("keeps console-only accounts signing in with their console password, unless LDAP_LOCAL_PASSWORDS=off", async () => {
    pointAt(slapd.env);
    expect(await signIn("local", LOCAL_PASSWORD)).toMatchObject({ ok: true, user: { username: "local", role: "support" } });
    expect(await lastAudit("local")).toMatchObject({ result: "ok", input: { method: "password" } });
    vi.stubEnv("LDAP_LOCAL_PASSWORDS", "off");
    expect(await signIn("local", LOCAL_PASSWORD)).toEqual({ ok: false, reason: "invalid" });
  });

  it("never turns a console-only account into a directory account by a matching uid: uid=admin2 is refused, admin2 keeps its password", async () => {
    pointAt(slapd.env);
    const session = await signIn("admin2", ADMIN2_PASSWORD);
    expect(session).toMatchObject({ ok: true, user: { username: "admin2", role: "admin" } });
    const before = await userRow("admin2");
    expect(await signIn("admin2", "the other admin2's directory password")).toEqual({ ok: false, reason: "account_not_linked" });
    expect(await lastAudit("admin2")).toMatchObject({ result: "refused", errorCode: "account_not_linked", input: { method: "ldap" } });
    expect(await userRow("admin2")).toEqual(before);
    expect(before).toMatchObject({ role: "admin", directoryDn: null });
    if (!session.ok) throw new Error("not signed in");
    expect(await validateSession(db.sql, session.user.sessionId)).toHaveProperty("actor");
    expect(await signIn("admin2", ADMIN2_PASSWORD)).toMatchObject({ ok: true, user: { role: "admin" } });
    // With console passwords off, the directory's admin2 is refused the same way, and nothing changes.
    vi.stubEnv("LDAP_LOCAL_PASSWORDS", "off");
    expect(await signIn("admin2", "the other admin2's directory password")).toEqual({ ok: false, reason: "account_not_linked" });
    expect(await userRow("admin2")).toEqual(before);
  });

  it("does not end a console-only account's sessions for a directory entry of its name in no console group", async () => {
    pointAt(slapd.env);
    const session = await signIn("local", LOCAL_PASSWORD);
    if (!session.ok) throw new Error("not signed in");
    expect(await signIn("local", "local's directory password")).toEqual({ ok: false, reason: "invalid" });
    expect(await validateSession(db.sql, session.user.sessionId)).toHaveProperty("actor");
  });

  it("links a console account to its directory entry once an administrator allowed it, audited", async () => {
    pointAt(slapd.env);
    const admin = { ...(await signedInAs(db, "admin")), db };
    const admin2 = await userRow("admin2");
    if (!admin2) throw new Error("no admin2");
    await actAs(admin, () => allowAccountLink({ userId: admin2.id }));
    expect((await actAs(admin, () => listUsers())).find((u) => u.username === "admin2")?.linkAllowedUntil).toEqual(expect.any(String));
    const linked = await signIn("admin2", "the other admin2's directory password");
    expect(linked).toMatchObject({ ok: true, user: { username: "admin2", role: "support" } });
    expect(await userRow("admin2")).toMatchObject({ id: admin2.id, role: "support", directoryDn: personDn("admin2") });
    expect(await db.prisma.auditEntry.findFirst({ where: { action: "user.link" }, orderBy: { id: "desc" } })).toMatchObject({
      actor: "directory",
      input: { userId: admin2.id, directoryDn: personDn("admin2"), allowedByAdmin: true },
    });
    expect((await db.prisma.user.findUnique({ where: { id: admin2.id } }))?.linkAllowedUntil).toBeNull();
    // A directory account from now on: its old console password no longer signs in.
    expect(await signIn("admin2", ADMIN2_PASSWORD)).toEqual({ ok: false, reason: "invalid" });
  });

  it("says the directory is unreachable when it is down, and console-only accounts still sign in", async () => {
    pointAt(slapd.env);
    await slapd.stop();
    try {
      const log = vi.spyOn(console, "error").mockImplementation(() => {});
      expect(await signIn("ada", "ada's directory password")).toEqual({ ok: false, reason: "directory_unavailable" });
      expect(await lastAudit("ada")).toMatchObject({ result: "refused", errorCode: "directory_unavailable" });
      expect(await signIn("local", LOCAL_PASSWORD)).toMatchObject({ ok: true });
      expect(log).toHaveBeenCalledWith(expect.stringMatching(/LDAP directory ldap:\/\/127\.0\.0\.1:\d+ unavailable at sign-in of ada/));
      log.mockRestore();
    } finally {
      await slapd.start();
    }
    expect(await signIn("ada", "ada's directory password")).toMatchObject({ ok: true });
  });
});

describe("sign-in through a directory over TLS (ldaps:// and StartTLS)", () => {
  let db: Database;
  let drop: () => Promise<void>;
  let slapd: Slapd;
  const [pglite] = testBackends();

  beforeAll(async () => {
    ({ db, drop } = await pglite.createMigrated());
    slapd = await startSlapd([{ uid: "tina", password: "tina's directory password", name: "Tina", groups: ["support"] }], { tls: true });
  });
  afterAll(async () => {
    await slapd?.remove();
    await drop?.();
  });
  afterEach(() => vi.unstubAllEnvs());
  const signIn = (env: Record<string, string>) => {
    for (const [key, value] of Object.entries({ ...slapd.env, ...env })) vi.stubEnv(key, value);
    return signInWithPassword(db.sql, "tina", "tina's directory password", from());
  };

  it("signs in over ldaps:// and over StartTLS when the directory's certificate is signed by LDAP_CA_FILE", async () => {
    expect(await signIn({ LDAP_URL: slapd.info.ldapsUrl as string, LDAP_CA_FILE: slapd.caFile })).toMatchObject({
      ok: true,
      user: { role: "support" },
    });
    expect(await signIn({ LDAP_STARTTLS: "true", LDAP_CA_FILE: slapd.caFile })).toMatchObject({ ok: true });
  });

  it("refuses a directory whose certificate another CA signed: the password never travels", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const stranger = strangerCa();
    expect(await signIn({ LDAP_URL: slapd.info.ldapsUrl as string, LDAP_CA_FILE: stranger })).toEqual({
      ok: false,
      reason: "directory_unavailable",
    });
    expect(await signIn({ LDAP_STARTTLS: "true", LDAP_CA_FILE: stranger })).toEqual({ ok: false, reason: "directory_unavailable" });
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/unavailable at sign-in of tina: .*certificate/i));
    log.mockRestore();
  });
});
