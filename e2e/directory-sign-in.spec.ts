import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { slapdControl } from "../testing/slapd";
import { E2E_DIRECTORY, E2E_SLAPD_INFO, signIn, signInAsAdmin } from "./helpers";

// The console signs people in through a real OpenLDAP server (e2e/server.ts starts it and points
// LDAP_* at it); the test changes the directory's groups and stops the server as a registry would.
const directory = () => slapdControl(JSON.parse(readFileSync(E2E_SLAPD_INFO, "utf8")));
const [dana, emil] = E2E_DIRECTORY;

async function tryToSignIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("User name").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

test.afterAll(async () => {
  const ldap = directory();
  await ldap.start();
  await ldap.setGroups(dana.uid, ["operator"]);
});

test("a directory member signs in with the directory password and gets the role of their group; a new group changes it at the next sign-in", async ({
  page,
  browser,
}, testInfo) => {
  await tryToSignIn(page, dana.uid, "not dana's password");
  await expect(page.locator("form").getByRole("alert")).toHaveText(/the user name or password is wrong/);

  await signIn(page, dana.uid, dana.password);
  await expect(page.getByRole("banner")).toContainText("dana");
  await expect(page.getByRole("banner").locator(".role")).toHaveText("operator");
  // An operator may change states, not manage users.
  await expect(page.getByRole("link", { name: /Bulk change/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "Users", exact: true })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("directory-operator.png") });

  // The directory's administrators add dana to the admin group: the next sign-in is an admin's,
  // and the session opened as an operator ends.
  await directory().setGroups(dana.uid, ["operator", "admin"]);
  const second = await browser.newPage();
  await signIn(second, dana.uid, dana.password);
  await expect(second.getByRole("banner").locator(".role")).toHaveText("admin");
  await expect(second.getByRole("link", { name: "Users", exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Sign in to continue" })).toBeVisible();

  // The directory user appears among the console's users, made by the directory.
  await second.goto("/admin/users");
  await expect(second.getByRole("row", { name: /dana/ })).toContainText("admin");
  await expect(second.getByRole("row", { name: /dana/ })).toContainText("directory (LDAP)");
  // Its password is the directory's: there is no console password to set.
  await expect(second.getByRole("row", { name: /dana/ }).getByRole("button", { name: "Set password" })).toHaveCount(0);
  await second.goto("/audit?action=user.set_role");
  await expect(second.getByRole("row", { name: /directory/ }).first()).toBeVisible();
  await second.close();
});

test("a person taken out of every console group is refused at the next sign-in and signed out everywhere", async ({
  page,
  browser,
}, testInfo) => {
  await directory().setGroups(dana.uid, ["operator"]);
  const other = await browser.newPage();
  await signIn(other, dana.uid, dana.password);

  await directory().setGroups(dana.uid, []);
  await tryToSignIn(page, dana.uid, dana.password);
  await expect(page.locator("form").getByRole("alert")).toHaveText(/in none of the groups that give access to this console/);
  await page.screenshot({ path: testInfo.outputPath("directory-no-group.png") });
  await other.reload();
  await expect(other.getByRole("heading", { name: "Sign in to continue" })).toBeVisible();
  await other.close();
});

test("with the directory down, a directory account is told so clearly, and a console-only account still signs in", async ({
  page,
}, testInfo) => {
  await directory().stop();
  await tryToSignIn(page, emil.uid, emil.password);
  await expect(page.locator("form").getByRole("alert")).toHaveText(/directory \(LDAP\) cannot be reached/);
  await page.screenshot({ path: testInfo.outputPath("directory-down.png") });

  await signInAsAdmin(page);
  await expect(page.getByRole("banner")).toContainText("admin");

  await directory().start();
  const next = await page.context().browser()?.newPage();
  if (!next) throw new Error("no browser");
  await signIn(next, emil.uid, emil.password);
  await expect(next.getByRole("banner").locator(".role")).toHaveText("support");
  await next.close();
});
