/** The console's roles and what each may do. Checked in the data-access layer on every call. */
export const ROLES = ["admin", "operator", "support"] as const;
export type Role = (typeof ROLES)[number];

const PERMISSIONS = {
  /** Objects, states, history, requests and the audit entries of objects. */
  "registry.read": ["admin", "operator", "support"],
  /** Create and cancel state requests, block and unblock. */
  "requests.write": ["admin", "operator"],
  /** Cases, their records and the pending changes waiting for approval. */
  "cases.read": ["admin", "operator", "support"],
  /** Open, review and end cases; propose changes and approve or reject others' (never one's own). */
  "cases.write": ["admin", "operator"],
  /** Which changes need a second person, and the kinds of case. */
  "cases.policy": ["admin"],
  /** The whole audit log, including sign-ins and user administration. */
  "audit.read": ["admin"],
  /** Add users, change roles, disable, enable, force sign-out, allow linking an account at its next single sign-on or directory sign-in. */
  "users.manage": ["admin"],
  /** The health check's details: where the database is, the driver's errors, the state engine's lag. */
  "system.health": ["admin"],
  /** One's own preferences (the console's language). */
  "self.preferences": ["admin", "operator", "support"],
  /** One's own password, changed with the current one. */
  "self.password": ["admin", "operator", "support"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export function roleAllows(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}
