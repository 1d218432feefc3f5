import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";

// Chromium's headless shell first: what Playwright itself runs headless tests in, lighter than the
// whole browser in headless mode (it starts in half the time on a 2-core machine).
const SYSTEM_CHROMIUM = [
  "/usr/bin/chromium-headless-shell",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

/**
 * The browser for the Playwright suite: CHROMIUM_PATH when set, else a system Chromium (Debian's
 * `chromium-headless-shell` package, or its `chromium`), else the one `npx playwright install
 * chromium` downloads. `undefined` means Playwright's own. Throws with what to do when there is
 * none, so the suite never silently skips.
 */
export function findChromium(): string | undefined {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!existsSync(configured)) throw new Error(`CHROMIUM_PATH is set to ${configured}, which does not exist.`);
    return configured;
  }
  const system = SYSTEM_CHROMIUM.find((candidate) => existsSync(candidate));
  if (system) return system;
  if (existsSync(chromium.executablePath())) return undefined;
  throw new Error(
    "No Chromium found for the Playwright tests. Install one: `apt-get install chromium` (Debian/Ubuntu) or " +
      "`npx playwright install chromium`, or set CHROMIUM_PATH to a Chromium or Chrome binary.",
  );
}
