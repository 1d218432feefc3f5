// `npm run test:faults`: the fault tests at length on the PostgreSQL in TEST_DATABASE_URL — racing
// writers (RACE_ROUNDS, default 300 rounds), the console killed mid bulk apply and mid engine run
// (CRASH_ROUNDS, default 12 each), a database outage, hostile input (FUZZ_RUNS, default 300 inputs
// per action) — and the scheduler's clock. Each prints its figures; `npm test` runs them briefly.
import { spawnSync } from "node:child_process";
import path from "node:path";

if (!process.env.TEST_DATABASE_URL) {
  console.error("npm run test:faults needs a PostgreSQL server: set TEST_DATABASE_URL (a user that may create databases).");
  process.exit(1);
}
const env = {
  ...process.env,
  RACE_ROUNDS: process.env.RACE_ROUNDS ?? "300",
  CRASH_ROUNDS: process.env.CRASH_ROUNDS ?? "12",
  FUZZ_RUNS: process.env.FUZZ_RUNS ?? "300",
};
console.log(`Races: ${env.RACE_ROUNDS} rounds; crashes: ${env.CRASH_ROUNDS} of each kind; hostile input: ${env.FUZZ_RUNS} per action.`);
const started = Date.now();
const result = spawnSync(
  process.execPath,
  [
    path.join("node_modules", "vitest", "vitest.mjs"),
    "run",
    "lib/requests/races.test.ts",
    "lib/faults/",
    "lib/db/outage.test.ts",
    "lib/states/scheduler.test.ts",
    "lib/check.test.ts",
  ],
  { stdio: "inherit", env },
);
console.log(`\ntest:faults ${result.status === 0 ? "passed" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
process.exit(result.status ?? 1);
