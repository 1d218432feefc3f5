import { defineConfig, devices } from "@playwright/test";
import { findChromium } from "./e2e/chromium";

const port = Number(process.env.E2E_PORT ?? 3100);
const executablePath = findChromium();

export default defineConfig({
  testDir: "./e2e",
  testIgnore: "fred/**", // playwright.fred.config.ts
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: 1,
  // What a person waits for on a busy machine (issue 41: a 2-core machine at load 10 ran pages for
  // seconds): a test fails when something does not happen, never because the machine was slow.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [["list"]],
  use: {
    ...devices["Desktop Chrome"],
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath,
      args: ["--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
      chromiumSandbox: false,
    },
  },
  webServer: {
    command: "node --import tsx e2e/server.ts",
    url: `http://127.0.0.1:${port}/objects`,
    env: { E2E_PORT: String(port) },
    reuseExistingServer: false,
    timeout: 180_000,
    // SIGTERM, so e2e/server.ts stops the directory (slapd) it started along with the console.
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
    stdout: "ignore", // the server's log is in .data/e2e-server.log
  },
});
