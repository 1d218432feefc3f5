import { expect, test } from "@playwright/test";
import { signInAsAdmin } from "./helpers";

test("oversized bodies are refused before they are read, long and broken URLs give a page with notices", async ({ page }) => {
  await signInAsAdmin(page);
  const big = await page.request.post("/objects", {
    headers: { "Content-Type": "text/plain", Origin: new URL(page.url()).origin },
    data: "x".repeat(2 * 1024 * 1024),
  });
  expect(big.status()).toBe(413);
  expect((await big.json()).error).toBe("The request is too large: 2,097,152 bytes, at most 1,048,576.");

  const long = `/objects?q=${"ab".repeat(5_000)}&states=${encodeURIComponent("nonsense,<script>")}&after=${"%00".repeat(50)}&size=-5`;
  const response = await page.goto(long);
  expect(response?.status()).toBe(200);
  await expect(page.locator(".notice").first()).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("the database-unavailable page says what happened and only ever sends people back inside the console", async ({ page }, testInfo) => {
  await page.goto("/unavailable?next=%2F%2Fevil.example%2Fphish");
  await expect(page.getByRole("heading", { name: "The registry database is unavailable" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Try again now" })).toHaveAttribute("href", "/objects");
  await page.screenshot({ path: testInfo.outputPath("unavailable.png"), fullPage: true });
  await page.goto("/unavailable?next=%2Fobjects%3Ftype%3Ddomain");
  await expect(page.getByRole("link", { name: "Try again now" })).toHaveAttribute("href", "/objects?type=domain");
});
