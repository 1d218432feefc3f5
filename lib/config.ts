import path from "node:path";
import * as z from "zod";
import { StartupError } from "./db/errors";

const postgresUrl = (message: string) =>
  z
    .string()
    .trim()
    .transform((v) => (v === "" ? undefined : v))
    .optional()
    .refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), { error: message });

const envSchema = z.object({
  DATABASE_URL: postgresUrl("DATABASE_URL must start with postgresql:// (leave it unset for the embedded database)"),
  DATABASE_OWNER_URL: postgresUrl(
    "DATABASE_OWNER_URL must start with postgresql:// (the owner role's connection string; leave it unset to migrate with DATABASE_URL)",
  ),
  PGLITE_DIR: z.string().trim().min(1).default(".data/pglite"),
  REGISTRY_TIMEZONE: z
    .string()
    .default("Europe/Prague")
    .refine(isTimeZone, { error: "REGISTRY_TIMEZONE is not an IANA time zone (e.g. Europe/Prague)" }),
  DEMO_DOMAINS: z.coerce.number({ error: "DEMO_DOMAINS must be a number" }).int().min(0).default(20_000),
  STATE_ENGINE_INTERVAL_SECONDS: z.coerce
    .number({ error: "STATE_ENGINE_INTERVAL_SECONDS must be a number of seconds" })
    .int({ error: "STATE_ENGINE_INTERVAL_SECONDS must be a whole number of seconds" })
    .min(0, { error: "STATE_ENGINE_INTERVAL_SECONDS must be 0 (off) or more" })
    .max(86_400, { error: "STATE_ENGINE_INTERVAL_SECONDS must be at most 86400 (a day)" })
    .default(60),
  SHADOW_INTERVAL_MINUTES: z.coerce
    .number({ error: "SHADOW_INTERVAL_MINUTES must be a number of minutes" })
    .int({ error: "SHADOW_INTERVAL_MINUTES must be a whole number of minutes" })
    .min(0, { error: "SHADOW_INTERVAL_MINUTES must be 0 (off) or more" })
    .max(10_080, { error: "SHADOW_INTERVAL_MINUTES must be at most 10080 (a week)" })
    .default(60),
  OVERVIEW_COUNTS_SECONDS: z.coerce
    .number({ error: "OVERVIEW_COUNTS_SECONDS must be a number of seconds" })
    .int({ error: "OVERVIEW_COUNTS_SECONDS must be a whole number of seconds" })
    .min(5, { error: "OVERVIEW_COUNTS_SECONDS must be at least 5" })
    .max(3_600, { error: "OVERVIEW_COUNTS_SECONDS must be at most 3600 (an hour)" })
    .default(60),
  FRED_PROCEDURE_EVERY_MINUTES: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z.coerce
      .number({ error: "FRED_PROCEDURE_EVERY_MINUTES must be a number of minutes (how often FRED's cron runs update_object_states(0))" })
      .int({ error: "FRED_PROCEDURE_EVERY_MINUTES must be a whole number of minutes" })
      .min(1, { error: "FRED_PROCEDURE_EVERY_MINUTES must be at least 1 (leave it unset when FRED's schedule is not known)" })
      .max(10_080, { error: "FRED_PROCEDURE_EVERY_MINUTES must be at most 10080 (a week)" })
      .optional(),
  ),
  LOG_FORMAT: z.enum(["json", "text"], { error: "LOG_FORMAT must be json or text" }).optional(),
  // Read by next.config.mjs (whether the server gzips its pages); checked here with the rest.
  COMPRESS: z.enum(["true", "false"], { error: "COMPRESS must be true or false" }).optional(),
  AUDIT_KEYS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === "") return undefined;
      const parsed = parseAuditKeys(value);
      if ("problem" in parsed) {
        ctx.addIssue({ code: "custom", message: parsed.problem });
        return z.NEVER;
      }
      return parsed.keys;
    }),
  AUDIT_ANCHOR_FILE: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined)),
  TRUSTED_PROXY_HOPS: z.coerce
    .number({ error: "TRUSTED_PROXY_HOPS must be a number of reverse proxies" })
    .int({ error: "TRUSTED_PROXY_HOPS must be a whole number of reverse proxies" })
    .min(0, { error: "TRUSTED_PROXY_HOPS must be 0 (no proxy: the connection's address is the client's) or more" })
    .max(10, { error: "TRUSTED_PROXY_HOPS must be at most 10" })
    .default(0),
  NEXTAUTH_URL: z
    .string()
    .trim()
    .transform((v) => (v === "" ? undefined : v))
    .optional()
    .refine((v) => v === undefined || /^https?:\/\/[^\s/?#]+/i.test(v), {
      error: "NEXTAUTH_URL must be the console's public http:// or https:// URL",
    }),
  SECURITY_KEY_RP_ID: z
    .string()
    .trim()
    .toLowerCase()
    .transform((v) => (v === "" ? undefined : v))
    .optional()
    .refine((v) => v === undefined || /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(v), {
      error: "SECURITY_KEY_RP_ID must be a domain name (the console's host name or a domain it is under), without a scheme or port",
    }),
  SMTP_URL: z
    .string()
    .trim()
    .transform((v) => (v === "" ? undefined : v))
    .optional()
    .refine((v) => v === undefined || /^smtps?:\/\/[^\s/?#]+/i.test(v), {
      error: "SMTP_URL must be an smtp:// or smtps:// URL (smtp://user:password@mail.registry.example:587)",
    }),
  SMTP_FROM: z
    .string()
    .trim()
    .transform((v) => (v === "" ? undefined : v))
    .optional()
    .refine((v) => v === undefined || /^([^<>\r\n]*<[^@\s<>]+@[^@\s<>]+>|[^@\s<>]+@[^@\s<>]+)$/.test(v), {
      error: "SMTP_FROM must be an e-mail address, optionally with a name: Registry Console <console@registry.example>",
    }),
  METRICS_TOKEN: z
    .string()
    .trim()
    .transform((v) => (v === "" ? undefined : v))
    .optional()
    .refine((v) => v === undefined || (v.length >= 24 && v.length <= 200 && /^[\x21-\x7e]+$/.test(v)), {
      error: "METRICS_TOKEN must be 24 to 200 printable characters without spaces (openssl rand -hex 32 makes one)",
    }),
  PORT: z.string().optional(),
  NODE_ENV: z.string().optional(),
});

