import "server-only";
import type * as z from "zod";
import { auditedChange } from "../actions/change";
import { InputError } from "../actions/result";
import { authorize } from "../auth/guard";
import { passwordProblem } from "../auth/password-policy";
import type { Actor } from "../auth/sessions";
import type { ConsoleExecutor } from "../db/driver";
import { type Message, msg } from "../i18n/message";
import { mailNotice, recordNotice } from "./notices";
import { LINK_ALLOWANCE_DAYS } from "./provision";
import { allowLinkSchema, createUserSchema, setPasswordSchema, setRoleSchema, userRefSchema } from "./schemas";
import { countActiveAdmins, findUser, insertUser, listUserRecords, type UserRecord, updateUser } from "./store";

/** User administration for admins: every call checks the caller's role and is audited. */

export async function listUsers(): Promise<UserRecord[]> {
  const { db } = await authorize("users.manage", "users.list");
  return listUserRecords(db.sql);
}

/**
 * Runs a user change: authorize, validate, then change and audit in one transaction. A refusal
 * is audited and changes nothing.
 */
function change<S extends z.ZodType>(
  action: string,
  schema: S,
  input: unknown,
  work: (
    tx: ConsoleExecutor,
    data: z.output<S>,
    actor: Actor,
  ) => Promise<{ message: Message; userId: number; audited?: Record<string, unknown> }>,
): Promise<{ message: Message }> {
  return auditedChange("users.manage", action, schema, input, async (tx, data, actor) => {
    const { message, userId, audited } = await work(tx, data, actor);
    return { result: { message }, audit: { input: { ...audited, userId } } };
  });
}

/** Refuses a password the rules do not accept (lib/auth/password-policy.ts), on the password field. */
async function acceptablePassword(password: string, userInputs: (string | null | undefined)[]): Promise<void> {
  const problem = await passwordProblem(password, userInputs);
  if (problem) throw new InputError(problem, { password: [problem] });
}

async function existingUser(tx: ConsoleExecutor, userId: number) {
  const user = await findUser(tx, userId);
  if (!user) throw new InputError(msg("users.noUser", { id: String(userId) }));
  return user;
}

/** Refuses a change that would leave the console without an active admin. */
async function keepAnAdmin(tx: ConsoleExecutor, user: { role: string; disabled: boolean }, losesAdmin: boolean): Promise<void> {
  if (losesAdmin && user.role === "admin" && !user.disabled && (await countActiveAdmins(tx)) <= 1) {
    throw new InputError(msg("users.lastAdmin"));
  }
}

export function createUser(input: unknown): Promise<{ message: Message }> {
  return change("user.create", createUserSchema, input, async (tx, data) => {
    await acceptablePassword(data.password, [data.username, data.displayName]);
    const id = await insertUser(tx, data);
    if (!id) throw new InputError(msg("users.taken", { username: data.username }), { username: [msg("field.usernameTaken")] });
    return {
      message: msg("users.created", { username: data.username, role: msg(`common.roles.${data.role}`) }),
      userId: id,
      audited: { username: data.username, role: data.role },
    };
  });
}

export function setUserRole(input: unknown): Promise<{ message: Message }> {
  return change("user.set_role", setRoleSchema, input, async (tx, data) => {
    const user = await existingUser(tx, data.userId);
    await keepAnAdmin(tx, user, data.role !== "admin");
    await updateUser(tx, user.id, { role: data.role });
    return {
      message: msg("users.roleSet", { username: user.username, role: msg(`common.roles.${data.role}`) }),
      userId: user.id,
      audited: { role: data.role },
    };
  });
}

export function disableUser(input: unknown): Promise<{ message: Message }> {
  return change("user.disable", userRefSchema, input, async (tx, data, actor) => {
    const user = await existingUser(tx, data.userId);
    if (user.id === actor.userId) throw new InputError(msg("users.notYourself"));
    await keepAnAdmin(tx, user, true);
    await updateUser(tx, user.id, { disabled: true });
    return { message: msg("users.disabled", { username: user.username }), userId: user.id };
  });
}

export function enableUser(input: unknown): Promise<{ message: Message }> {
  return change("user.enable", userRefSchema, input, async (tx, data) => {
    const user = await existingUser(tx, data.userId);
    await updateUser(tx, user.id, { disabled: false });
    return { message: msg("users.enabled", { username: user.username }), userId: user.id };
  });
}

export function forceSignOut(input: unknown): Promise<{ message: Message }> {
  return change("user.force_sign_out", userRefSchema, input, async (tx, data) => {
    const user = await existingUser(tx, data.userId);
    await updateUser(tx, user.id, {});
    return { message: msg("users.signedOut", { username: user.username }), userId: user.id };
  });
}

export async function setUserPassword(input: unknown): Promise<{ message: Message }> {
  const told: { userId?: number; by?: Actor } = {};
  const result = await change("user.set_password", setPasswordSchema, input, async (tx, data, actor) => {
    const user = await existingUser(tx, data.userId);
    // The directory checks their password; a console one would never be asked for.
    if (user.directory) throw new InputError(msg("users.directoryPassword", { username: user.username }));
    await acceptablePassword(data.password, [user.username, user.displayName]);
    await updateUser(tx, user.id, { password: data.password });
    await recordNotice(tx, user.id, "password_set", actor);
    Object.assign(told, { userId: user.id, by: actor });
    return { message: msg("users.passwordSet", { username: user.username }), userId: user.id };
  });
  if (told.userId && told.by) mailNotice(told.userId, "password_set", told.by);
  return result;
}

/**
 * Lets the next single sign-on or directory sign-in under this account's user name link to it
 * (docs/sign-in.md "Single sign-on through OpenID Connect", "Signing in through the registry's directory"), for
 * LINK_ALLOWANCE_DAYS days; or withdraws that. Without it, a provider's person or a directory entry
 * of the same name is refused: a name alone takes over no account.
 */
export function allowAccountLink(input: unknown): Promise<{ message: Message }> {
  return change("user.allow_link", allowLinkSchema, input, async (tx, data) => {
    const user = await existingUser(tx, data.userId);
    const until = data.allow === "on" ? new Date(Date.now() + LINK_ALLOWANCE_DAYS * 86_400_000) : null;
    await tx.prisma.user.update({ where: { id: user.id }, data: { linkAllowedUntil: until }, select: { id: true } });
    return {
      message: until
        ? msg("users.linkAllowed", { username: user.username, days: LINK_ALLOWANCE_DAYS })
        : msg("users.linkWithdrawn", { username: user.username }),
      userId: user.id,
      audited: { allow: data.allow, until: until?.toISOString() ?? null },
    };
  });
}
