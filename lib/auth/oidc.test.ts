import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { actAs, anonymous, signedInAs } from "../../testing/sessions";
import type { Database } from "../db/client";
import { StartupError } from "../db/errors";
import { allowAccountLink } from "../users/admin";
import { insertUser } from "../users/store";
import { readOidcRoles, roleFromClaims, usernameFromClaims } from "./oidc";
import { authOptions } from "./options";
import type { RequestContext } from "./request-context";
import { newSecret, sealSecret } from "./second-factor";
import { validateSession } from "./sessions";

describe("roles from an identity provider's claims", () => {
  const roles = readOidcRoles({ OIDC_ROLE_CLAIM: "groups", OIDC_ADMIN_VALUE: "console-admins", OIDC_SUPPORT_VALUE: "console-support" });

  it("reads the claim and the values that give roles, and refuses a claim without values", () => {
    expect(readOidcRoles({})).toBeNull();
    expect(roles).toEqual({
      claim: "groups",
      values: [
        { role: "admin", value: "console-admins" },
        { role: "support", value: "console-support" },
      ],
    });
    expect(() => readOidcRoles({ OIDC_ROLE_CLAIM: "groups" })).toThrow(StartupError);
    expect(() => readOidcRoles({ OIDC_ROLE_CLAIM: "groups" })).toThrow(/at least one of OIDC_ADMIN_VALUE/);
    expect(() => readOidcRoles({ OIDC_ROLE_CLAIM: "bad claim!", OIDC_ADMIN_VALUE: "x" })).toThrow(/must be a claim's name/);
  });

  it("gives the highest role a list or a single value holds, and none for other values or types", () => {
    if (!roles) throw new Error("no roles");
    expect(roleFromClaims(roles, { groups: ["staff", "console-support", "console-admins"] })).toBe("admin");
    expect(roleFromClaims(roles, { groups: "console-support" })).toBe("support");
    expect(roleFromClaims(roles, { groups: ["staff"] })).toBeNull();
    expect(roleFromClaims(roles, { groups: [{ name: "console-admins" }] })).toBeNull();
    expect(roleFromClaims(roles, {})).toBeNull();
  });

  it("asks the provider for PKCE, state and a nonce, which next-auth checks in the ID token", () => {
    const env = { OIDC_ISSUER: "https://sso.registry.test", OIDC_CLIENT_ID: "console", OIDC_CLIENT_SECRET: "a client secret" };
    const provider = authOptions(env as unknown as NodeJS.ProcessEnv).providers.find((p) => p.id === "oidc") as { checks?: string[] };
    expect(provider.checks).toEqual(["pkce", "state", "nonce"]);
  });

  it("takes the user name from preferred_username, e-mail or subject, only when a console user may have it", () => {
    expect(usernameFromClaims({ preferred_username: "Olga", sub: "1" })).toBe("olga");
    expect(usernameFromClaims({ email: "olga@registry.cz", sub: "1" })).toBe("olga@registry.cz");
    expect(usernameFromClaims({ preferred_username: "olga novak", sub: "1" })).toBeNull();
    expect(usernameFromClaims({ preferred_username: "x".repeat(80) })).toBeNull();
  });
});

/**
 * Single sign-on decided by the console's own next-auth callbacks (lib/auth/options.ts), as
 * next-auth calls them after it has checked the provider's answer: signIn, then jwt, which opens
 * the console session. Each provider's person below is someone else than the console user of the
 * same name, unless an administrator linked them.
 */
describe.each(testBackends())("who a single sign-on may be, on $name", (backend) => {
  const ISSUER = "https://sso.registry.test";
  const BASE_ENV = {
    OIDC_ISSUER: ISSUER,
    OIDC_CLIENT_ID: "console",
    OIDC_CLIENT_SECRET: "a client secret",
    NEXTAUTH_SECRET: "x".repeat(32),
  };
  const ROLE_ENV = { ...BASE_ENV, OIDC_ROLE_CLAIM: "groups", OIDC_ADMIN_VALUE: "console-admins", OIDC_SUPPORT_VALUE: "console-support" };
  let db: Database;
  let drop: () => Promise<void>;
  let admin: RequestContext;

  beforeAll(async () => {
    ({ db, drop } = await backend.createMigrated());
    admin = await signedInAs(db, "admin", "root-admin");
    await insertUser(db.sql, { username: "admin", role: "admin", password: "the console admin's own password" });
    const victim = await insertUser(db.sql, { username: "victim", role: "support", password: "the victim's own password" });
    await db.prisma.secondFactor.create({ data: { userId: victim, secret: sealSecret(newSecret()), confirmedAt: new Date() } });
    await insertUser(db.sql, { username: "operator", role: "operator", password: "the operator's own password" });
  });
  afterAll(() => drop());

  type Claims = Record<string, unknown> & { sub: string };
  /** A sign-in through the provider: what signIn answered, and the console user whose session jwt opened (if any). */
  async function singleSignOn(env: Record<string, string>, claims: Claims) {
    const options = authOptions(env as NodeJS.ProcessEnv);
    const callbacks = options.callbacks as Required<NonNullable<typeof options.callbacks>>;
    const profile = { iss: ISSUER, aud: "console", ...claims };
    const user = { id: claims.sub, name: usernameFromClaims(profile) ?? claims.sub, email: null };
    const account = { provider: "oidc", type: "oauth" as const, providerAccountId: claims.sub };
    const context = anonymous(db);
    const allowed = await actAs(context, async () => callbacks.signIn({ user, account, profile }));
    if (allowed !== true) return { allowed, username: null };
    const token = await actAs(context, async () => callbacks.jwt({ token: {}, user, account, profile, trigger: "signIn" }));
    const session = typeof token.sid === "string" ? await validateSession(db.sql, token.sid) : null;
    return { allowed, username: session && "actor" in session ? session.actor.username : null };
  }
  const account = (username: string) =>
    db.prisma.user.findUniqueOrThrow({
      where: { username },
      select: { id: true, role: true, oidcSubject: true, oidcIssuer: true, linkAllowedUntil: true, sessionVersion: true },
    });
  const lastSignIn = async () =>
    db.prisma.auditEntry.findFirst({
      where: { action: "auth.sign_in" },
      orderBy: { id: "desc" },
      select: { result: true, errorCode: true },
    });

  it("without OIDC_ROLE_CLAIM, refuses provider people named like console accounts not linked to them: admin, victim (with TOTP)", async () => {
    for (const name of ["admin", "victim"]) {
      const before = await account(name);
      const attempt = await singleSignOn(BASE_ENV, { sub: `attacker-${name}`, preferred_username: name });
      expect(attempt).toEqual({ allowed: "/login?error=AccountNotLinked", username: null });
      expect(await account(name)).toEqual(before);
      expect(await lastSignIn()).toEqual({ result: "refused", errorCode: "account_not_linked" });
    }
    // The e-mail claim is a user name like any other.
    expect(await singleSignOn(BASE_ENV, { sub: "attacker-mail", email: "victim" })).toMatchObject({ username: null });
  });

  it("with OIDC_ROLE_CLAIM, a provider person named like console user operator neither signs in as nor changes it", async () => {
    const before = await account("operator");
    const attempt = await singleSignOn(ROLE_ENV, { sub: "someone-else", preferred_username: "operator", groups: ["console-support"] });
    expect(attempt).toEqual({ allowed: "/login?error=AccountNotLinked", username: null });
    expect(await account("operator")).toEqual(before);
    // Out of every console group, the same name ends none of the console user's sessions either.
    await singleSignOn(ROLE_ENV, { sub: "someone-else", preferred_username: "operator", groups: [] });
    expect(await account("operator")).toEqual(before);
  });

  it("makes a new person's account at the first sign-in, and finds it later by issuer and subject alone", async () => {
    expect(await singleSignOn(ROLE_ENV, { sub: "olga-1", preferred_username: "olga", groups: ["console-support"] })).toEqual({
      allowed: true,
      username: "olga",
    });
    expect(await account("olga")).toMatchObject({ role: "support", oidcSubject: "olga-1", oidcIssuer: ISSUER });
    // Renamed at the provider: still her account; and her old name is no way in for another subject.
    expect(await singleSignOn(ROLE_ENV, { sub: "olga-1", preferred_username: "olga.novak", groups: ["console-admins"] })).toEqual({
      allowed: true,
      username: "olga",
    });
    expect(await account("olga")).toMatchObject({ role: "admin" });
    expect(await singleSignOn(ROLE_ENV, { sub: "olga-2", preferred_username: "olga", groups: ["console-admins"] })).toMatchObject({
      username: null,
    });
    // The same subject from another issuer is another person.
    expect(
      await singleSignOn(ROLE_ENV, {
        iss: "https://other-sso.test",
        sub: "olga-1",
        preferred_username: "olga",
        groups: ["console-admins"],
      }),
    ).toMatchObject({ allowed: "/login?error=AccountNotLinked", username: null });
  });

  it("links an existing account to a provider person once an administrator allowed it, audited; then by subject only", async () => {
    const victim = await account("victim");
    await expect(actAs(await signedInAs(db, "operator"), () => allowAccountLink({ userId: victim.id }))).rejects.toMatchObject({
      status: 403,
    });
    expect((await account("victim")).linkAllowedUntil).toBeNull();
    await actAs(admin, () => allowAccountLink({ userId: victim.id }));
    expect((await account("victim")).linkAllowedUntil).not.toBeNull();
    expect(await db.prisma.auditEntry.findFirst({ where: { action: "user.allow_link" }, orderBy: { id: "desc" } })).toMatchObject({
      result: "ok",
      actor: "root-admin",
    });

    expect(await singleSignOn(BASE_ENV, { sub: "victim-at-sso", preferred_username: "victim" })).toEqual({
      allowed: true,
      username: "victim",
    });
    expect(await account("victim")).toMatchObject({
      oidcSubject: "victim-at-sso",
      oidcIssuer: ISSUER,
      linkAllowedUntil: null,
      role: "support",
    });
    expect(await db.prisma.auditEntry.findFirst({ where: { action: "user.link" }, orderBy: { id: "desc" } })).toMatchObject({
      actor: "identity provider",
      input: { userId: victim.id, oidcSubject: "victim-at-sso", oidcIssuer: ISSUER, allowedByAdmin: true },
    });
    // The allowance is spent: another subject of the same name is refused again.
    expect(await singleSignOn(BASE_ENV, { sub: "attacker-victim", preferred_username: "victim" })).toMatchObject({ username: null });
    expect(await singleSignOn(BASE_ENV, { sub: "victim-at-sso", preferred_username: "victim" })).toMatchObject({ username: "victim" });
  });

  it("refuses after an allowance expired or was withdrawn", async () => {
    const operator = await account("operator");
    await actAs(admin, () => allowAccountLink({ userId: operator.id }));
    await actAs(admin, () => allowAccountLink({ userId: operator.id, allow: "off" }));
    expect(await singleSignOn(BASE_ENV, { sub: "operator-at-sso", preferred_username: "operator" })).toMatchObject({ username: null });
    await db.prisma.user.update({ where: { id: operator.id }, data: { linkAllowedUntil: new Date(Date.now() - 1000) } });
    expect(await singleSignOn(BASE_ENV, { sub: "operator-at-sso", preferred_username: "operator" })).toMatchObject({ username: null });
    expect((await account("operator")).oidcSubject).toBeNull();
  });

  it("keeps accounts linked before the issuer was recorded, and records it", async () => {
    await db.prisma.user.create({ data: { username: "legacy", role: "support", oidcSubject: "legacy-sub" } });
    expect(await singleSignOn(BASE_ENV, { sub: "legacy-sub", preferred_username: "legacy" })).toMatchObject({ username: "legacy" });
    expect(await account("legacy")).toMatchObject({ oidcSubject: "legacy-sub", oidcIssuer: ISSUER });
  });
});
