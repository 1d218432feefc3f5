// What the benchmarks share: the PostgreSQL registry they run on (loaded with the demo generator
// when empty), timing, and the results file each writes its own section of.
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { type AuditKeyRing, auditKeyRing, formatAuditKeys } from "../lib/audit/keys";
import { type ConsoleConfig, readConfig } from "../lib/config";
import { type Database, openDatabase } from "../lib/db/client";
import type { SqlExecutor } from "../lib/db/driver";
import { StartupError } from "../lib/db/errors";
import { migrate } from "../lib/db/migrations";
import { seedDemo } from "../prisma/demo/load";
import { startNextServer } from "./next-server";

export async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

export async function count(db: SqlExecutor, sql: string): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(`SELECT (${sql})::bigint::int AS n`);
  return n;
}

export interface BenchRegistry {
  db: Database;
  config: ConsoleConfig;
  domains: number;
  now: Date;
}

/** The bench's command-line options: `--domains N` (at least 100), `--seed S` and `extra` ones. */
export function benchOptions(
  defaultDomains: number,
  extra: string[] = [],
): { domains: number; options: Record<string, string | undefined> } {
  const { values } = parseArgs({
    options: Object.fromEntries(["domains", "seed", ...extra].map((name) => [name, { type: "string" as const }])),
    strict: true,
  });
  const domains = Number((values.domains ?? String(defaultDomains)).replaceAll("_", ""));
  if (!Number.isSafeInteger(domains) || domains < 100)
    throw new StartupError(`--domains must be a whole number of at least 100, not “${values.domains}”`);
  return { domains, options: values as Record<string, string | undefined> };
}

/**
 * Migrates `db` (adopting a FRED registry) and, when it holds no domains, loads `domains` demo
 * domains as of `now`; refuses a database that holds another number. `statesAt`: build state
 * history up to that instant while loading.
 */
export async function loadBenchRegistry(
  db: Database,
  config: ConsoleConfig,
  domains: number,
  seed: string | undefined,
  now: Date,
  statesAt: Date | null,
): Promise<void> {
  // Loaded with the console's engine: a FRED registry is adopted in charge (bench:fred measures the modes from there).
  await migrate(db.direct, undefined, { adoptAs: "charge" });
  const loaded = await count(db.sql, "SELECT count(*) FROM domain");
  if (loaded === 0) {
    console.log(`Loading ${domains.toLocaleString("en")} domains into ${db.sql.location}…`);
    const [, ms] = await timed(() =>
      seedDemo(
        db.direct,
        { domains, seed: Number(seed ?? 1), now, timeZone: config.registryTimeZone },
        (p) => process.stdout.write(`\r  ${Math.floor((p.done / p.total) * 100)}% ${p.phase}\x1b[K`),
        statesAt,
      ),
    );
    console.log(`\n  loaded in ${(ms / 1000).toFixed(0)} s`);
  } else if (loaded !== domains) {
    throw new StartupError(`the database ${db.sql.location} already holds ${loaded} domains, not ${domains}; use an empty database`);
  }
}

/**
 * Opens DATABASE_URL (PostgreSQL only), migrates it and, when it holds no domains, loads
 * `--domains N` demo domains. `statesAt`: build state history up to that instant while loading.
 */
export async function openBenchRegistry(
  command: string,
  defaultDomains: number,
  statesAt: Date | null,
  /** Further `--name value` options of this bench. */
  extra: string[] = [],
): Promise<BenchRegistry & { options: Record<string, string | undefined> }> {
  const { domains, options } = benchOptions(defaultDomains, extra);
  const config = readConfig();
  if (!config.databaseUrl)
    throw new StartupError(`${command} runs on PostgreSQL: set DATABASE_URL to an empty database or one it loaded before`);
  const db = await openDatabase(config);
  const now = new Date();
  try {
    await loadBenchRegistry(db, config, domains, options.seed, now, statesAt);
  } catch (error) {
    await db.close();
    throw error;
  }
  return { db, config, domains, now, options };
}

/**
 * Instants for the lists that say when: one inside the newest block that has ended (for "had
 * serverBlocked at T"; now when there is none), as ISO text.
 */
export async function endedBlockInstant(db: SqlExecutor): Promise<string> {
  const [blocked] = await db.query<{ at: Date }>(
    `SELECT os.valid_from + interval '1 second' AS at FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
      WHERE s.name = 'serverBlocked' AND os.valid_to IS NOT NULL ORDER BY os.valid_from DESC LIMIT 1`,
  );
  return (blocked?.at ?? new Date()).toISOString();
}

/** The state history rows of the benchmarks' rich domain (the object page's target is for 500). */
const RICH_ROWS = 500;
const DAY = 86_400_000;

/**
 * The domain with a rich state history that bench:detail and bench:load open: the first live domain,
 * given past one-day requests for two manual states (each one closed period of history) until it has
 * RICH_ROWS history rows. Which domain is first changes when the registry's own life deletes it, so
 * each run prepares the one that is first now rather than trusting an earlier run to have done it.
 */
