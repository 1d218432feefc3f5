import type { SqlDriver } from "./db/driver";
import { verifyMigrations } from "./db/migrations";
import { type AdoptionMode, registryMode } from "./db/mode";

export interface Health {
  status: "ok" | "degraded" | "down";
  database: "reachable" | "unreachable";
  migrations: "current" | string;
  scheduler: { lastRunFinished: string | null; lagSeconds: number | null; kind: string | null };
  problems: string[];
  /** Which engine writes the state history (issue 40): an adopted registry's mode, or "created"; null when unknown. */
  mode: AdoptionMode | "created" | null;
}

/**
 * What anyone may ask without signing in (a load balancer's check): whether all is well, the
 * database answers, and the schema is the code's. Not where the database is, what its driver said
 * or how late the state engine is: those are Health's, for administrators.
 */
export interface PublicHealth {
  status: Health["status"];
  database: Health["database"];
  migrations: "current" | "pending" | "mismatch" | "unknown";
}

/** What a signed-in user who is not an administrator gets: the verdict and which engine runs. */
export function signedInHealth(health: Health): PublicHealth & { mode?: AdoptionMode | "created" } {
  return health.mode ? { ...publicHealth(health), mode: health.mode } : publicHealth(health);
}

export function publicHealth(health: Health): PublicHealth {
  const migrations = health.migrations;
  return {
    status: health.status,
    database: health.database,
    migrations: migrations === "current" || migrations === "mismatch" ? migrations : /pending$/.test(migrations) ? "pending" : "unknown",
  };
}

/**
 * What a load balancer or a monitor needs to know, without registry data: whether the database
 * answers, whether its schema is the code's, and how long ago the state engine last finished (the
 * lag beyond `intervalSeconds` is a problem: history is falling behind).
 */
export async function healthReport(db: SqlDriver, intervalSeconds: number): Promise<Health> {
  const problems: string[] = [];
  try {
    await db.query("SELECT 1");
  } catch (error) {
    return {
      status: "down",
      database: "unreachable",
      migrations: "unknown",
      scheduler: { lastRunFinished: null, lagSeconds: null, kind: null },
      problems: [`database: ${(error as Error).message}`],
      mode: null,
    };
  }
  let migrations = "current";
  try {
    const { pending } = await verifyMigrations(db);
    if (pending.length) {
      migrations = `${pending.length} pending`;
      problems.push(`migrations pending: ${pending.join(", ")}`);
    }
  } catch (error) {
    migrations = "mismatch";
    problems.push(`migrations: ${(error as Error).message}`);
  }
  const [engine] = await db
    .query<{ finished: Date | null; kind: string | null; lag: number | null }>(
      `SELECT last_run_finished_at AS finished, last_run_kind AS kind,
              extract(epoch FROM now() - last_run_finished_at)::float8 AS lag FROM console.state_engine`,
    )
    .catch(() => [undefined]);
  const lag = engine?.lag ?? null;
  if (intervalSeconds > 0 && (lag === null || lag > intervalSeconds * 3))
    problems.push(lag === null ? "the state engine has not run yet" : `the state engine last finished ${Math.round(lag)} s ago`);
  const mode = await registryMode(db).then(
    (m) => (m.origin === "created" ? ("created" as const) : m.mode),
    () => null,
  );
  return {
    mode,
    status: problems.length ? "degraded" : "ok",
    database: "reachable",
    migrations,
    scheduler: {
      lastRunFinished: engine?.finished?.toISOString() ?? null,
      lagSeconds: lag === null ? null : Math.round(lag),
      kind: engine?.kind ?? null,
    },
    problems,
  };
}
