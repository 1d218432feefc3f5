import { readFileSync } from "node:fs";
import { Client, EqualityFilter, escapeFilter, InvalidCredentialsError, OrFilter } from "ldapts";
import * as z from "zod";
import { StartupError } from "../db/errors";
import { USERNAME_PATTERN } from "../users/schemas";
import type { Role } from "./roles";

/**
 * Sign-in through the registry's LDAP directory (docs/sign-in.md
 * "Signing in through the registry's directory"). The person binds with their own password, found by a DN template or by a search
 * with a service account; the console role comes from membership of the configured groups, the
 * highest one wins. The console never stores a directory password.
 */
export interface LdapConfig {
  url: string;
  startTls: boolean;
  /** PEM CA certificates that sign the directory's certificate (ldaps:// or StartTLS). */
  ca: string | undefined;
  /** Direct bind: the person's DN with {username}. */
  userDn: string | undefined;
  /** Search then bind: where and how to find the person, as whom. */
  search: { base: string; filter: string; bindDn: string | undefined; bindPassword: string | undefined } | undefined;
  groups: { role: Role; dn: string }[];
  timeoutMs: number;
  /** Whether accounts that are not the directory's keep signing in with their console password. */
  localPasswords: boolean;
}

const ROLES_BY_RANK: Role[] = ["admin", "operator", "support"];

const envSchema = z
  .object({
    LDAP_URL: z.string().regex(/^ldaps?:\/\/[^/\s]+\/?$/, { error: "LDAP_URL must be ldap://host[:port] or ldaps://host[:port]" }),
    LDAP_STARTTLS: z.enum(["true", "false"], { error: "LDAP_STARTTLS must be true or false" }).default("false"),
    LDAP_CA_FILE: z.string().min(1).optional(),
    LDAP_USER_DN: z.string().includes("{username}", { error: "LDAP_USER_DN must contain {username}" }).optional(),
    LDAP_SEARCH_BASE: z.string().min(1).optional(),
    LDAP_SEARCH_FILTER: z
      .string()
      .includes("{username}", { error: "LDAP_SEARCH_FILTER must contain {username}" })
      .default("(uid={username})"),
    LDAP_BIND_DN: z.string().min(1).optional(),
    LDAP_BIND_PASSWORD: z.string().optional(),
    LDAP_ADMIN_GROUP: z.string().min(1).optional(),
    LDAP_OPERATOR_GROUP: z.string().min(1).optional(),
    LDAP_SUPPORT_GROUP: z.string().min(1).optional(),
    LDAP_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
    LDAP_LOCAL_PASSWORDS: z.enum(["on", "off"], { error: "LDAP_LOCAL_PASSWORDS must be on or off" }).default("on"),
  })
  .refine((e) => Boolean(e.LDAP_USER_DN) !== Boolean(e.LDAP_SEARCH_BASE), {
    error: "set either LDAP_USER_DN (bind as uid=…,ou=people,…) or LDAP_SEARCH_BASE (search, then bind), not both or neither",
  })
  .refine((e) => e.LDAP_ADMIN_GROUP || e.LDAP_OPERATOR_GROUP || e.LDAP_SUPPORT_GROUP, {
    error: "set at least one of LDAP_ADMIN_GROUP, LDAP_OPERATOR_GROUP, LDAP_SUPPORT_GROUP (the groups that give a console role)",
  })
  .refine((e) => !(e.LDAP_STARTTLS === "true" && e.LDAP_URL.startsWith("ldaps:")), {
    error: "LDAP_STARTTLS is for ldap:// URLs; an ldaps:// URL is encrypted already",
  });

