import { type Browser, expect, type Page, test } from "@playwright/test";
import { pragueWallTime, signInAsNewUser } from "./helpers";

const CZECH_INSTANT = /\d{1,2}\. \d{1,2}\. \d{4} \d{2}:\d{2} SEL?Č/;
const ENGLISH_INSTANT = /\d{4}-\d{2}-\d{2} \d{2}:\d{2} CES?T/;

/** Signs in on a new browser of its own (English, no language cookie) and returns its page. */
async function signInElsewhere(browser: Browser, username: string, password: string): Promise<Page> {
  const context = await browser.newContext({ locale: "en-US" });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("User name").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  return page;
}

test("an operator switches the console to Czech and back; the choice stays with them on another browser", async ({
  page,
  browser,
}, testInfo) => {
  const username = `jazyk-${Date.now().toString(36)}`;
  await signInAsNewUser(page, username, "operator");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByText("Times in Europe/Prague")).toBeVisible();

  // To Czech: navigation, headings, dates, numbers and the registry's state descriptions.
  await page.getByLabel("Language").selectOption("cs");
  await expect(page.locator("html")).toHaveAttribute("lang", "cs");
  const nav = page.getByRole("navigation", { name: "Hlavní" });
  await expect(nav.getByRole("link")).toHaveText(["Přehled", "Objekty", "Požadavky", "Případy", "Schvalování"]);
  await expect(page.getByText("Časy v zóně Europe/Prague")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Objekty", exact: true })).toBeVisible();
  await expect(page.locator("table.objects-table tbody tr").first()).toContainText(CZECH_INSTANT);
  await page.screenshot({ path: testInfo.outputPath("objects-cs.png"), fullPage: true });

  await nav.getByRole("link", { name: "Přehled" }).click();
  await expect(page.getByRole("heading", { name: "Přehled", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: /^outzone: [\d\s]+ objekt/ })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("overview-cs.png"), fullPage: true });
  await nav.getByRole("link", { name: "Požadavky" }).click();
  await expect(page.getByRole("heading", { name: "Požadavky", exact: true })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("requests-cs.png") });
  await page.goto("/requests/bulk");
  await expect(page.getByRole("heading", { name: "Hromadná změna", exact: true })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("bulk-cs.png"), fullPage: true });
  const missing = await page.goto("/no-such-page");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Stránka nenalezena" })).toBeVisible();

  await page.goto("/objects?type=domain&states=outzone,expired&state_match=all&sort=-expires");
  await page.locator("table.objects-table tbody td.col-name a").first().click();
  const states = page.locator("table.states-now");
  await expect(states).toContainText("Doména není generována do zóny");
  await expect(states).toContainText("Doména je po expiraci");
  await expect(states).not.toContainText("The domain isn't generated in the zone");
  await page.screenshot({ path: testInfo.outputPath("object-cs.png"), fullPage: true });

  // The form's own warning about the period is in Czech too, with Czech dates, before anything is sent.
  const form = page.locator("form.request-form");
  await form.getByLabel("Stav").selectOption("serverTransferProhibited");
  await form.getByLabel(/^Začátek/).fill(pragueWallTime(13));
  await form.getByLabel(/^Konec/).fill(pragueWallTime(6));
  await form.getByLabel(/^Důvod/).fill("test");
  await expect(form.getByRole("alert")).toHaveText(
    /^Konec \(\d{1,2}\. \d{1,2}\. \d{4} 10:00 SEL?Č\) není po začátku \(\d{1,2}\. \d{1,2}\. \d{4} 10:00 SEL?Č\): požadavek by byl odmítnut\.$/,
  );
  await expect(form.getByRole("button", { name: "Vytvořit požadavek" })).toBeDisabled();

  // Kept with the user: another browser, English by its cookie and Accept-Language, gets Czech after sign-in.
  const elsewhere = await signInElsewhere(browser, username, `${username}'s long password`);
  await expect(elsewhere.getByRole("heading", { name: "Přehled", exact: true })).toBeVisible();
  await expect(elsewhere.locator("html")).toHaveAttribute("lang", "cs");
  await elsewhere.context().close();

  // And back to English.
  await page.getByLabel("Jazyk").selectOption("en");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText([
    "Overview",
    "Objects",
    "Requests",
    "Cases",
    "Approvals",
  ]);
  await expect(page.locator("table.states-now")).toContainText("The domain isn't generated in the zone");
  await page.goto("/objects");
  await expect(page.getByRole("heading", { name: "Objects", exact: true })).toBeVisible();
  await expect(page.locator("table.objects-table tbody tr").first()).toContainText(ENGLISH_INSTANT);
  await page.goto("/");
  await expect(page.getByRole("link", { name: /^outzone: [\d,]+ objects/ })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("overview-en.png"), fullPage: true });
});

test("before sign-in the browser's language decides, and the switch on the sign-in page is kept in the browser", async ({
  browser,
}, testInfo) => {
  const czech = await browser.newContext({ locale: "cs-CZ" });
  const page = await czech.newPage();
  await page.goto("/login");
  await expect(page.getByRole("heading", { name: "Přihlášení" })).toBeVisible();
  await expect(page.getByLabel("Uživatelské jméno")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("login-cs.png"), fullPage: true });
  await czech.close();

  const english = await browser.newContext({ locale: "en-US" });
  const other = await english.newPage();
  await other.goto("/login");
  await expect(other.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await other.getByLabel("Language").selectOption("cs");
  await expect(other.getByRole("heading", { name: "Přihlášení" })).toBeVisible();
  await other.reload();
  await expect(other.getByRole("heading", { name: "Přihlášení" })).toBeVisible();
  await other.getByLabel("Jazyk").selectOption("en");
  await expect(other.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await english.close();
});

test("an administrator's pages in Czech: users, API tokens and the audit log", async ({ page }, testInfo) => {
  await signInAsNewUser(page, `spravce-${Date.now().toString(36)}`, "admin");
  await page.getByLabel("Language").selectOption("cs");
  await expect(page.locator("html")).toHaveAttribute("lang", "cs");
  for (const [path, heading, shot] of [
    ["/admin/users", "Uživatelé", "users-cs.png"],
    ["/admin/tokens", "API tokeny", "tokens-cs.png"],
    ["/audit", "Auditní záznam", "audit-cs.png"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, exact: true })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(shot) });
  }
  // The audit log names the switch's sign-in and shows Czech dates.
  await expect(page.locator("table tbody tr").first()).toContainText(CZECH_INSTANT);
});
