import * as z from "zod";
import { idSchema } from "../actions/ids";
import { MIN_PASSWORD_LENGTH } from "../auth/passwords";
import { ROLES } from "../auth/roles";

export const usernameSchema = z
  .string({ error: "Enter a user name." })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9._@-]{1,63}$/, {
    error: "User names have 2–64 characters: letters, digits and . _ @ - (starting with a letter or digit).",
  });

export const roleSchema = z.enum(ROLES, { error: `Choose a role: ${ROLES.join(", ")}.` });

export const passwordSchema = z
  .string({ error: "Enter a password." })
  .min(MIN_PASSWORD_LENGTH, { error: `Passwords have at least ${MIN_PASSWORD_LENGTH} characters.` })
  .max(200, { error: "Passwords have at most 200 characters." });

export const userIdSchema = idSchema("user");

export const createUserSchema = z.object({
  username: usernameSchema,
  displayName: z.string().trim().max(200, { error: "Names have at most 200 characters." }).optional().default(""),
  role: roleSchema,
  password: passwordSchema,
});

export const setRoleSchema = z.object({ userId: userIdSchema, role: roleSchema });
export const userRefSchema = z.object({ userId: userIdSchema });
export const setPasswordSchema = z.object({ userId: userIdSchema, password: passwordSchema });

export type CreateUserInput = z.input<typeof createUserSchema>;