export async function richDomain(db: Database): Promise<{ id: number; name: string; rows: number }> {
  const [{ id, name }] = await db.sql.query<{ id: number; name: string }>(
    "SELECT o.id, o.name FROM object_registry o JOIN domain d ON d.id = o.id WHERE o.erdate IS NULL ORDER BY o.id LIMIT 1",
  );
  const historyRows = async (objectId: number) =>
    (await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM object_state WHERE object_id = $1", [objectId]))[0].n;
  const have = await historyRows(id);
  const [{ requested }] = await db.sql.query<{ requested: number }>(
    "SELECT count(*)::int AS requested FROM object_state_request WHERE object_id = $1",
    [id],
  );
  if (have < RICH_ROWS && requested < RICH_ROWS) {
    const periods = Math.ceil((RICH_ROWS - have) / 2);
    // Spread over the domain's life so far: each period a third of its step.
    const [{ crdate }] = await db.sql.query<{ crdate: Date }>("SELECT crdate FROM object_registry WHERE id = $1", [id]);
    const start = crdate.getTime() + DAY;
    const step = (Date.now() - 10 * DAY - start) / periods;
    await db.sql.transaction(async (tx) => {
      for (let i = 0; i < periods; i++) {
        const from = new Date(start + i * step);
        const to = new Date(from.getTime() + step / 3);
        await tx.query(
          `INSERT INTO object_state_request (object_id, state_id, valid_from, valid_to, crdate)
           SELECT $1, s.id, $2, $3, $2 FROM enum_object_states s WHERE s.name IN ('serverBlocked', 'serverUpdateProhibited')`,
          [id, from, to],
        );
      }
    });
    // The engine keeps recorded history as it was and does not rewrite the past for requests
    // entered afterwards, so the fixture records their periods directly, as the engine would have.
    await db.sql.query(
      `INSERT INTO object_state (object_id, state_id, valid_from, valid_to)
       SELECT r.object_id, r.state_id, greatest(r.valid_from, o.crdate), r.valid_to
         FROM object_state_request r JOIN object_registry o ON o.id = r.object_id
        WHERE r.object_id = $1 AND r.valid_to > o.crdate AND r.valid_to < now()`,
      [id],
    );
  }
  return { id, name, rows: await historyRows(id) };
}

/** An instant `days` ahead of now (a minute ahead for 0), as ISO text: the forecast lists' windows. */
export const instantAhead = (days: number): string => new Date(Date.now() + 60_000 + days * DAY).toISOString();

export const PORT = 3210;
export const BASE = `http://127.0.0.1:${PORT}`;

/** The production server on the bench database, with a session secret of its own. */
export async function startServer(databaseUrl: string, logFile?: string): Promise<ChildProcess> {
  if (!existsSync(".next/BUILD_ID")) throw new StartupError("no production build: run `npm run build` first");
  const log = logFile ? openSync(logFile, "w") : "ignore";
  const server = startNextServer(["-p", String(PORT), "-H", "127.0.0.1"], {
    stdio: ["ignore", log, log],
    detached: true,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      NEXTAUTH_URL: BASE,
      NEXTAUTH_SECRET: randomBytes(32).toString("base64"),
      // The server runs in production mode, which needs AUDIT_KEYS on PostgreSQL: the bench's own
      // (AUDIT_KEYS, or outside production the development key file), so the bench database's audit
      // log stays verifiable from one run to the next.
      AUDIT_KEYS: process.env.AUDIT_KEYS || formatAuditKeys(auditKeyRing(readConfig()) as AuditKeyRing),
      LOG_FORMAT: "json",
    },
  });
  if (typeof log === "number") closeSync(log);
  // The server runs detached, in a process group of its own: stopping it stops the group, with anything it started.
  server.kill = (signal?: NodeJS.Signals | number) => {
    try {
      process.kill(-(server.pid as number), signal ?? "SIGTERM");
      return true;
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 120; i++) {
    if ((await fetch(`${BASE}/login`).catch(() => null))?.ok) return server;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  server.kill();
  throw new StartupError("the console did not start within a minute");
}

/** Signs in through next-auth's credentials endpoint, as the login form does; returns the cookies. */
export async function signInOverHttp(username: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await fetch(`${BASE}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signIn = await fetch(`${BASE}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", cookie: cookie(), Origin: BASE },
    body: new URLSearchParams({ csrfToken, username, password, json: "true" }),
  });
  keep(signIn);
  if (![...jar.keys()].some((k) => k.includes("session-token"))) throw new Error(`sign-in failed (${signIn.status})`);
  return cookie();
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Milliseconds as the reports print them. */
export const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));

/** Resident memory (bytes) of a process and all its descendants, from /proc (Linux). */
export function treeRss(rootPid: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ppid = Number(fields[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      rss.set(Number(entry), Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024);
    } catch {}
  }
  let total = 0;
  const pending = [rootPid];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    total += rss.get(pid) ?? 0;
    pending.push(...(children.get(pid) ?? []));
  }
  return total;
}

export function machineLine(pgVersion: string): string {
  return `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; PostgreSQL ${pgVersion}; Node ${process.version}.`;
}

/** Replaces (or appends) the section of bench/RESULTS.md whose heading starts with `heading`. */
export function writeResults(heading: string, lines: string[]): void {
  mkdirSync("bench", { recursive: true });
  const file = "bench/RESULTS.md";
  let previous = "";
  try {
    previous = readFileSync(file, "utf8");
  } catch {}
  // The section that begins with `heading` (text, not a pattern: it may hold the command) runs to
  // the next "## " heading or the end.
  const body = `${lines.join("\n")}\n`;
  const start = previous.indexOf(heading);
  if (start < 0) writeFileSync(file, `${previous || "# Benchmark results\n\n"}\n${body}`);
  else {
    const next = previous.indexOf("\n## ", start + heading.length);
    writeFileSync(file, previous.slice(0, start) + body + (next < 0 ? "" : previous.slice(next)));
  }
  console.log(`\nWritten to ${file}.`);
}
