// The console as the end-to-end suite sees it: the production build on a fresh embedded database,
// which the server migrates and fills with the default demo registry as `npm start` does.
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { E2E_ADMIN_PASSWORD, E2E_SERVER_LOG } from "./helpers";

const dataDir = path.resolve(".data", "e2e-pglite");
if (!existsSync(path.join(".next", "BUILD_ID"))) {
  console.error("No production build to test: run `npm run build` first (npm test does).");
  process.exit(1);
}
rmSync(dataDir, { recursive: true, force: true });
rmSync(`${dataDir}.lock`, { force: true });
const port = process.env.E2E_PORT ?? "3100";
const server = spawn(process.execPath, [path.join("node_modules", "next", "dist", "bin", "next"), "start", "-p", port, "-H", "127.0.0.1"], {
  stdio: ["ignore", "pipe", "pipe"],
  env: {
    ...process.env,
    DATABASE_URL: "",
    PGLITE_DIR: dataDir,
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    CONSOLE_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
  },
});
// The server's log goes to the terminal and to a file the log test reads.
mkdirSync(".data", { recursive: true });
const log = createWriteStream(E2E_SERVER_LOG);
server.stdout?.on("data", (chunk) => {
  process.stdout.write(chunk);
  log.write(chunk);
});
server.stderr?.on("data", (chunk) => {
  process.stderr.write(chunk);
  log.write(chunk);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
