// `npm run bench -- [--domains 1500000] [--seed S] [--users 20] [--seconds 120]` against the
// PostgreSQL in DATABASE_URL: every benchmark of the project, one after another, on one registry
// (loaded with the demo generator when the database is empty), each writing its section of
// bench/RESULTS.md: FRED's own operations without and with the console (first: when DATABASE_URL
// names no database yet, it creates the FRED registry the others then run on, and its un-adopted
// copy <name>_without), the state engine, the object list, the object page, and the HTTP load run
// of simulated users against the production build (built first when there is none).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { readConfig } from "../lib/config";
import { openDatabase } from "../lib/db/client";
import { exitOnStartupError, StartupError } from "../lib/db/errors";
import { machineLine, writeResults } from "./bench-registry";
import { NEXT_BIN } from "./next-server";

try {
  const { values } = parseArgs({
    options: { domains: { type: "string" }, seed: { type: "string" }, users: { type: "string" }, seconds: { type: "string" } },
    strict: true,
  });
  if (!process.env.DATABASE_URL)
    throw new StartupError(
      "npm run bench runs on PostgreSQL: set DATABASE_URL to a database that does not exist yet or one it loaded before",
    );
  const registry = ["--domains", values.domains ?? "1500000", ...(values.seed ? ["--seed", values.seed] : [])];
  const load = [...(values.users ? ["--users", values.users] : []), ...(values.seconds ? ["--seconds", values.seconds] : [])];
  const tsx = path.join("node_modules", "tsx", "dist", "cli.mjs");
  const steps: [string, string[]][] = [
    ["FRED's operations", [tsx, "scripts/bench-fred.ts", ...registry]],
    ["state engine", [tsx, "scripts/bench-states.ts", ...registry]],
    ["object list", [tsx, "--conditions=react-server", "scripts/bench-list.ts", ...registry]],
    ["object page", [tsx, "--conditions=react-server", "scripts/bench-detail.ts", ...registry]],
    ["HTTP load", [tsx, "--conditions=react-server", "scripts/bench-load.ts", ...registry, ...load]],
  ];
  if (!existsSync(path.join(".next", "BUILD_ID"))) {
    steps.unshift(["production build", [NEXT_BIN, "build"]]);
  }

  const started = new Date();
  const durations: string[] = [];
  for (const [title, args] of steps) {
    console.log(`\n━━ ${title}`);
    const stepStarted = Date.now();
    const result = spawnSync(process.execPath, args, { stdio: "inherit" });
    if (result.status !== 0) throw new StartupError(`the ${title} benchmark failed (exit ${result.status ?? result.signal})`);
    durations.push(`${title} ${((Date.now() - stepStarted) / 1000).toFixed(0)} s`);
  }

  const db = await openDatabase(readConfig());
  try {
    const [sizes] = await db.sql.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM object_registry) AS objects, (SELECT count(*)::int FROM domain) AS domains,
              (SELECT count(*)::int FROM contact) AS contacts, (SELECT count(*)::int FROM nsset) AS nssets,
              (SELECT count(*)::int FROM keyset) AS keysets, (SELECT count(*)::int FROM object_state) AS "state history rows",
              (SELECT count(*)::int FROM object_state_request) AS requests`,
    );
    const [{ version, size }] = await db.sql.query<{ version: string; size: string }>(
      "SELECT current_setting('server_version') AS version, pg_size_pretty(pg_database_size(current_database())) AS size",
    );
    writeResults("# Benchmark results", [
      "# Benchmark results",
      "",
      `Last whole run: \`npm run bench -- ${[...registry, ...load].join(" ")}\`, ${started.toISOString().slice(0, 16)}Z (${durations.join(", ")}).`,
      "",
      machineLine(version),
      `Data: ${Object.entries(sizes)
        .map(([what, n]) => `${n.toLocaleString("en")} ${what}`)
        .join(", ")}; database ${size}.`,
      "",
      "Each section below names the command that wrote it, so one part can be measured again on its own.",
    ]);
  } finally {
    await db.close();
  }
} catch (error) {
  exitOnStartupError(error, "bench failed");
}
