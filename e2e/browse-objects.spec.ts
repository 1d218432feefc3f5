import { expect, test } from "@playwright/test";
import { signInAsAdmin } from "./helpers";

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test("a support worker opens the object list, sees demo objects and pages forward", async ({ page }, testInfo) => {
  await page.goto("/objects");
  await expect(page.getByRole("heading", { name: "Objects" })).toBeVisible();
  const rows = page.locator("table.data-table tbody tr");
  await expect(rows).toHaveCount(50);
  await expect(page.getByText(/Page 1 of \d+/)).toBeVisible();
  await expect(rows.first().locator("td.name")).toHaveText(/^([a-z0-9.-]+\.(cz|arpa)|[A-Z0-9-]+)$/);
  await expect(rows.first().getByText(/^REG-/)).toBeVisible();
  await expect(rows.first().getByText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} CES?T/)).toBeVisible();
  const firstPage = await rows.locator("td.name").allTextContents();
  await page.screenshot({ path: testInfo.outputPath("objects-page-1.png"), fullPage: true });

  await page.getByRole("link", { name: "Next ›" }).click();
  await expect(page).toHaveURL(/[?&]page=2\b/);
  await expect(page.getByText(/Page 2 of \d+/)).toBeVisible();
  await expect(rows).toHaveCount(50);
  const secondPage = await rows.locator("td.name").allTextContents();
  expect(secondPage.filter((name) => firstPage.includes(name))).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath("objects-page-2.png"), fullPage: true });

  await page.goBack();
  await expect(page.getByText(/Page 1 of \d+/)).toBeVisible();
});

test("the type filter narrows the list to one object type", async ({ page }) => {
  await page.goto("/objects");
  await page.getByRole("navigation", { name: "Object type" }).getByRole("link", { name: "nsset" }).click();
  await expect(page).toHaveURL(/type=nsset/);
  const types = await page.locator("table.data-table tbody tr td:nth-child(2)").allTextContents();
  expect(types.length).toBeGreaterThan(0);
  expect(new Set(types)).toEqual(new Set(["nsset"]));
});

test("a malformed URL shows what was wrong and a usable page", async ({ page }) => {
  const response = await page.goto("/objects?page=-3&size=abc&type=zone");
  expect(response?.status()).toBe(200);
  const notice = page.getByRole("status");
  await expect(notice).toContainText("Unknown object type “zone”");
  await expect(notice).toContainText("Page size “abc” is not one of 25, 50, 100, 500");
  await expect(notice).toContainText("Page “-3” is not a page number");
  await expect(page.locator("table.data-table tbody tr")).toHaveCount(50);
});
