// The console on an existing FRED registry, as a registry that runs FRED would start it: a fresh
// PostgreSQL database loaded with fred-db 2.52.0's structure.sql the way its README says, a demo
// registry loaded into it with `npm run db:seed`, adopted with `npm run db:migrate` (in charge), moved
// beside FRED with `npm run db:adopt -- --mode beside` when E2E_FRED_MODE=beside, then the
// production build served on it. The console's own scheduler is off: FRED's cron entry point,
// update_object_states(0), is what the spec calls to move the registry's states.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createFredDatabase } from "../../testing/fred";
import { E2E_ADMIN_PASSWORD } from "../helpers";
import { serveBuild } from "../serve";
import { FRED_E2E_DATABASE, FRED_E2E_DOMAINS, FRED_E2E_MODE, FRED_E2E_SERVER_LOG } from "./fred";

const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) {
  console.error("The FRED end-to-end suite needs TEST_DATABASE_URL (a PostgreSQL 15 server it may create databases on).");
  process.exit(1);
}
if (!existsSync(path.join(".next", "BUILD_ID"))) {
  console.error("No production build to test: run `npm run build` first (npm test does).");
  process.exit(1);
}

const fred = await createFredDatabase(adminUrl);
mkdirSync(".data", { recursive: true });
writeFileSync(FRED_E2E_DATABASE, JSON.stringify({ url: fred.url, fredUrl: fred.fredUrl }));
// Migrations and the demo load run as FRED's own role, the owner of the registry's tables; the
// console runs as its own login role in console_app (docs/operating.md "Database roles"). One audit key for
// every command and the server, as in production (which refuses to start on PostgreSQL without one).
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_OWNER_URL: fred.fredUrl,
  DATABASE_URL: fred.consoleUrl,
  STATE_ENGINE_INTERVAL_SECONDS: "0",
  AUDIT_KEYS: `1:${randomBytes(32).toString("base64")}`,
};
delete env.PGLITE_DIR;
rmSync(FRED_E2E_SERVER_LOG, { force: true });

async function npmScript(script: string, args: string[]): Promise<void> {
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join("scripts", script), ...args], { env, encoding: "utf8" });
  appendFileSync(FRED_E2E_SERVER_LOG, `$ ${script} ${args.join(" ")}\n${result.stdout}${result.stderr}`);
  if (result.status !== 0) {
    console.error(`${script} failed on the FRED database:\n${result.stdout}${result.stderr}`);
    await fred.drop();
    process.exit(1);
  }
}

await npmScript("seed.ts", ["--domains", String(FRED_E2E_DOMAINS)]);
await npmScript("migrate.ts", []);
// Beside: FRED gets its update_object_states and its triggers back, the console keeps schema console.
if (FRED_E2E_MODE === "beside") await npmScript("adopt.ts", ["--mode", "beside"]);
// On PostgreSQL the operator creates the first admin (docs/operating.md "Running on PostgreSQL").
env.E2E_ADMIN_PASSWORD = E2E_ADMIN_PASSWORD;
await npmScript("user.ts", ["add", "admin", "--role", "admin", "--password-env", "E2E_ADMIN_PASSWORD"]);

const server = serveBuild(
  process.env.E2E_PORT ?? "3101",
  { ...env, NEXTAUTH_SECRET: randomBytes(32).toString("base64") },
  FRED_E2E_SERVER_LOG,
);
// The throw-away registry goes with the server.
server.on("exit", (code) => {
  void fred.drop().finally(() => process.exit(code ?? 0));
});
