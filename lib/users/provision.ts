import { audit } from "../audit/log";
import type { Role } from "../auth/roles";
import type { SqlDriver } from "../db/driver";
import { insertUser, updateUser } from "./store";

/** Who vouches for an account made or re-roled at sign-in: the registry's directory or its identity provider. */
export type AccountSource = { kind: "directory"; directoryDn: string } | { kind: "identity provider"; oidcSubject: string };

/**
 * The console user of a person the directory or the identity provider vouched for: made at their
 * first sign-in, given the role their groups give now (a new role ends the sessions opened under
 * the old one). Both audited, with the source as the actor.
 */
export async function provisionedUser(
  db: SqlDriver,
  person: { username: string; role: Role; displayName: string | null; source: AccountSource },
  existing: { id: number; role: string } | null,
): Promise<{ id: number; username: string; role: Role }> {
  const { username, role, displayName, source } = person;
  const link = source.kind === "directory" ? { directoryDn: source.directoryDn } : { oidcSubject: source.oidcSubject };
  const actor = { username: source.kind, clientAddress: null };
  return db.transaction(async (tx) => {
    if (!existing) {
      const id = await insertUser(tx, { username, displayName, role, password: null, ...link });
      // Made meanwhile by a parallel sign-in: that one's row is this person's too.
      const row = id ? { id } : await tx.prisma.user.findUniqueOrThrow({ where: { username }, select: { id: true } });
      await audit(tx, { action: "user.create", result: "ok", actor, input: { userId: row.id, username, role, ...link } });
      return { id: row.id, username, role };
    }
    const current = await tx.prisma.user.findUniqueOrThrow({
      where: { id: existing.id },
      select: { directoryDn: true, oidcSubject: true },
    });
    const relink = Object.entries(link).some(([key, value]) => current[key as keyof typeof current] !== value);
    if (existing.role !== role || relink) {
      await updateUser(tx, existing.id, { role });
      if (relink) await tx.prisma.user.update({ where: { id: existing.id }, data: link, select: { id: true } });
      await audit(tx, { action: "user.set_role", result: "ok", actor, input: { userId: existing.id, role, was: existing.role, ...link } });
    }
    return { id: existing.id, username, role };
  });
}