/** The directory settings from the environment; null when LDAP_URL is unset. A bad setting stops the start with what to fix. */
export function readLdapConfig(env: Record<string, string | undefined> = process.env): LdapConfig | null {
  if (!env.LDAP_URL) return null;
  const parsed = envSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([key, value]) => key.startsWith("LDAP_") && value !== "")),
  );
  if (!parsed.success) throw new StartupError(`LDAP settings: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
  const e = parsed.data;
  let ca: string | undefined;
  if (e.LDAP_CA_FILE) {
    try {
      ca = readFileSync(e.LDAP_CA_FILE, "utf8");
    } catch (error) {
      throw new StartupError(`LDAP_CA_FILE ${e.LDAP_CA_FILE} cannot be read: ${(error as Error).message}`);
    }
  }
  const groupOf = { admin: e.LDAP_ADMIN_GROUP, operator: e.LDAP_OPERATOR_GROUP, support: e.LDAP_SUPPORT_GROUP };
  return {
    url: e.LDAP_URL,
    startTls: e.LDAP_STARTTLS === "true",
    ca,
    userDn: e.LDAP_USER_DN,
    search: e.LDAP_SEARCH_BASE
      ? { base: e.LDAP_SEARCH_BASE, filter: e.LDAP_SEARCH_FILTER, bindDn: e.LDAP_BIND_DN, bindPassword: e.LDAP_BIND_PASSWORD }
      : undefined,
    groups: ROLES_BY_RANK.flatMap((role) => (groupOf[role] ? [{ role, dn: groupOf[role] }] : [])),
    timeoutMs: e.LDAP_TIMEOUT_MS,
    localPasswords: e.LDAP_LOCAL_PASSWORDS === "on",
  };
}

export type LdapOutcome =
  /** The password is right and the person is in a console group. */
  | { kind: "member"; dn: string; role: Role; displayName: string | null }
  /** The password is right, but the person is in none of the console's groups. */
  | { kind: "no_group"; dn: string }
  | { kind: "wrong_password"; dn: string }
  /** The directory has no such person. */
  | { kind: "unknown" }
  /** The directory could not be asked (down, unreachable, TLS refused, a timeout). */
  | { kind: "unavailable"; detail: string };

const first = (value: unknown): string | null =>
  typeof value === "string"
    ? value
    : Array.isArray(value) && typeof value[0] === "string"
      ? value[0]
      : Buffer.isBuffer(value)
        ? value.toString()
        : null;

/** Checks `username`'s password against the directory and reads the role their groups give. */
export async function ldapAuthenticate(config: LdapConfig, username: string, password: string): Promise<LdapOutcome> {
  // An empty password is an "unauthenticated bind", which LDAP servers accept: it proves nothing.
  // Console user names hold no character that is special in a DN or a filter.
  if (!USERNAME_PATTERN.test(username) || password.length === 0) return { kind: "unknown" };
  const client = new Client({
    url: config.url,
    timeout: config.timeoutMs,
    connectTimeout: config.timeoutMs,
    // For ldaps:// only: ldapts's StartTLS fails when the client holds TLS options of its own.
    tlsOptions: config.ca && config.url.startsWith("ldaps:") ? { ca: config.ca } : undefined,
  });
  let dn: string | null = null;
  try {
    // The certificate is checked against the URL's host (ldapts would check "localhost").
    if (config.startTls) await client.startTLS({ ...(config.ca ? { ca: config.ca } : {}), host: new URL(config.url).hostname });
    if (config.userDn) dn = config.userDn.replaceAll("{username}", username);
    else if (config.search) {
      if (config.search.bindDn) await client.bind(config.search.bindDn, config.search.bindPassword ?? "");
      const { searchEntries } = await client.search(config.search.base, {
        scope: "sub",
        // RFC 4515 escaping of the value, by ldapts, should a pattern ever allow more.
        filter: config.search.filter.replaceAll("{username}", escapeFilter`${username}`),
        attributes: ["dn"],
        sizeLimit: 2,
      });
      if (searchEntries.length !== 1) return { kind: "unknown" };
      dn = searchEntries[0].dn;
    }
    if (!dn) return { kind: "unknown" };
    try {
      await client.bind(dn, password);
    } catch (error) {
      // With a DN template a name the directory does not have is refused the same way.
      if (error instanceof InvalidCredentialsError) return { kind: "wrong_password", dn };
      throw error;
    }
    const [self] = (await client.search(dn, { scope: "base", attributes: ["cn", "displayName"] })).searchEntries;
    const displayName = first(self?.displayName) ?? first(self?.cn);
    for (const group of config.groups) {
      const { searchEntries } = await client.search(group.dn, {
        scope: "base",
        filter: new OrFilter({
          filters: [
            new EqualityFilter({ attribute: "member", value: dn }),
            new EqualityFilter({ attribute: "uniqueMember", value: dn }),
            new EqualityFilter({ attribute: "memberUid", value: username }),
          ],
        }),
        attributes: ["dn"],
      });
      if (searchEntries.length > 0) return { kind: "member", dn, role: group.role, displayName };
    }
    return { kind: "no_group", dn };
  } catch (error) {
    if (error instanceof InvalidCredentialsError) return { kind: "unavailable", detail: "the service account's bind was refused" };
    return { kind: "unavailable", detail: (error as Error).message || String(error) };
  } finally {
    await client.unbind().catch(() => {});
  }
}
