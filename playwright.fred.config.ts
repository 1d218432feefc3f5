// The end-to-end suite on an adopted FRED registry (PostgreSQL, TEST_DATABASE_URL): `npm test` runs
// it after the embedded-database suite when TEST_DATABASE_URL is set.
import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

const port = Number(process.env.E2E_FRED_PORT ?? 3101);

export default defineConfig({
  ...base,
  testDir: "./e2e/fred",
  testIgnore: [],
  outputDir: "test-results/fred",
  use: { ...base.use, baseURL: `http://127.0.0.1:${port}` },
  webServer: {
    command: "node --import tsx e2e/fred/server.ts",
    url: `http://127.0.0.1:${port}/api/health`,
    env: { E2E_PORT: String(port) },
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
  },
});
