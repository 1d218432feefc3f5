import { expect, type Page, test } from "@playwright/test";
import { signIn, signInAsNewUser } from "./helpers";

test("a person changes their own password: the current one is needed, weak ones are refused, other sessions end", async ({
  page,
  browser,
}, testInfo) => {
  // About a dozen bcrypt checks and hashes (a second each on a small machine) besides the pages.
  test.setTimeout(120_000);
  const username = `heslo-${Date.now().toString(36)}`;
  const oldPassword = `${username}'s long password`;
  const newPassword = "quiet orchard lantern 2031";
  await signInAsNewUser(page, username, "support");

  // The same person signed in on another browser.
  const laptop = await browser.newContext({ locale: "en-US" });
  const elsewhere = await laptop.newPage();
  await signIn(elsewhere, username, oldPassword);

  // From the user name in the header to their account page.
  await page.getByRole("banner").getByRole("link", { name: username }).click();
  await expect(page).toHaveURL(/\/preferences$/);
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
  // The password form (the panels for second factors and the e-mail address ask for the current password too).
  const form = page.locator("form").filter({ has: page.locator("input[name=confirmPassword]") });
  const submit = () => form.getByRole("button", { name: "Change password" }).click();

  // A wrong current password changes nothing.
  await form.getByLabel("Current password").fill("this is not my password");
  await form.getByLabel("New password", { exact: true }).fill(newPassword);
  await form.getByLabel("New password again").fill(newPassword);
  await submit();
  await expect(form.getByRole("alert")).toHaveText("The current password is wrong; nothing was changed.");

  // A common password is refused, saying why.
  await form.getByLabel("Current password").fill(oldPassword);
  await form.getByLabel("New password", { exact: true }).fill("password1234");
  await form.getByLabel("New password again").fill("password1234");
  await submit();
  await expect(form.getByRole("alert")).toContainText("This password is on the list of common and breached passwords");
  await page.screenshot({ path: testInfo.outputPath("own-password-refused.png"), fullPage: true });

  await form.getByLabel("Current password").fill(oldPassword);
  await form.getByLabel("New password", { exact: true }).fill(newPassword);
  await form.getByLabel("New password again").fill(newPassword);
  await submit();
  await expect(form.getByRole("status")).toHaveText("Your password was changed. Your other session was ended.");
  await page.screenshot({ path: testInfo.outputPath("own-password-changed.png"), fullPage: true });

  // This browser stays signed in; the other one has to sign in again.
  await page.goto("/objects");
  await expect(page.getByRole("heading", { name: "Objects", exact: true })).toBeVisible();
  const stale = await elsewhere.goto("/objects");
  expect(stale?.status()).toBe(401);
  await expect(elsewhere.getByRole("heading", { name: "Sign in to continue" })).toBeVisible();
  await laptop.close();

  // The old password no longer signs in; the new one does.
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel("User name").fill(username);
  await page.getByLabel("Password").fill(oldPassword);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.locator("form").getByRole("alert")).toHaveText(/the user name or password is wrong/);
  await signIn(page, username, newPassword);
});

/** Guesses until the form refuses to check (at most 12 tries); what the form said last. */
async function guessUntilThrottled(page: Page, texts: { password: string; submit: string; throttled: string }): Promise<string> {
  const alert = page.locator("form").getByRole("alert");
  let said = "";
  for (let i = 0; i < 12 && !said.startsWith(texts.throttled); i++) {
    await page.getByLabel(texts.password).fill(`guess number ${i}`);
    await page.getByRole("button", { name: texts.submit, exact: true }).click();
    await expect(page.getByRole("button", { name: texts.submit, exact: true })).toBeEnabled();
    said = (await alert.textContent()) ?? "";
  }
  return said;
}

test("guessing at a password is slowed down, and the sign-in form says how long to wait, in English and Czech", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  // A user name nobody has (the answers are the same as for a real one). Five guesses are free,
  // then the waits grow (1 s, 2 s, 4 s …) until they are longer than a guess takes here.
  await page.goto("/login");
  await page.getByLabel("User name").fill(`guessed-${Date.now().toString(36)}`);
  for (let i = 0; i < 5; i++) {
    await page.getByLabel("Password").fill(`free guess ${i}`);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.locator("form").getByRole("alert")).toHaveText(/the user name or password is wrong/);
  }
  const english = await guessUntilThrottled(page, { password: "Password", submit: "Sign in", throttled: "Too many" });
  expect(english).toMatch(/^Too many failed sign-ins from your address\. Wait \d+ seconds?, then try again\.$/);
  await page.screenshot({ path: testInfo.outputPath("sign-in-throttled.png") });

  await page.getByLabel("Language").selectOption("cs");
  await expect(page.getByRole("heading", { name: "Přihlášení" })).toBeVisible();
  const czech = await guessUntilThrottled(page, { password: "Heslo", submit: "Přihlásit se", throttled: "Příliš mnoho" });
  expect(czech).toMatch(/^Příliš mnoho neúspěšných pokusů o přihlášení z vaší adresy\. Počkejte \d+ sekund[uy]? a zkuste to znovu\.$/);
  await page.screenshot({ path: testInfo.outputPath("sign-in-throttled-cs.png") });
  await page.getByLabel("Jazyk").selectOption("en");
});
