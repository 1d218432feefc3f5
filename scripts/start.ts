// `npm start`: builds the console when the build is missing or older than the sources, then serves
// it. The server process itself migrates the database and, when the embedded one is empty, loads
// the demo registry (instrumentation.ts), so there is nothing else to run first.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { readConfig } from "../lib/config";
import { exitOnStartupError } from "../lib/db/errors";
import { NEXT_BIN, serveInForeground } from "./next-server";

const root = process.cwd();
const SOURCES = ["app", "components", "lib", "server", "instrumentation.ts", "next.config.mjs", "package.json", "prisma/schema.prisma"];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((newest, child) => Math.max(newest, newestMtime(path.join(entry, child))), stat.mtimeMs);
}

function buildIsCurrent(): boolean {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return false;
  const built = statSync(buildId).mtimeMs;
  return SOURCES.every((source) => newestMtime(path.join(root, source)) <= built);
}

try {
  readConfig();
} catch (error) {
  exitOnStartupError(error);
}

if (!buildIsCurrent()) {
  console.log("Building the console (first start, or the sources changed)…");
  const build = spawnSync(process.execPath, [NEXT_BIN, "build"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

serveInForeground(["-p", process.env.PORT ?? "3000", ...process.argv.slice(2)]);
