import { expect, test } from "@playwright/test";
import { E2E_ADMIN_PASSWORD, signInAsAdmin } from "./helpers";

test("the overview is the start page: its charts have data, and a bar and a day open the list of exactly those objects", async ({
  page,
}, testInfo) => {
  await page.goto("/login");
  await page.getByLabel("User name").fill("admin");
  await page.getByLabel("Password").fill(E2E_ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Overview", exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  // Counted now, not a minute ago, so the figures and the lists see the same data.
  await page.getByRole("link", { name: "count again now" }).click();
  await expect(page).toHaveURL(/\/\?refresh=1$/);

  const bars = page.locator("svg.bar-chart rect.chart-bar");
  expect(await bars.count()).toBeGreaterThan(10);
  await expect(page.locator('svg.line-chart circle[data-series="entered"]')).toHaveCount(30);
  await expect(page.locator('svg.line-chart circle[data-series="left"]')).toHaveCount(30);
  await expect(page.getByRole("link", { name: /requests? start or end in the next 7 days/ })).toBeVisible();
  await expect(page.getByText(/Last run .*; history exact up to/)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("overview.png"), fullPage: true });

  // The outzone bar: its figure is the list's total.
  const outzone = page.getByRole("link", { name: /^outzone: [\d,]+ objects/ });
  const figure = Number(/^outzone: ([\d,]+)/.exec((await outzone.getAttribute("aria-label")) as string)?.[1].replaceAll(",", ""));
  expect(figure).toBeGreaterThan(0);
  await outzone.click();
  await expect(page).toHaveURL(/\/objects\?states=outzone$/);
  const total = Number(((await page.locator(".page-head p").textContent()) as string).replace(/[^\d]/g, ""));
  expect(total).toBe(figure);

  // Yesterday's "entered" point: the objects that entered a state that day.
  await page.goto("/?refresh=1");
  const point = page.locator('svg.line-chart a:has(circle[data-series="entered"])').nth(28);
  const label = (await point.getAttribute("aria-label")) as string;
  const entered = Number(/: ([\d,]+) objects entered/.exec(label)?.[1].replaceAll(",", ""));
  await point.click();
  await expect(page).toHaveURL(/mode=entered/);
  await expect(page.getByRole("radio", { name: "entered in" })).toBeChecked();
  // The day's range is in the form as the registry's wall time, so applying the form keeps it.
  await expect(page.getByLabel("Any time from")).toHaveValue(/^\d{4}-\d{2}-\d{2} 00:00$/);
  await page.screenshot({ path: testInfo.outputPath("list-entered.png"), fullPage: true });
  const listed = Number(((await page.locator(".page-head p").textContent()) as string).replace(/[^\d]/g, ""));
  expect(listed).toBe(entered);
});

// Issue 41, item 4: the overview recounted for 5–11 s on the first visit after each minute, and
// signing in landed there. Its figures are now taken in the background: a page shows the newest
// kept, dated, and never counts while the person waits (the e2e server takes them again after
// OVERVIEW_COUNTS_SECONDS=5, at least: each taking gets at most 2 % of the database's time).
test("the overview never counts while a person waits: past their time it shows the kept figures at once, and the background renews them", async ({
  page,
}) => {
  await signInAsAdmin(page);
  const asOf = async () => {
    const time = page.locator(".page-head time");
    await expect(time).toBeVisible();
    return Date.parse((await time.getAttribute("datetime")) as string);
  };
  const visits: { asked: number; shown: number }[] = [];
  // Visits until the figures were renewed three times (each renewal began in the background: by
  // the server's timer, or after a visit found them old).
  while (new Set(visits.map((v) => v.shown)).size < 4) {
    const asked = Date.now();
    await page.goto("/");
    visits.push({ asked, shown: await asOf() });
    await page.waitForTimeout(1_000);
  }
  const shown = visits.map((v) => v.shown);
  expect(shown).toEqual([...shown].sort((a, b) => a - b));
  // Never a count made for the visit: a page that counted for itself would show, on the first visit
  // to see each renewal, figures begun after it was asked. A renewal the timer began while a visit
  // was on its way may be shown so (CI saw one 66 ms after); every renewal so cannot be chance.
  const renewals = [...new Set(shown)].slice(1);
  const firstSeen = renewals.map((value) => visits.find((v) => v.shown === value) as { asked: number; shown: number });
  expect(firstSeen.filter((v) => v.shown < v.asked).length).toBeGreaterThan(0);
});