/** One secret key of the audit log's MAC chain; rows record the id of the key that signed them. */
export interface AuditKey {
  id: number;
  secret: string;
}

const MIN_AUDIT_SECRET_LENGTH = 32;
const AUDIT_KEYS_EXAMPLE = "AUDIT_KEYS=2:<new secret>,1:<old secret>";

/**
 * AUDIT_KEYS (and the embedded console's key file): `ID:SECRET` entries separated by commas. The
 * first signs new audit rows; the others only verify rows they signed before a rotation. Error
 * messages never repeat a secret.
 */
export function parseAuditKeys(text: string, name = "AUDIT_KEYS"): { keys: AuditKey[] } | { problem: string } {
  const keys: AuditKey[] = [];
  const entries = text.split(",").map((entry) => entry.trim());
  for (const [index, entry] of entries.entries()) {
    const colon = entry.indexOf(":");
    if (colon < 0) {
      return {
        problem: `${name} entry ${index + 1} is not ID:SECRET (e.g. ${AUDIT_KEYS_EXAMPLE}; generate a secret with: openssl rand -base64 32)`,
      };
    }
    const idText = entry.slice(0, colon).trim();
    const secret = entry.slice(colon + 1).trim();
    const id = Number(idText);
    if (!/^[0-9]+$/.test(idText) || !Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) {
      return { problem: `${name} entry ${index + 1} has the key id "${idText}"; a key id is a whole number from 1 to 2147483647` };
    }
    if (secret.length < MIN_AUDIT_SECRET_LENGTH) {
      return {
        problem: `${name} key ${id} has a secret that is too short (${secret.length} characters; at least ${MIN_AUDIT_SECRET_LENGTH}). Generate one with: openssl rand -base64 32`,
      };
    }
    if (keys.some((key) => key.id === id)) return { problem: `${name} names key id ${id} twice; every key needs its own id` };
    keys.push({ id, secret });
  }
  return { keys };
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export interface ConsoleConfig {
  /** The running console's connection: on PostgreSQL a login role in the group console_app (docs/operating.md "Database roles"). */
  databaseUrl: string | undefined;
  /**
   * The owner role's connection, for migrations, adoption and the demo loader (db:migrate, db:adopt,
   * db:unadopt, db:seed, states:update --at, and the server's start-up migration). Unset: DATABASE_URL.
   */
  databaseOwnerUrl: string | undefined;
  pgliteDir: string;
  registryTimeZone: string;
  demoDomains: number;
  /** Seconds between the console process's state engine runs; 0 leaves them to `npm run states:update`. */
  stateEngineIntervalSeconds: number;
  /** In shadow mode, how often the scheduler compares the console's rules with FRED's states (0: never). */
  shadowIntervalMinutes: number;
  /**
   * The least time between two takings of the overview's figures in the background (ms; from
   * OVERVIEW_COUNTS_SECONDS, default 60). A large registry takes them less often: each part at most
   * 2 % of a database connection's time (lib/overview-counts.ts).
   */
  overviewCountsMs: number;
  /**
   * Beside FRED and in shadow: minutes between runs of FRED's regular procedure (FRED's cron), for
   * the object page's expected next run; null: not known (the page says only when it last ran).
   */
  fredProcedureEveryMinutes: number | null;
  /** How the server process logs: JSON lines with request ids (default in production) or plain text. */
  logFormat: "json" | "text";
  /** AUDIT_KEYS: the first signs new audit rows, the rest verify older ones; unset: see lib/audit/keys.ts. */
  auditKeys: AuditKey[] | undefined;
  /** AUDIT_ANCHOR_FILE, absolute: where the audit log's signed anchor is kept; unset: see lib/audit/anchor.ts. */
  auditAnchorFile: string | undefined;
  /** NODE_ENV is production (next start, npm start, npm run serve). */
  production: boolean;
  /** Reverse proxies in front of the console whose X-Forwarded-For entries are believed (lib/http/client-address.ts). */
  trustedProxyHops: number;
  /** NEXTAUTH_URL is https://: browsers are told to use HTTPS only (Strict-Transport-Security). */
  httpsOnly: boolean;
  /**
   * Where security keys (WebAuthn) are valid: the origin people use (NEXTAUTH_URL's; unset:
   * http://localhost on PORT or 3000) and the relying party id (SECURITY_KEY_RP_ID, or that origin's host).
   */
  securityKeys: { origin: string; rpId: string };
  /**
   * Where notices of changes to a person's sign-in are mailed from (lib/mail.ts): SMTP_URL and
   * SMTP_FROM, both set; null: no mail is sent (the notices are still shown at the next sign-in).
   */
  mail: { url: string; from: string } | null;
  /** METRICS_TOKEN: what a Prometheus scraper sends as `Authorization: Bearer …` for /api/metrics; unset: metrics are off. */
  metricsToken: string | undefined;
}

export class ConfigError extends StartupError {}

/** The variables the configuration reads, to know when a cached reading still holds. */
const CONFIG_VARIABLES = Object.keys(envSchema.shape);
let lastReading: { key: string; config: ConsoleConfig } | undefined;

export function readConfig(env: NodeJS.ProcessEnv = process.env): ConsoleConfig {
  // Pages read it on every request: parse (and check the time zone) once per distinct environment.
  const key = [process.cwd(), ...CONFIG_VARIABLES.map((name) => env[name] ?? "\u0000")].join("\u0001");
  if (lastReading?.key === key) return lastReading.config;
  const config = parseConfig(env);
  lastReading = { key, config };
  return config;
}

function parseConfig(env: NodeJS.ProcessEnv): ConsoleConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`configuration: ${issue.path.join(".")}: ${issue.message}`);
  }
  if (parsed.data.DATABASE_OWNER_URL && !parsed.data.DATABASE_URL) {
    throw new ConfigError(
      "configuration: DATABASE_OWNER_URL is set but DATABASE_URL is not: the embedded database has no roles to separate. " +
        "Set DATABASE_URL to the console's runtime role on the same PostgreSQL database, or unset DATABASE_OWNER_URL.",
    );
  }
  return {
    databaseUrl: parsed.data.DATABASE_URL,
    databaseOwnerUrl: parsed.data.DATABASE_OWNER_URL,
    pgliteDir: path.resolve(parsed.data.PGLITE_DIR),
    registryTimeZone: parsed.data.REGISTRY_TIMEZONE,
    demoDomains: parsed.data.DEMO_DOMAINS,
    stateEngineIntervalSeconds: parsed.data.STATE_ENGINE_INTERVAL_SECONDS,
    shadowIntervalMinutes: parsed.data.SHADOW_INTERVAL_MINUTES,
    overviewCountsMs: parsed.data.OVERVIEW_COUNTS_SECONDS * 1000,
    fredProcedureEveryMinutes: parsed.data.FRED_PROCEDURE_EVERY_MINUTES ?? null,
    logFormat: parsed.data.LOG_FORMAT ?? (parsed.data.NODE_ENV === "production" ? "json" : "text"),
    auditKeys: parsed.data.AUDIT_KEYS,
    auditAnchorFile: parsed.data.AUDIT_ANCHOR_FILE ? path.resolve(parsed.data.AUDIT_ANCHOR_FILE) : undefined,
    production: parsed.data.NODE_ENV === "production",
    trustedProxyHops: parsed.data.TRUSTED_PROXY_HOPS,
    httpsOnly: /^https:/i.test(parsed.data.NEXTAUTH_URL ?? ""),
    securityKeys: securityKeyScope(parsed.data.NEXTAUTH_URL, parsed.data.SECURITY_KEY_RP_ID, parsed.data.PORT),
    mail: mailSettings(parsed.data.SMTP_URL, parsed.data.SMTP_FROM),
    metricsToken: parsed.data.METRICS_TOKEN,
  };
}

