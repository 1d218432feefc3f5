// The console's pages are dynamic: a link prefetch would render a whole page on the server, and read
// the database, for a person who may never open it (app/layout.tsx). No page prefetches one.
import { expect, test } from "@playwright/test";
import { browserIdle, signInAsAdmin } from "./helpers";

test("no page prefetches the pages it links to; a link still opens its page", async ({ page }) => {
  await signInAsAdmin(page);
  const background: string[] = [];
  page.on("request", (request) => {
    const headers = request.headers();
    if (headers["next-router-prefetch"] || headers["next-router-segment-prefetch"] || headers.rsc) background.push(request.url());
  });
  for (const path of ["/", "/objects", "/requests", "/cases", "/approvals", "/admin/users"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link").first().hover();
    // Not "networkidle": on a page visited twice Chromium at times never reports it (1 run in 6 hung for 2 minutes).
    await browserIdle(page);
  }
  expect(background).toEqual([]);
  // Without a prefetch the click fetches the page: the menu still works.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Requests", exact: true }).click();
  await expect(page).toHaveURL(/\/requests$/);
  await expect(page.getByRole("heading", { name: "Requests", level: 1 })).toBeVisible();
});
