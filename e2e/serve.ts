import type { ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { startNextServer } from "../scripts/next-server";
import { freePort } from "../testing/free-port";
import { E2E_ADMIN_PASSWORD } from "./helpers";

/**
 * The production build served on `port` with `env` (next start), as the end-to-end suites' web
 * servers run it: its log goes to the terminal and to `logFile`, and the signals Playwright sends
 * this process are passed on to the server.
 */
export function serveBuild(port: string, env: NodeJS.ProcessEnv, logFile: string, publicHost = "127.0.0.1"): ChildProcess {
  // `publicHost`: the host name people use (security keys need a domain name such as localhost, not an address).
  const server = startNextServer(["-p", port, "-H", "127.0.0.1"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...env, NEXTAUTH_URL: `http://${publicHost}:${port}` },
  });
  mkdirSync(path.dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile, { flags: "a" });
  server.stdout?.on("data", (chunk) => {
    process.stdout.write(chunk);
    log.write(chunk);
  });
  server.stderr?.on("data", (chunk) => {
    process.stderr.write(chunk);
    log.write(chunk);
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  return server;
}

/**
 * A console of its own beside the suite's (other settings, a fresh embedded database with a small
 * demo registry): started and answering its health check, and how to stop it and remove its data.
 */
export async function startSideConsole(
  name: string,
  env: Record<string, string>,
  options: { port?: number; publicHost?: string } = {},
): Promise<{ base: string; stop: () => Promise<void> }> {
  const dataDir = path.resolve(".data", `e2e-${name}`);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(`${dataDir}.lock`, { force: true });
  const port = String(options.port ?? (await freePort()));
  const publicHost = options.publicHost ?? "127.0.0.1";
  const server = serveBuild(
    port,
    { ...process.env, DATABASE_URL: "", PGLITE_DIR: dataDir, CONSOLE_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD, DEMO_DOMAINS: "40", ...env },
    path.resolve(".data", `e2e-${name}.log`),
    publicHost,
  );
  for (let i = 0; ; i++) {
    if ((await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.ok) break;
    if (i > 600 || server.exitCode !== null) throw new Error(`the console ${name} did not start: see .data/e2e-${name}.log`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    base: `http://${publicHost}:${port}`,
    stop: async () => {
      if (server.exitCode === null) await new Promise((resolve) => server.once("exit", resolve).kill("SIGTERM"));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
