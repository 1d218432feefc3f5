import type { ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import path from "node:path";
import { startNextServer } from "../scripts/next-server";

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
