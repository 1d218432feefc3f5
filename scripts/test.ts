// `npm test`: every check the project has, in the order that fails fastest. Stops at the first
// failure. The PostgreSQL suite runs when TEST_DATABASE_URL is set (CI sets it); the Playwright
// suite needs a Chromium and fails with what to install when there is none.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { findChromium } from "../e2e/chromium";
import { FRED_STRUCTURE_SQL, fredSchemaAvailable } from "../testing/fred";
import { SLAPD, slapdAvailable } from "../testing/slapd";

const bin = (pkg: string, file: string) => path.join("node_modules", pkg, file);

const steps: [string, string[]][] = [
  ["Prisma client", ["scripts/prisma-generate.mjs"]],
  ["Route types", [bin("next", "dist/bin/next"), "typegen"]],
  ["Type check", [bin("typescript", "bin/tsc"), "--noEmit"]],
  ["Lint", [bin("@biomejs/biome", "bin/biome"), "check", "."]],
  // Files, exports and dependencies nothing uses (knip.jsonc).
  ["Unused code (knip)", [bin("knip", "bin/knip.js")]],
  ["Unit and integration tests", [bin("vitest", "vitest.mjs"), "run"]],
  [
    "First start of a clean checkout, 3 times, port polled throughout; then 3 restarts",
    ["--import", "tsx", "scripts/first-start-check.ts"],
  ],
  ["Production build, twice, with no database reachable", ["--import", "tsx", "scripts/build-without-database.ts"]],
  ["End-to-end tests (Playwright, Chromium)", [bin("@playwright/test", "cli.js"), "test"]],
];
// The console on an adopted FRED registry: fred-db 2.52's structure.sql loaded into a new database
// on TEST_DATABASE_URL, demo data seeded, adopted, served, and used in Chromium; once adopted in
// charge, once moved beside FRED (issue 40), each with its own database and server.
if (process.env.TEST_DATABASE_URL) {
  if (fredSchemaAvailable())
    steps.push(
      [
        "End-to-end tests on a FRED registry adopted in charge (PostgreSQL)",
        [bin("@playwright/test", "cli.js"), "test", "-c", "playwright.fred.config.ts"],
      ],
      [
        "End-to-end tests on a FRED registry adopted beside FRED (PostgreSQL)",
        [bin("@playwright/test", "cli.js"), "test", "-c", "playwright.fred-beside.config.ts"],
      ],
    );
  else console.log(`No ${FRED_STRUCTURE_SQL}: the FRED adoption tests (integration and end-to-end) are skipped.`);
}

let browser: string;
try {
  browser = findChromium() ?? "Playwright's own Chromium";
} catch (error) {
  console.error(`npm test: ${(error as Error).message}`);
  process.exit(1);
}
console.log(`Browser for end-to-end tests: ${browser}`);
// The project's own Node (the `node` package, first on npm's PATH), not necessarily the machine's.
console.log(`Node.js ${process.version} (${process.execPath})`);
if (!slapdAvailable()) {
  console.error(
    `npm test: ${SLAPD} is missing. The directory (LDAP) sign-in tests run a real OpenLDAP server: on Debian, apt-get install slapd.`,
  );
  process.exit(1);
}
console.log(
  process.env.TEST_DATABASE_URL
    ? "Integration tests run on PGlite and on PostgreSQL (TEST_DATABASE_URL)."
    : "Integration tests run on PGlite only; set TEST_DATABASE_URL to a PostgreSQL server to run them there too.",
);

const started = Date.now();
for (const [title, args] of steps) {
  console.log(`\n━━ ${title}`);
  const stepStarted = Date.now();
  const result = spawnSync(process.execPath, args, { stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`\nnpm test: “${title}” failed.`);
    process.exit(result.status ?? 1);
  }
  console.log(`━━ ${title}: passed in ${((Date.now() - stepStarted) / 1000).toFixed(1)} s`);
}
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
