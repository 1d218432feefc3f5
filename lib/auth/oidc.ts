import * as z from "zod";
import { StartupError } from "../db/errors";
import { USERNAME_PATTERN } from "../users/schemas";
import type { Role } from "./roles";

/**
 * Roles from the identity provider (docs/sign-in.md "Single sign-on through OpenID Connect"): with
 * OIDC_ROLE_CLAIM set, a claim of the ID token or userinfo (a string or a list, such as `groups`)
 * says the role, through the values OIDC_ADMIN_VALUE, OIDC_OPERATOR_VALUE and OIDC_SUPPORT_VALUE;
 * the highest wins. Without it the console's own user list says the role.
 */
export interface OidcRoles {
  claim: string;
  values: { role: Role; value: string }[];
}

const schema = z
  .object({
    OIDC_ROLE_CLAIM: z.string().regex(/^[A-Za-z0-9_:.\-/]{1,100}$/, { error: "OIDC_ROLE_CLAIM must be a claim's name" }),
    OIDC_ADMIN_VALUE: z.string().min(1).optional(),
    OIDC_OPERATOR_VALUE: z.string().min(1).optional(),
    OIDC_SUPPORT_VALUE: z.string().min(1).optional(),
  })
  .refine((e) => e.OIDC_ADMIN_VALUE || e.OIDC_OPERATOR_VALUE || e.OIDC_SUPPORT_VALUE, {
    error:
      "with OIDC_ROLE_CLAIM set at least one of OIDC_ADMIN_VALUE, OIDC_OPERATOR_VALUE, OIDC_SUPPORT_VALUE (the claim values that give a role)",
  });

export function readOidcRoles(env: Record<string, string | undefined> = process.env): OidcRoles | null {
  if (!env.OIDC_ROLE_CLAIM) return null;
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw new StartupError(`OpenID Connect settings: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
  const e = parsed.data;
  const claimValue = { admin: e.OIDC_ADMIN_VALUE, operator: e.OIDC_OPERATOR_VALUE, support: e.OIDC_SUPPORT_VALUE };
  return {
    claim: e.OIDC_ROLE_CLAIM,
    values: (["admin", "operator", "support"] as Role[]).flatMap((role) => (claimValue[role] ? [{ role, value: claimValue[role] }] : [])),
  };
}

/** The role the claims give, the highest of those configured; null: none. */
export function roleFromClaims(config: OidcRoles, claims: Record<string, unknown>): Role | null {
  const raw = claims[config.claim];
  const held = new Set((Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === "string"));
  return config.values.find((v) => held.has(v.value))?.role ?? null;
}

/** The console user name a provider's claims name, or null when they name none a console user may have. */
export function usernameFromClaims(claims: Record<string, unknown>): string | null {
  const name = String(claims.preferred_username ?? claims.email ?? claims.sub ?? "").toLowerCase();
  return USERNAME_PATTERN.test(name) ? name : null;
}
