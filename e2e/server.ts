// The console as the end-to-end suite sees it: the production build on a fresh embedded database,
// which the server migrates and fills with the default demo registry as `npm start` does.
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { E2E_ADMIN_PASSWORD } from "./helpers";

const dataDir = path.resolve(".data", "e2e-pglite");
if (!existsSync(path.join(".next", "BUILD_ID"))) {
  console.error("No production build to test: run `npm run build` first (npm test does).");
  process.exit(1);
}
rmSync(dataDir, { recursive: true, force: true });
rmSync(`${dataDir}.lock`, { force: true });
const port = process.env.E2E_PORT ?? "3100";
const server = spawn(process.execPath, [path.join("node_modules", "next", "dist", "bin", "next"), "start", "-p", port, "-H", "127.0.0.1"], {
  stdio: "inherit",
  env: {
    ...process.env,
    DATABASE_URL: "",
    PGLITE_DIR: dataDir,
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    CONSOLE_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
  },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
