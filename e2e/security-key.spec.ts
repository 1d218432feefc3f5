import { type CDPSession, expect, type Page, test } from "@playwright/test";
import { E2E_ADMIN_PASSWORD } from "./helpers";
import { startSideConsole } from "./serve";

// Security keys (WebAuthn) as a person uses them, with Chromium's virtual authenticator standing in
// for the key: an administrator whom SECOND_FACTOR=admins sends to set up two-step sign-in registers
// a key instead of an app, then signs in with password and key, and removes it again. Security keys
// need a domain name (not 127.0.0.1), so this console is reached as http://localhost.
let base = "";
let stop = async () => {};

test.beforeAll(async () => {
  test.setTimeout(180_000);
  ({ base, stop } = await startSideConsole("security-key", { SECOND_FACTOR: "admins" }, { publicHost: "localhost" }));
});
test.afterAll(() => stop());

/** A USB security key that holds passkeys and answers at once, as if touched. */
async function plugInKey(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "usb",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function password(page: Page): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel("User name").fill("admin");
  await page.getByLabel("Password").fill(E2E_ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

test("an administrator registers a security key when sent to set up two-step sign-in, signs in with it, and removes it", async ({
  page,
}, testInfo) => {
  const { cdp, authenticatorId } = await plugInKey(page);
  await password(page);
  await expect(page).toHaveURL(/\/preferences\?enrol=required/);

  const panel = page.locator("#security-keys");
  await expect(panel).toContainText("No security key registered.");
  // Without a name, the browser's own check stops the form before the key is asked.
  await panel.getByRole("button", { name: "Add a security key" }).click();
  expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(0);
  await panel.getByLabel("Name of the key").fill("blue YubiKey");
  const adding = panel.locator("form", { has: page.getByRole("button", { name: "Add a security key" }) });
  // A session alone does not add a key: with a wrong password the console keeps none.
  await adding.getByLabel("Your current password").fill("not the password");
  await panel.getByRole("button", { name: "Add a security key" }).click();
  await expect(adding.getByRole("alert")).toHaveText("The current password is wrong; nothing was changed.");
  await expect(panel).toContainText("No security key registered.");
  // (The key itself made a credential the console refused; a real key keeps it, unused. This one forgets it.)
  await cdp.send("WebAuthn.clearCredentials", { authenticatorId });
  await adding.getByLabel("Your current password").fill(E2E_ADMIN_PASSWORD);
  await panel.getByRole("button", { name: "Add a security key" }).click();
  await expect(panel.getByRole("status")).toHaveText("Security key “blue YubiKey” added: the console asks for it when you sign in.");
  await expect(panel.getByRole("row", { name: /blue YubiKey/ })).toContainText("never");
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  // Not a discoverable credential: the sign-in names the key (a security key needs no PIN for it).
  expect(credentials).toMatchObject([{ isResidentCredential: false, rpId: "localhost" }]);
  await expect(page.locator("#second-factor")).toContainText("Two-step sign-in is on with your security keys");
  await page.screenshot({ path: testInfo.outputPath("security-key-added.png"), fullPage: true });
  // The key is a second factor: the administrator's pages open.
  await page.goto(`${base}/admin/users`);
  await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();
  await expect(page.getByRole("row", { name: /admin/ }).first().getByRole("button", { name: "Reset two-step sign-in" })).toBeVisible();

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  await password(page);
  await expect(page.locator("form").getByRole("alert")).toHaveText("Your password is right. Now use your security key.");
  await expect(page.getByLabel("Code from your authenticator app")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("security-key-sign-in.png") });
  await page.getByRole("button", { name: "Use your security key" }).click();
  await expect(page.getByRole("heading", { name: "Overview", exact: true })).toBeVisible();
  // The key signed once more: the sign-in's challenge.
  expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials[0].signCount).toBe(credentials[0].signCount + 1);

  await expect(page.getByTestId("account-notices")).toContainText("a security key was added.");
  await page.goto(`${base}/preferences`);
  await expect(panel.getByRole("row", { name: /blue YubiKey/ })).not.toContainText("never");
  await expect(page.locator("#sessions").getByRole("row", { name: /this browser/ })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("your-account.png"), fullPage: true });
  const removing = panel.locator("form", { has: page.getByRole("button", { name: "Remove a key" }) });
  await removing.getByLabel("Key to remove").selectOption({ label: "blue YubiKey" });
  await removing.getByLabel("Your current password").fill("not the password");
  page.once("dialog", (dialog) => dialog.accept());
  await removing.getByRole("button", { name: "Remove a key" }).click();
  await expect(removing.getByRole("alert")).toHaveText("The current password is wrong; nothing was changed.");
  await expect(panel.getByRole("row", { name: /blue YubiKey/ })).toBeVisible();
  await removing.getByLabel("Your current password").fill(E2E_ADMIN_PASSWORD);
  page.once("dialog", (dialog) => dialog.accept());
  await removing.getByRole("button", { name: "Remove a key" }).click();
  await expect(panel).toContainText("No security key registered.");
  // Without a second factor the administrator is held to their own account again.
  await page.goto(`${base}/admin/users`);
  await expect(page).toHaveURL(/\/preferences\?enrol=required/);
});
