import "server-only";
import type * as z from "zod";
import { auditedChange } from "../actions/change";
import { InputError } from "../actions/result";
import { authorize } from "../auth/guard";
import type { Actor } from "../auth/sessions";
import type { SqlExecutor } from "../db/driver";
import { createUserSchema, setPasswordSchema, setRoleSchema, userRefSchema } from "./schemas";
import { countActiveAdmins, findUser, insertUser, listUserRecords, type UserRecord, updateUser } from "./store";

/** User administration for admins: every call checks the caller's role and is audited. */

export async function listUsers(): Promise<UserRecord[]> {
  const { db } = await authorize("users.manage", "users.list");
  return listUserRecords(db.sql);
}

/**
 * Runs a user change: authorise, validate, then change and audit in one transaction. A refusal
 * is audited and changes nothing.
 */
function change<S extends z.ZodType>(
  action: string,
  schema: S,
  input: unknown,
  work: (
    tx: SqlExecutor,
    data: z.output<S>,
    actor: Actor,
  ) => Promise<{ message: string; userId: number; audited?: Record<string, unknown> }>,
): Promise<{ message: string }> {
  return auditedChange("users.manage", action, schema, input, async (tx, data, actor) => {
    const { message, userId, audited } = await work(tx, data, actor);
    return { result: { message }, audit: { input: { ...audited, userId } } };
  });
}

async function existingUser(tx: SqlExecutor, userId: number) {
  const user = await findUser(tx, userId);
  if (!user) throw new InputError(`There is no user with id ${userId}.`);
  return user;
}

/** Refuses a change that would leave the console without an active admin. */
async function keepAnAdmin(tx: SqlExecutor, user: { role: string; disabled: boolean }, losesAdmin: boolean): Promise<void> {
  if (losesAdmin && user.role === "admin" && !user.disabled && (await countActiveAdmins(tx)) <= 1) {
    throw new InputError("This is the last active admin; make another user admin first.");
  }
}

export function createUser(input: unknown): Promise<{ message: string }> {
  return change("user.create", createUserSchema, input, async (tx, data) => {
    const id = await insertUser(tx, data);
    if (!id) throw new InputError(`The user name ${data.username} is taken.`, { username: ["This user name is taken."] });
    return {
      message: `User ${data.username} (${data.role}) was added.`,
      userId: id,
      audited: { username: data.username, role: data.role },
    };
  });
}

export function setUserRole(input: unknown): Promise<{ message: string }> {
  return change("user.set_role", setRoleSchema, input, async (tx, data) => {
    const user = await existingUser(tx, data.userId);
    await keepAnAdmin(tx, user, data.role !== "admin");
    await updateUser(tx, user.id, { role: data.role });
    return { message: `${user.username} is now ${data.role}; their sessions were ended.`, userId: user.id, audited: { role: data.role } };
  });
}

export function disableUser(input: unknown): Promise<{ message: string }> {
  return change("user.disable", userRefSchema, input, async (tx, data, actor) => {
    const user = await existingUser(tx, data.userId);
    if (user.id === actor.userId) throw new InputError("You cannot disable your own account.");
    await keepAnAdmin(tx, user, true);
    await updateUser(tx, user.id, { disabled: true });
    return { message: `${user.username} was disabled and signed out.`, userId: user.id };
  });
}

export function enableUser(input: unknown): Promise<{ message: string }> {
  return change("user.enable", userRefSchema, input, async (tx, data) => {
    const user = await existingUser(tx, data.userId);
    await updateUser(tx, user.id, { disabled: false });
    return { message: `${user.username} may sign in again.`, userId: user.id };
  });
}

export function forceSignOut(input: unknown): Promise<{ message: string }> {
  return change("user.force_sign_out", userRefSchema, input, async (tx, data) => {
    const user = await existingUser(tx, data.userId);
    await updateUser(tx, user.id, {});
    return { message: `Every session of ${user.username} was ended.`, userId: user.id };
  });
}

export function setUserPassword(input: unknown): Promise<{ message: string }> {
  return change("user.set_password", setPasswordSchema, input, async (tx, data) => {
    const user = await existingUser(tx, data.userId);
    await updateUser(tx, user.id, { password: data.password });
    return { message: `The password of ${user.username} was changed; their sessions were ended.`, userId: user.id };
  });
}
