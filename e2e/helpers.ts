import { expect, type Locator, type Page } from "@playwright/test";

/** The e2e server's first admin gets this password through CONSOLE_ADMIN_PASSWORD. */
export const E2E_ADMIN_PASSWORD = "e2e admin heron quartz 2026";

/**
 * Which of the suite's consoles this process works with. The suite runs two Playwright workers on a
 * 2-core machine, each against a console of its own (playwright.config.ts starts both): worker n
 * (TEST_PARALLEL_INDEX, set by Playwright) uses console n, and e2e/server.ts is told its number by
 * E2E_INSTANCE. Each console has its own database, log, mail, directory and identity provider, so
 * a spec sees only its own worker's work, as with one worker.
 */
export const E2E_INSTANCE = Number(process.env.E2E_INSTANCE ?? process.env.TEST_PARALLEL_INDEX ?? 0);
/** A file of this process's console, in .data. */
export const e2eFile = (name: string) => `.data/e2e-${E2E_INSTANCE}-${name}`;

/** Where e2e/server.ts keeps the server's log. */
export const E2E_SERVER_LOG = e2eFile("server.log");

/** The mails the e2e server's SMTP server received, as JSON ({ to, text }[]): e2e/server.ts writes it. */
export const E2E_MAILS = e2eFile("mails.json");

/** The token the e2e server's metrics scraper sends (e2e/metrics.spec.ts). */
export const E2E_METRICS_TOKEN = "e2e-metrics-scraper-0123456789";

/** The people of the end-to-end suite's LDAP directory (e2e/server.ts starts it). */
export const E2E_DIRECTORY = [
  { uid: "dana", password: "dana's directory password", name: "Dana Directory", groups: ["operator" as const] },
  { uid: "emil", password: "emil's directory password", name: "Emil Directory", groups: ["support" as const] },
];
/** The people of the end-to-end suite's OpenID provider, by login, with their groups. */
export const E2E_SSO_PEOPLE = {
  "sso-olga": { name: "Olga Single-Sign-On", groups: ["console-operators"] },
  "sso-petr": { name: "Petr Single-Sign-On", groups: ["staff"] },
};
/** Where e2e/server.ts says how to reach and control the OpenID provider. */
export const E2E_OIDC_INFO = e2eFile("oidc.json");
/** Where e2e/server.ts says how to reach and control that directory. */
export const E2E_SLAPD_INFO = e2eFile("slapd.json");

/**
 * Signs in on the suite's server, or on another console at `base` (http://host:port), and lands on
 * `to` (the object list: the tests begin there) by the sign-in form's own callbackUrl, without the
 * overview between.
 */
export async function signIn(page: Page, username: string, password: string, base = "", to = "/objects"): Promise<void> {
  await page.goto(`${base}/login?callbackUrl=${encodeURIComponent(to)}`);
  await page.getByLabel("User name").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === to);
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
}

export function signInAsAdmin(page: Page, to = "/objects"): Promise<void> {
  return signIn(page, "admin", E2E_ADMIN_PASSWORD, "", to);
}

/** Adds a user through the admin's users page (signed in as admin), then signs in as them. */
export async function signInAsNewUser(page: Page, username: string, role: "support" | "operator" | "admin"): Promise<void> {
  const password = `${username}'s long password`;
  await signInAsAdmin(page, "/admin/users");
  const add = page.locator("section.panel");
  await add.getByLabel("User name").fill(username);
  await add.getByLabel("Full name").fill(username);
  await add.getByLabel("Role").selectOption(role);
  await add.getByLabel("Initial password").fill(password);
  await add.getByRole("button", { name: "Add user" }).click();
  await expect(add.getByRole("status")).toHaveText(`User ${username} (${role}) was added.`);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, username, password);
}

/** The registry's wall time (Europe/Prague) of an instant, to the minute: "2026-12-02T15:40". */
export function pragueWallAt(at: number): string {
  const wall = new Intl.DateTimeFormat("sv-SE", {
    timeZone: "Europe/Prague",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(new Date(at));
  return wall.replace(" ", "T");
}

/** A wall time `days` ahead at 10:00 in the registry's zone, as a datetime-local input takes it. */
export function pragueWallTime(days: number): string {
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Prague", year: "numeric", month: "2-digit", day: "2-digit" }).format(
    new Date(Date.now() + days * 86_400_000),
  );
  return `${day}T10:00`;
}

/** A wall time as the console's pages show it in English (its zone's abbreviation), as a pattern: "2026-11-29 10:00 CET". */
export function shownAt(wall: string): string {
  return `${wall.replace("T", " ").replaceAll(".", "\\.")} CES?T`;
}

/** The name of a live domain no block or prohibition holds: the `index`th of the list (each test takes its own). */
export async function freeDomainName(page: Page, index: number): Promise<string> {
  await page.goto(
    "/objects?type=domain&states=serverBlocked,serverTransferProhibited,serverDeleteProhibited,serverUpdateProhibited,serverRenewProhibited&state_match=any&mode=not&size=50",
  );
  return (await page.locator("table.objects-table tbody td.col-name a").nth(index).textContent()) as string;
}

/**
 * Waits until the browser has been idle twice: work it had queued (a prefetch Next schedules on
 * hover or for links in view, what React commits after hydrating) has been done or asked for by then.
 */
export async function browserIdle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => requestIdleCallback(resolve))));
}

/**
 * Waits until React has hydrated the element `locator` finds, and the browser has been idle twice
 * since: a choice made before that can be undone by hydration (a controlled select is set back to
 * the value it was rendered with; CI, 2026-12-03: "Create request" then found no state chosen).
 */
export async function hydrated(locator: Locator): Promise<void> {
  await expect.poll(() => locator.evaluate((element) => Object.keys(element).some((key) => key.startsWith("__reactProps$")))).toBe(true);
  await browserIdle(locator.page());
}
