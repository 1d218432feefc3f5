import { expect, test } from "@playwright/test";
import { signInAsAdmin } from "./helpers";

test("changing a person's role asks with what changes, before → after", async ({ page }, testInfo) => {
  // A new name on every run (a retry finds the first one there).
  const name = `rolf${Date.now() % 1_000_000}`;
  await signInAsAdmin(page);
  await page.goto("/admin/users");
  const add = page.locator("section.panel");
  await add.getByLabel("User name").fill(name);
  await add.getByLabel("Full name").fill("Rolf Role");
  await add.getByLabel("Role").selectOption("support");
  await add.getByLabel("Initial password").fill(`${name}'s long password`);
  await add.getByRole("button", { name: "Add user" }).click();
  await expect(add.getByRole("status")).toHaveText(`User ${name} (support) was added.`);

  const questions: string[] = [];
  page.on("dialog", (dialog) => {
    questions.push(dialog.message());
    void dialog.accept();
  });
  const role = page.getByLabel(`Role of ${name}`);
  await expect(role).toHaveValue("support");
  await role.selectOption("operator");
  await role.locator("xpath=ancestor::form").getByRole("button", { name: "Set role" }).click();
  await expect.poll(() => questions).toEqual([`Change the role of ${name} from support to operator? Their sessions end.`]);
  await expect(page.getByText(`${name} is now operator; their sessions were ended.`)).toBeVisible();
  // And the list shows the new role, not the one the form had.
  await expect(page.getByLabel(`Role of ${name}`)).toHaveValue("operator");
  await page.screenshot({ path: testInfo.outputPath("users-role.png"), fullPage: true });
});
