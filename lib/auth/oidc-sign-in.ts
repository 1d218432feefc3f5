import { audit } from "../audit/log";
import type { ConsoleExecutor, SqlDriver } from "../db/driver";
import { linkAllowed, provisionedUser } from "../users/provision";
import { updateUser } from "../users/store";
import { readOidcRoles, roleFromClaims, usernameFromClaims } from "./oidc";
import { isRole, type Role } from "./roles";

/**
 * Who a single sign-on is (docs/sign-in.md "Single sign-on through OpenID Connect"). A provider's person is
 * their issuer and subject (`iss`, `sub` of the ID token, which next-auth and openid-client have
 * checked: signature, audience, issuer, state, PKCE and nonce): the console account linked to
 * them is found by those only, never by a user name. A person not linked yet whose user name is
 * free gets a console account (with OIDC_ROLE_CLAIM); one whose user name is an existing account's
 * is refused until an administrator allows linking that account (Users page, console.users.
 * link_allowed_until); their next sign-in then records the subject on it.
 */

export interface OidcAccount {
  id: number;
  username: string;
  role: Role;
}

/** Why a single sign-on was refused: next-auth's AccessDenied, or the name of an account not linked to this person. */
type OidcRefusal = "AccessDenied" | "AccountNotLinked";

export type OidcAdmission = { ok: true; account: OidcAccount } | { ok: false; refusal: OidcRefusal };

/** The person the ID token's claims name: issuer and subject. `configuredIssuer`: OIDC_ISSUER, when a token carries no `iss`. */
export function oidcIdentity(
  claims: Record<string, unknown>,
  configuredIssuer: string | undefined,
): { issuer: string; subject: string } | null {
  const subject = typeof claims.sub === "string" && claims.sub.length > 0 && claims.sub.length <= 255 ? claims.sub : null;
  const issuer = typeof claims.iss === "string" && claims.iss ? claims.iss : configuredIssuer?.replace(/\/$/, "");
  return subject && issuer ? { issuer, subject } : null;
}

/**
 * The console account linked to the provider's person `subject` of `issuer`. An account linked
 * before issuers were kept (oidc_issuer null) is theirs by subject: the console has one provider.
 */
export async function linkedOidcAccount(
  db: ConsoleExecutor,
  identity: { issuer: string; subject: string },
  options: { includeDisabled?: boolean } = {},
): Promise<(OidcAccount & { disabled: boolean }) | null> {
  const [row] = await db.query<{ id: number; username: string; role: string; disabled: boolean }>(
    `SELECT id, username, role, disabled_at IS NOT NULL AS disabled FROM console.users
      WHERE oidc_subject = $1 AND (oidc_issuer = $2 OR oidc_issuer IS NULL) AND ($3 OR disabled_at IS NULL)`,
    [identity.subject, identity.issuer, options.includeDisabled ?? false],
  );
  return row && isRole(row.role) ? { id: row.id, username: row.username, role: row.role, disabled: row.disabled } : null;
}

/**
 * Decides a single sign-on (next-auth's signIn callback): links, makes or re-roles the console
 * account, or refuses, audited either way. The session itself is opened by the jwt callback, for
 * the account linkedOidcAccount finds.
 */
export async function admitOidcPerson(
  db: SqlDriver,
  claims: Record<string, unknown>,
  request: { clientAddress: string | null },
  env: Record<string, string | undefined> = process.env,
): Promise<OidcAdmission> {
  const identity = oidcIdentity(claims, env.OIDC_ISSUER);
  const username = usernameFromClaims(claims);
  const refuse = async (errorCode: string, refusal: OidcRefusal = "AccessDenied", endSessionsOf?: number): Promise<OidcAdmission> => {
    await db.transaction(async (tx) => {
      // Out of every group that gives a role: their sessions end too.
      if (endSessionsOf) await updateUser(tx, endSessionsOf, {});
      await audit(tx, {
        action: "auth.sign_in",
        result: "refused",
        errorCode,
        actor: { username: username ?? `oidc:${identity?.subject ?? "?"}`, clientAddress: request.clientAddress },
        input: { method: "oidc", ...(identity ? { issuer: identity.issuer, subject: identity.subject } : {}) },
      });
    });
    return { ok: false, refusal };
  };
  if (!identity) return refuse("no_subject");

  const linked = await linkedOidcAccount(db, identity, { includeDisabled: true });
  if (linked?.disabled) return refuse("disabled");
  // Not linked yet: the account of the provider's user name, if there is one, is someone else's
  // unless an administrator allowed linking it.
  let named: { id: number; username: string; role: string } | null = null;
  if (!linked) {
    if (!username) return refuse("no_console_username");
    const row = await db.prisma.user.findUnique({
      where: { username },
      select: { id: true, username: true, role: true, disabledAt: true, linkAllowedUntil: true },
    });
    if (row && !linkAllowed(row.linkAllowedUntil)) return refuse("account_not_linked", "AccountNotLinked");
    if (row?.disabledAt) return refuse("disabled");
    named = row;
  }
  const existing = linked ?? named;
  const source = { kind: "identity provider" as const, oidcSubject: identity.subject, oidcIssuer: identity.issuer };
  const displayName = typeof claims.name === "string" ? claims.name.slice(0, 200) : null;

  const roles = readOidcRoles(env);
  let role: Role | null = null;
  if (roles) {
    role = roleFromClaims(roles, claims);
    // Out of every console group: a linked account's sessions end; an account only allowed to link is left as it is.
    if (!role) return refuse("not_in_console_group", "AccessDenied", linked?.id);
  } else if (!existing) {
    // Without OIDC_ROLE_CLAIM the console's own user list says who may sign in.
    return refuse("no_console_account");
  }
  const account = await provisionedUser(db, { username: existing?.username ?? (username as string), role, displayName, source }, existing);
  if (!account) return refuse("account_not_linked", "AccountNotLinked");
  return { ok: true, account };
}
