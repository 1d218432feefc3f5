// The FRED end-to-end suite (playwright.fred.config.ts) on a registry adopted beside FRED (issue 40):
// e2e/fred/server.ts moves it there after the migration, FRED keeps its own engine, and the spec
// skips (with the reason) or swaps what only charge promises. `npm test` runs it after the charge one.
import { fredConfig } from "./playwright.fred.config";

export default fredConfig("beside", Number(process.env.E2E_FRED_BESIDE_PORT ?? process.env.E2E_FRED_PORT ?? 3102));
