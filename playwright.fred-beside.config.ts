// The FRED end-to-end suite (playwright.fred.config.ts) on a registry adopted beside FRED (issue 40):
// e2e/fred/server.ts moves it there after the migration, FRED keeps its own engine, and the spec
// skips (with the reason) or swaps what only charge promises. E2E_FRED_MODE reaches the server and
// the workers through the environment; `npm test` runs this after the charge suite.
import { defineConfig } from "@playwright/test";
import charge from "./playwright.fred.config";

// Read by e2e/fred/fred.ts in the runner and in the workers it starts.
process.env.E2E_FRED_MODE = "beside";
const port = Number(process.env.E2E_FRED_BESIDE_PORT ?? process.env.E2E_FRED_PORT ?? 3102);

export default defineConfig({
  ...charge,
  outputDir: "test-results/fred-beside",
  use: { ...charge.use, baseURL: `http://127.0.0.1:${port}` },
  webServer: {
    ...(charge.webServer as object),
    url: `http://127.0.0.1:${port}/api/health`,
    env: { E2E_PORT: String(port), E2E_FRED_MODE: "beside" },
  } as typeof charge.webServer,
});
