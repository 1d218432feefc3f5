import { expect, type Page } from "@playwright/test";

/** The e2e server's first admin gets this password through CONSOLE_ADMIN_PASSWORD. */
export const E2E_ADMIN_PASSWORD = "e2e admin password 2026";

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("User name").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/objects/);
}

export function signInAsAdmin(page: Page): Promise<void> {
  return signIn(page, "admin", E2E_ADMIN_PASSWORD);
}
