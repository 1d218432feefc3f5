// Two console processes on one PostgreSQL, as behind a load balancer: a session made on one works on
// the other, signing out on one ends it on both, and a request created through one is on the other's
// pages at once. Runs when TEST_DATABASE_URL names a PostgreSQL server (CI sets it).
import { type ChildProcess, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { startNextServer } from "../scripts/next-server";
import { freePort } from "../testing/free-port";
import { E2E_ADMIN_PASSWORD, signIn } from "./helpers";

const adminUrl = process.env.TEST_DATABASE_URL;
test.skip(!adminUrl, "needs a PostgreSQL server: set TEST_DATABASE_URL");
test.describe.configure({ mode: "serial" });

// Ports nothing listens on: the suite's own consoles take E2E_PORT and the ports after it.
let A: string;
let B: string;
const database = `rsc_e2e_multi_${randomBytes(4).toString("hex")}`;
let databaseUrl: string;
const servers: ChildProcess[] = [];
// One audit key for the commands and both instances, as in production.
const AUDIT_KEYS = `1:${randomBytes(32).toString("base64")}`;

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function startConsole(base: string, secret: string): Promise<void> {
  const port = new URL(base).port;
  if (await fetch(`${base}/api/health`).catch(() => null)) throw new Error(`port ${port} is taken by another process; stop it first`);
  const server = startNextServer(["-p", port, "-H", "127.0.0.1"], {
    stdio: "ignore",
    detached: true, // its own process group: `next start` serves from a child process, stopped with it
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      NEXTAUTH_URL: base,
      NEXTAUTH_SECRET: secret,
      AUDIT_KEYS,
      STATE_ENGINE_INTERVAL_SECONDS: "5",
    },
  });
  servers.push(server);
  for (let i = 0; i < 240; i++) {
    if ((await fetch(`${base}/api/health`).catch(() => null))?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the console at ${base} did not start within a minute`);
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const url = new URL(adminUrl as string);
  url.pathname = `/${database}`;
  databaseUrl = url.toString();
  await withAdmin((client) => client.query(`CREATE DATABASE ${database}`));
  const seed = spawnSync(process.execPath, ["--import", "tsx", "scripts/seed.ts", "--domains", "400"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, AUDIT_KEYS },
    encoding: "utf8",
  });
  if (seed.status !== 0) throw new Error(`db:seed failed: ${seed.stderr}${seed.stdout}`);
  // On PostgreSQL the operator makes the first admin, with `npm run user`.
  const user = spawnSync(
    process.execPath,
    ["--import", "tsx", "scripts/user.ts", "add", "admin", "--role", "admin", "--password-env", "E2E_ADMIN_PASSWORD"],
    { env: { ...process.env, DATABASE_URL: databaseUrl, E2E_ADMIN_PASSWORD, AUDIT_KEYS }, encoding: "utf8" },
  );
  if (user.status !== 0) throw new Error(`npm run user failed: ${user.stderr}${user.stdout}`);
  // One secret for all instances, as in production.
  const secret = randomBytes(32).toString("base64");
  A = `http://127.0.0.1:${await freePort()}`;
  await startConsole(A, secret);
  B = `http://127.0.0.1:${await freePort()}`; // chosen once A listens, so never A's port
  await startConsole(B, secret);
});

test.afterAll(async () => {
  for (const server of servers) {
    try {
      process.kill(-(server.pid as number), "SIGTERM");
    } catch {} // already gone
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
});

test("a session made on one instance works on the other, and signing out on one ends it on both", async ({ page }) => {
  await signIn(page, "admin", E2E_ADMIN_PASSWORD, A);
  await page.goto(`${B}/objects`);
  await expect(page).toHaveURL(`${B}/objects`);
  await expect(page.locator(".who")).toContainText("admin");
  await expect(page.locator("table.objects-table tbody tr").first()).toBeVisible();

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  // The cookie of the ended session, offered to the other instance, no longer opens anything.
  await page.goto(`${A}/objects`);
  await expect(page).toHaveURL(new RegExp(`^${A}/login`));
});

test("a request created through one instance is on the other's object page and request list at once", async ({ page }) => {
  await signIn(page, "admin", E2E_ADMIN_PASSWORD, A);
  page.on("dialog", (dialog) => dialog.accept());
  await page.goto(`${A}/objects?type=domain&states=serverTransferProhibited&mode=not`);
  await page.locator("table.objects-table tbody td.col-name a").first().click();
  await expect(page).toHaveURL(/\/objects\/\d+$/);
  const objectUrl = new URL(page.url()).pathname;

  const form = page.getByRole("form", { name: "Request a state" });
  await form.getByLabel("State").selectOption("serverTransferProhibited");
  await form.getByLabel(/^Reason/).fill("registrar dispute 7/2026");
  await form.getByRole("button", { name: "Create request" }).click();
  await expect(form.locator(".form-ok")).toHaveText(/^Request \d+: serverTransferProhibited on /);
  const requestId = /^Request (\d+)/.exec((await form.locator(".form-ok").textContent()) as string)?.[1] as string;

  await page.goto(`${B}${objectUrl}`);
  const row = page.locator("table.requests tbody tr", { has: page.getByRole("cell", { name: requestId, exact: true }) });
  await expect(row).toContainText("registrar dispute 7/2026");
  await expect(row).toContainText("in force");
  // The state itself: the instance that took the request ran the engine for the object in the same transaction.
  await expect(page.locator("table.states-now")).toContainText("serverTransferProhibited");
  await page.goto(`${B}/requests`);
  await expect(page.locator("table.requests tbody tr", { has: page.getByRole("cell", { name: requestId, exact: true }) })).toContainText(
    "admin",
  );
});
