import { expect, type Page, test } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { E2E_ADMIN_PASSWORD, signIn, signInAsAdmin, signInAsNewUser } from "./helpers";
import { startSideConsole } from "./serve";

// Two-step sign-in (TOTP) as a person does it: set up on "Your account" with an authenticator app
// (the test computes the app's codes from the key the page shows), then signing in with a code, a
// wrong code, a recovery code, and an administrator resetting it.
const code = (key: string, offsetSeconds = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(key), timestamp: Date.now() + offsetSeconds * 1000 });

async function enrol(page: Page, password: string, base = ""): Promise<{ key: string; recoveryCodes: string[] }> {
  await page.goto(`${base}/preferences`);
  const panel = page.locator("#second-factor");
  await panel.getByRole("button", { name: "Set up two-step sign-in" }).click();
  await expect(panel.getByRole("img", { name: "QR code of the key for your authenticator app" })).toBeVisible();
  const key = (await panel.getByTestId("second-factor-key").textContent()) ?? "";
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  // The current code: one from the step before would fail if a step boundary passed before the server checked it.
  await panel.getByLabel("Code from the app").fill(code(key));
  // A session alone does not turn it on: a wrong password changes nothing.
  await panel.getByLabel("Your current password").fill("not the password");
  await panel.getByRole("button", { name: "Turn on two-step sign-in" }).click();
  await expect(panel.locator("form").getByRole("alert")).toHaveText("The current password is wrong; nothing was changed.");
  await panel.getByLabel("Code from the app").fill(code(key));
  await panel.getByLabel("Your current password").fill(password);
  await panel.getByRole("button", { name: "Turn on two-step sign-in" }).click();
  const status = panel.getByRole("status");
  await expect(status).toContainText("Two-step sign-in is on. Your recovery codes");
  const recoveryCodes = ((await status.textContent()) ?? "").match(/[0-9a-f]{5}-[0-9a-f]{5}/g) ?? [];
  expect(recoveryCodes).toHaveLength(10);
  return { key, recoveryCodes };
}

async function passwordThenCode(page: Page, username: string, password: string, typed: string, base = ""): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByLabel("User name").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.locator("form").getByRole("alert")).toHaveText(/Your password is right. Now enter the code/);
  await page.getByLabel("Code from your authenticator app").fill(typed);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

test("a person sets up two-step sign-in, then signs in with a code, is refused a wrong one, uses a recovery code, and an administrator resets it", async ({
  page,
  browser,
}, testInfo) => {
  const password = "tom's long password";
  await signInAsNewUser(page, "tom", "operator");
  const { key, recoveryCodes } = await enrol(page, password);
  await page.screenshot({ path: testInfo.outputPath("second-factor-on.png"), fullPage: true });
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);

  await passwordThenCode(page, "tom", password, "000000");
  await expect(page.locator("form").getByRole("alert")).toHaveText(/That code is wrong or already used/);
  await page.screenshot({ path: testInfo.outputPath("second-factor-wrong.png") });
  await page.getByLabel("Code from your authenticator app").fill(code(key, 30));
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Overview", exact: true })).toBeVisible();
  // The first page after signing in says what changed since the last sign-in, once.
  await expect(page.getByTestId("account-notices")).toContainText("two-step sign-in with an authenticator app was turned on.");
  await page.reload();
  await expect(page.getByRole("heading", { name: "Overview", exact: true })).toBeVisible();
  await expect(page.getByTestId("account-notices")).toHaveCount(0);
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);

  await passwordThenCode(page, "tom", password, recoveryCodes[0]);
  await expect(page.getByRole("heading", { name: "Overview", exact: true })).toBeVisible();
  await page.goto("/preferences");
  await expect(page.locator("#second-factor")).toContainText("9 recovery codes left");

  // Tom lost his phone: an administrator resets it; his session ends and his password alone signs in.
  const admin = await browser.newPage();
  await signInAsAdmin(admin);
  await admin.goto("/admin/users");
  admin.once("dialog", (dialog) => dialog.accept());
  const reset = admin.getByRole("row", { name: /tom/ }).getByRole("button", { name: "Reset two-step sign-in" });
  await reset.click();
  // Done: the page is drawn again without the button (tom has none to reset now).
  await expect(reset).toHaveCount(0);
  await admin.close();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Sign in to continue" })).toBeVisible();
  await signIn(page, "tom", password);
});

// This side console also runs with COMPRESS=true, the setting for a console with no reverse proxy to compress its pages.
test.describe("with SECOND_FACTOR=admins (and COMPRESS=true)", () => {
  let base = "";
  let stop = async () => {};

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    ({ base, stop } = await startSideConsole("second-factor", { SECOND_FACTOR: "admins", COMPRESS: "true" }));
  });
  test.afterAll(() => stop());

  test("COMPRESS=true: the server gzips its pages itself", async ({ request }) => {
    const login = await request.get(`${base}/login`, { headers: { "accept-encoding": "gzip" } });
    expect(login.status()).toBe(200);
    expect(login.headers()["content-encoding"]).toBe("gzip");
  });

  test("an administrator without a second factor is sent to set it up, and can work once it is on", async ({ page }, testInfo) => {
    await page.goto(`${base}/login`);
    await page.getByLabel("User name").fill("admin");
    await page.getByLabel("Password").fill(E2E_ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/preferences\?enrol=required/);
    await expect(page.locator("#second-factor").getByRole("alert")).toHaveText(/Administrators need two-step sign-in here/);
    await page.screenshot({ path: testInfo.outputPath("second-factor-required.png") });
    await page.goto(`${base}/admin/users`);
    await expect(page).toHaveURL(/\/preferences\?enrol=required/);

    await enrol(page, E2E_ADMIN_PASSWORD, base);
    await page.goto(`${base}/admin/users`);
    await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();
  });
});
