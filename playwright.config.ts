import { defineConfig, devices } from "@playwright/test";
import { findChromium } from "./e2e/chromium";

const port = Number(process.env.E2E_PORT ?? 3100);
// Two workers, each with a console of its own on port + n (e2e/helpers.ts: E2E_INSTANCE): a
// spec file runs whole in one worker, against one console and database, as it did with one worker.
// On 2 cores the browser and the server of one worker leave about half the machine idle.
const CONSOLES = 2;
// Set by Playwright in each worker (0 or 1); the runner itself, which starts the servers, has none.
const instance = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const executablePath = findChromium();

export default defineConfig({
  testDir: "./e2e",
  testIgnore: "fred/**", // playwright.fred.config.ts
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: CONSOLES,
  // What a person waits for on a busy machine (issue 41: a 2-core machine at load 10 ran pages for
  // seconds): a test fails when something does not happen, never because the machine was slow.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [["list"]],
  use: {
    ...devices["Desktop Chrome"],
    baseURL: `http://127.0.0.1:${port + instance}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath,
      args: ["--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
      chromiumSandbox: false,
    },
  },
  webServer: Array.from({ length: CONSOLES }, (_, n) => ({
    command: "node --import tsx e2e/server.ts",
    url: `http://127.0.0.1:${port + n}/objects`,
    env: { E2E_PORT: String(port + n), E2E_INSTANCE: String(n) },
    reuseExistingServer: false,
    timeout: 180_000,
    // SIGTERM, so e2e/server.ts stops the directory (slapd) it started along with the console.
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 5_000 },
    stdout: "ignore" as const, // the server's log is in .data/e2e-<n>-server.log
  })),
});
