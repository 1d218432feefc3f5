// The console as the end-to-end suite sees it: the production build on a fresh embedded database,
// which the server migrates and fills with the default demo registry as `npm start` does.
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { E2E_ADMIN_PASSWORD, E2E_SERVER_LOG } from "./helpers";
import { serveBuild } from "./serve";

const dataDir = path.resolve(".data", "e2e-pglite");
if (!existsSync(path.join(".next", "BUILD_ID"))) {
  console.error("No production build to test: run `npm run build` first (npm test does).");
  process.exit(1);
}
rmSync(dataDir, { recursive: true, force: true });
rmSync(`${dataDir}.lock`, { force: true });
const port = process.env.E2E_PORT ?? "3100";
// The server's log goes to the terminal and to a file the log test reads.
rmSync(E2E_SERVER_LOG, { force: true });
const server = serveBuild(
  port,
  { ...process.env, DATABASE_URL: "", PGLITE_DIR: dataDir, CONSOLE_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD },
  E2E_SERVER_LOG,
);
server.on("exit", (code) => process.exit(code ?? 0));
