// The end-to-end suite on an adopted FRED registry (PostgreSQL, TEST_DATABASE_URL): `npm test` runs
// it after the embedded-database suite when TEST_DATABASE_URL is set, in charge (this file) and
// beside FRED (playwright.fred-beside.config.ts), each with its own database and server.
import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/** The suite on a registry adopted in `mode`, served on `port` (e2e/fred/server.ts reads E2E_FRED_MODE). */
export function fredConfig(mode: "charge" | "beside", port: number) {
  // The spec's mode (e2e/fred/fred.ts), in the runner and in the workers it starts: the last config
  // made wins (playwright.fred-beside.config.ts imports this file, then makes its own).
  process.env.E2E_FRED_MODE = mode;
  return defineConfig({
    ...base,
    testDir: "./e2e/fred",
    testIgnore: [],
    // One registry database and server: its specs run one after another.
    workers: 1,
    outputDir: mode === "charge" ? "test-results/fred" : `test-results/fred-${mode}`,
    use: { ...base.use, baseURL: `http://127.0.0.1:${port}` },
    webServer: {
      command: "node --import tsx e2e/fred/server.ts",
      url: `http://127.0.0.1:${port}/api/health`,
      env: { E2E_PORT: String(port), E2E_FRED_MODE: mode },
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: "ignore",
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    },
  });
}

export default fredConfig("charge", Number(process.env.E2E_FRED_PORT ?? 3101));
