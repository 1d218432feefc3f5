// What the benchmarks share: the PostgreSQL registry they run on (loaded with the demo generator
// when empty), timing, and the results file each writes its own section of.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { type ConsoleConfig, readConfig } from "../lib/config";
import { type Database, openDatabase } from "../lib/db/client";
import type { SqlExecutor } from "../lib/db/driver";
import { StartupError } from "../lib/db/errors";
import { migrate } from "../lib/db/migrations";
import { seedDemo } from "../prisma/demo/load";

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

/**
 * Opens DATABASE_URL (PostgreSQL only), migrates it and, when it holds no domains, loads
 * `--domains N` demo domains. `statesAt`: build state history up to that instant while loading.
 */
export async function openBenchRegistry(command: string, defaultDomains: number, statesAt: Date | null): Promise<BenchRegistry> {
  const { values } = parseArgs({ options: { domains: { type: "string" }, seed: { type: "string" } }, strict: true });
  const config = readConfig();
  if (!config.databaseUrl)
    throw new StartupError(`${command} runs on PostgreSQL: set DATABASE_URL to an empty database or one it loaded before`);
  const domains = Number((values.domains ?? String(defaultDomains)).replaceAll("_", ""));
  if (!Number.isSafeInteger(domains) || domains < 100)
    throw new StartupError(`--domains must be a whole number of at least 100, not “${values.domains}”`);
  const db = await openDatabase(config);
  await migrate(db.sql);
  const now = new Date();
  const loaded = await count(db.sql, "SELECT count(*) FROM domain");
  if (loaded === 0) {
    console.log(`Loading ${domains.toLocaleString("en")} domains into ${db.sql.location}…`);
    const [, ms] = await timed(() =>
      seedDemo(
        db.sql,
        { domains, seed: Number(values.seed ?? 1), now, timeZone: config.registryTimeZone },
        (p) => process.stdout.write(`\r  ${Math.floor((p.done / p.total) * 100)}% ${p.phase}\x1b[K`),
        statesAt,
      ),
    );
    console.log(`\n  loaded in ${(ms / 1000).toFixed(0)} s`);
  } else if (loaded !== domains) {
    await db.close();
    throw new StartupError(`the database already holds ${loaded} domains, not ${domains}; use an empty database`);
  }
  return { db, config, domains, now };
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
  const section = new RegExp(`${heading}[\\s\\S]*?(?=\\n## |$)`);
  const body = `${lines.join("\n")}\n`;
  writeFileSync(file, section.test(previous) ? previous.replace(section, body) : `${previous || "# Benchmark results\n\n"}\n${body}`);
  console.log(`\nWritten to ${file}.`);
}
