import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { killOidcProvider, type OidcProviderInfo, spawnOidcProvider, writeOidcAccounts } from "../testing/oidc-provider";
import { E2E_OIDC_INFO, E2E_SSO_PEOPLE, signInAsAdmin } from "./helpers";

// Single sign-on through a real OpenID provider (oidc-provider, started by e2e/server.ts as a
// process of its own): the role comes from the `groups` claim; the test rewrites the provider's
// people and stops it as a registry's identity team would.
const provider = (): OidcProviderInfo => JSON.parse(readFileSync(E2E_OIDC_INFO, "utf8"));
const setGroups = (login: keyof typeof E2E_SSO_PEOPLE, groups: string[]) =>
  writeOidcAccounts(provider().accountsFile, { ...E2E_SSO_PEOPLE, [login]: { ...E2E_SSO_PEOPLE[login], groups } });

/** Signs in through the provider's own pages: its development sign-in takes any password. */
async function singleSignOn(page: Page, login: string): Promise<void> {
  await page.goto("/login");
  await page.getByRole("button", { name: "Sign in with Registry SSO" }).click();
  await page.getByPlaceholder("Enter any login").fill(login);
  await page.getByPlaceholder("and password").fill("the provider checks this");
  await page.getByRole("button", { name: "Sign-in" }).click();
  // Consent once per session at the provider.
  const consent = page.getByRole("button", { name: "Continue" });
  await page.waitForURL((url) => url.port !== String(provider().port) || url.pathname.includes("interaction"));
  if (await consent.isVisible().catch(() => false)) await consent.click();
}

test.afterAll(() => writeOidcAccounts(provider().accountsFile, E2E_SSO_PEOPLE));

test("a person signs in through the identity provider with the role its groups claim give; signing out ends the console session", async ({
  page,
  browser,
}, testInfo) => {
  await singleSignOn(page, "sso-olga");
  await expect(page.getByRole("heading", { name: "Overview", exact: true })).toBeVisible();
  await expect(page.getByRole("banner")).toContainText("sso-olga");
  await expect(page.getByRole("banner").locator(".role")).toHaveText("operator");
  await page.screenshot({ path: testInfo.outputPath("sso-operator.png") });

  const cookies = await page.context().cookies();
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  // The session cookie from before sign-out opens nothing: the console ended that session.
  const replay = await browser.newContext();
  await replay.addCookies(cookies);
  const stale = await replay.newPage();
  expect((await stale.goto("/objects"))?.status()).toBe(401);
  await replay.close();

  // Her groups change at the provider: the next sign-in gives the new role.
  setGroups("sso-olga", ["console-operators", "console-admins"]);
  const again = await browser.newPage();
  await singleSignOn(again, "sso-olga");
  await expect(again.getByRole("banner").locator(".role")).toHaveText("admin");
  await again.close();
});

test("a person whose claims give no console role is refused, and one taken out of the groups loses every session", async ({
  page,
  browser,
}, testInfo) => {
  await singleSignOn(page, "sso-petr");
  await expect(page).toHaveURL(/\/login/);
  await expect(page.locator("form").getByRole("alert")).toHaveText(/no access to this console/);
  await page.screenshot({ path: testInfo.outputPath("sso-refused.png") });

  setGroups("sso-olga", ["console-support"]);
  const olga = await browser.newPage();
  await singleSignOn(olga, "sso-olga");
  await expect(olga.getByRole("banner").locator(".role")).toHaveText("support");
  setGroups("sso-olga", []);
  const later = await browser.newPage();
  await singleSignOn(later, "sso-olga");
  await expect(later.locator("form").getByRole("alert")).toHaveText(/no access to this console/);
  await olga.reload();
  await expect(olga.getByRole("heading", { name: "Sign in to continue" })).toBeVisible();
  await later.close();
  await olga.close();
});

test("with the identity provider down, single sign-on is refused with a clear message and passwords still work", async ({
  page,
}, testInfo) => {
  const info = provider();
  killOidcProvider(info);
  try {
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign in with Registry SSO" }).click();
    await expect(page.locator("form").getByRole("alert")).toHaveText(/single sign-on service cannot be reached/);
    await page.screenshot({ path: testInfo.outputPath("sso-down.png") });
    await signInAsAdmin(page);
  } finally {
    await spawnOidcProvider(info);
  }
});
