import * as z from "zod";
import { idSchema } from "../actions/ids";
import { zodError } from "../actions/message";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../auth/password-limits";
import { ROLES } from "../auth/roles";

/** A console user name (console.users' check): also what a directory or a provider may sign in as. */
export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9._@-]{1,63}$/;

export const usernameSchema = z
  .string({ error: zodError("users.enterUsername") })
  .trim()
  .toLowerCase()
  .regex(USERNAME_PATTERN, { error: zodError("users.usernameForm") });

const roleSchema = z.enum(ROLES, { error: zodError("users.chooseRole", { roles: ROLES.join(", ") }) });

export const passwordSchema = z
  .string({ error: zodError("users.enterPassword") })
  .min(MIN_PASSWORD_LENGTH, { error: zodError("users.passwordTooShort", { min: MIN_PASSWORD_LENGTH }) })
  .max(MAX_PASSWORD_LENGTH, { error: zodError("users.passwordTooLong", { max: MAX_PASSWORD_LENGTH }) });

const userIdSchema = idSchema("user");

export const createUserSchema = z.object({
  username: usernameSchema,
  displayName: z
    .string()
    .trim()
    .max(200, { error: zodError("users.nameTooLong", { max: 200 }) })
    .optional()
    .default(""),
  role: roleSchema,
  password: passwordSchema,
});

export const setRoleSchema = z.object({ userId: userIdSchema, role: roleSchema });
export const userRefSchema = z.object({ userId: userIdSchema });
/** An administrator allows (on) or withdraws (off) linking the account at the next single sign-on or directory sign-in. */
export const allowLinkSchema = z.object({
  userId: userIdSchema,
  allow: z.enum(["on", "off"], { error: zodError("users.allowLinkChoice") }).default("on"),
});
export const setPasswordSchema = z.object({ userId: userIdSchema, password: passwordSchema });
