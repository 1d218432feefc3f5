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
  LOG_FORMAT: z.enum(["json", "text"], { error: "LOG_FORMAT must be json or text" }).optional(),
  NODE_ENV: z.string().optional(),
});

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export interface ConsoleConfig {
  /** The running console's connection: on PostgreSQL a login role in the group console_app (README "Database roles"). */
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
  /** How the server process logs: JSON lines with request ids (default in production) or plain text. */
  logFormat: "json" | "text";
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
    logFormat: parsed.data.LOG_FORMAT ?? (parsed.data.NODE_ENV === "production" ? "json" : "text"),
  };
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