function mailSettings(url: string | undefined, from: string | undefined): ConsoleConfig["mail"] {
  if (!url && !from) return null;
  if (!url || !from) throw new ConfigError("configuration: SMTP_URL and SMTP_FROM go together: set both to mail notices, or neither");
  return { url, from };
}

/** The origin and relying party id of security keys; the id must be the host or a domain it is under. */
function securityKeyScope(publicUrl: string | undefined, rpIdSetting: string | undefined, port: string | undefined) {
  const url = new URL(publicUrl ?? `http://localhost:${port || 3000}`);
  const host = url.hostname.toLowerCase();
  const rpId = rpIdSetting ?? host;
  if (host !== rpId && !host.endsWith(`.${rpId}`)) {
    throw new ConfigError(
      `configuration: SECURITY_KEY_RP_ID ${rpId} is not the console's host name ${host} nor a domain it is under (browsers refuse such keys)`,
    );
  }
  return { origin: url.origin, rpId };
}

/**
 * Where schema changes are made: the owner role's DATABASE_OWNER_URL when set, else DATABASE_URL
 * (one role for everything, or the embedded database).
 */
export function ownerTarget(config: Pick<ConsoleConfig, "databaseUrl" | "databaseOwnerUrl" | "pgliteDir">): {
  databaseUrl: string | undefined;
  pgliteDir: string;
  urlVariable: "DATABASE_URL" | "DATABASE_OWNER_URL";
} {
  return config.databaseOwnerUrl
    ? { databaseUrl: config.databaseOwnerUrl, pgliteDir: config.pgliteDir, urlVariable: "DATABASE_OWNER_URL" }
    : { databaseUrl: config.databaseUrl, pgliteDir: config.pgliteDir, urlVariable: "DATABASE_URL" };
}
