import { audit } from "../audit/log";
import type { Role } from "../auth/roles";
import type { ConsoleExecutor, SqlDriver } from "../db/driver";
import { insertUser, updateUser } from "./store";

/** Who vouches for an account made or re-roled at sign-in: the registry's directory or its identity provider. */
export type AccountSource =
  | { kind: "directory"; directoryDn: string }
  | { kind: "identity provider"; oidcSubject: string; oidcIssuer: string };

/** How long an administrator's "allow linking" stays open for the next sign-in (docs/sign-in.md "Single sign-on through OpenID Connect"). */
export const LINK_ALLOWANCE_DAYS = 7;

/** Whether an administrator's allowance to link an existing account (console.users.link_allowed_until) is open at `now`. */
export function linkAllowed(until: Date | string | null | undefined, now = new Date()): boolean {
  return until != null && new Date(until).getTime() > now.getTime();
}

const linkSelect = { directoryDn: true, oidcSubject: true, oidcIssuer: true } as const;

const linkOf = (source: AccountSource) =>
  source.kind === "directory" ? { directoryDn: source.directoryDn } : { oidcSubject: source.oidcSubject, oidcIssuer: source.oidcIssuer };

/**
 * Records that `source` vouches for the existing account `userId`, when it does not yet (a new
 * directory DN, a subject, or the issuer of a subject linked before issuers were kept), and closes
 * the administrator's allowance that permitted it. Audited as `user.link`, the source as the actor.
 * Callers decide whether the link is permitted: an account is linked to an identity only by that
 * identity, or by an administrator's allowance (lib/auth/sign-in.ts, lib/auth/oidc-sign-in.ts).
 */
async function linkAccount(tx: ConsoleExecutor, userId: number, source: AccountSource): Promise<void> {
  const link = linkOf(source);
  const current = await tx.prisma.user.findUniqueOrThrow({
    where: { id: userId },
    select: { directoryDn: true, oidcSubject: true, oidcIssuer: true, linkAllowedUntil: true },
  });
  const changed = Object.entries(link).some(([key, value]) => current[key as keyof typeof link] !== value);
  if (!changed && !current.linkAllowedUntil) return;
  await tx.prisma.user.update({ where: { id: userId }, data: { ...link, linkAllowedUntil: null }, select: { id: true } });
  if (changed) {
    await audit(tx, {
      action: "user.link",
      result: "ok",
      actor: { username: source.kind, clientAddress: null },
      input: { userId, ...link, allowedByAdmin: current.linkAllowedUntil !== null },
    });
  }
}

/**
 * The console user of a person the directory or the identity provider vouched for: made at their
 * first sign-in, or the `existing` account the caller found linked to them (or an administrator
 * allowed to link), given the role their groups give now (a new role ends the sessions opened
 * under the old one); `role` null keeps the account's role (single sign-on without
 * OIDC_ROLE_CLAIM). Each change audited, with the source as the actor.
 */
export async function provisionedUser(
  db: SqlDriver,
  person: { username: string; role: Role | null; displayName: string | null; source: AccountSource },
  existing: { id: number; username: string; role: string } | null,
): Promise<{ id: number; username: string; role: Role } | null> {
  const { username, role, displayName, source } = person;
  const link = linkOf(source);
  const actor = { username: source.kind, clientAddress: null };
  return db.transaction(async (tx) => {
    if (!existing) {
      if (!role) return null;
      const id = await insertUser(tx, { username, displayName, role, password: null, ...link });
      if (!id) {
        // The name taken meanwhile: by a parallel sign-in of this same person (their account), or by anyone else (not theirs).
        const row = await tx.prisma.user.findUnique({ where: { username }, select: { id: true, role: true, ...linkSelect } });
        const same = row && Object.entries(link).every(([key, value]) => row[key as keyof typeof link] === value);
        return same && row ? { id: row.id, username, role: row.role as Role } : null;
      }
      await audit(tx, { action: "user.create", result: "ok", actor, input: { userId: id, username, role, ...link } });
      return { id, username, role };
    }
    await linkAccount(tx, existing.id, source);
    if (role && existing.role !== role) {
      await updateUser(tx, existing.id, { role });
      await audit(tx, { action: "user.set_role", result: "ok", actor, input: { userId: existing.id, role, was: existing.role, ...link } });
    }
    return { id: existing.id, username: existing.username, role: (role ?? existing.role) as Role };
  });
}
