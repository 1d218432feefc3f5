// Issue 27, item 1: every page fits the screen at a laptop's 1,366 px and a phone's 390 px. Nothing
// scrolls sideways or reaches past the right edge (a table in a box that scrolls sideways counts as
// not fitting), and the object list shows whole rows on its first screen.
import { expect, type Page, test } from "@playwright/test";
import { signInAsAdmin } from "./helpers";

/** What reaches past the viewport's right edge, or scrolls sideways, on the page as it is. */
function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    const label = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).trim().replace(/\s+/g, ".")}` : ""}`;
    if (document.documentElement.scrollWidth > width + 1) found.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    // Parts hidden for the eye but kept for screen readers (clipped to a pixel) are not looked at.
    const clipped = (el: Element | null): boolean =>
      el !== null && el !== document.body && (getComputedStyle(el).clip !== "auto" || clipped(el.parentElement));
    for (const el of document.querySelectorAll("main *")) {
      if (clipped(el)) continue;
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.height > 0 && box.right > width + 1) found.push(`${label(el)} ends at ${Math.round(box.right)} px`);
      if (el instanceof HTMLElement && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible")
        found.push(`${label(el)} scrolls sideways (${el.scrollWidth} in ${el.clientWidth} px)`);
    }
    return [...new Set(found)].slice(0, 12);
  });
}

/** A wall time `ms` from now in the registry's zone, as the list's URL takes it. */
const wallIn = (ms: number) =>
  new Intl.DateTimeFormat("sv-SE", { timeZone: "Europe/Prague", dateStyle: "short", timeStyle: "short" })
    .format(Date.now() + ms)
    .replace(" ", "T");

const widths = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
];

test("no page scrolls sideways or reaches past the edge at 1,366 and 390 px", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await signInAsAdmin(page);
  // An object with requests, for the object page's requests table.
  await page.goto("/requests");
  const objectHref = await page.locator("table.requests tbody tr td a[href^='/objects/']").first().getAttribute("href");
  expect(objectHref).toBeTruthy();
  // A case's page, when a case was opened (e2e/cases.spec.ts opens one).
  await page.goto("/cases");
  const caseHref = await page
    .locator("table.cases tbody tr td a[href^='/cases/']")
    .first()
    .getAttribute("href", { timeout: 1_000 })
    .catch(() => null);
  const pages = [
    "/",
    "/objects",
    "/objects?type=domain&states=outzone",
    // The lists that say when (issue 41, item 5): a window ahead, and an instant behind.
    `/objects?type=domain&states=outzone&mode=entered&from=${wallIn(60_000)}&to=${wallIn(7 * 86_400_000)}`,
    `/objects?states=serverBlocked,outzone&state_match=any&mode=at&at=${wallIn(-3 * 86_400_000)}`,
    objectHref as string,
    "/requests",
    "/requests/bulk",
    "/audit",
    "/shadow",
    "/admin/users",
    "/admin/tokens",
    "/preferences",
    "/cases",
    ...(caseHref ? [caseHref] : []),
    "/approvals",
    "/admin/approvals",
  ];
  const problems: string[] = [];
  for (const size of widths) {
    await page.setViewportSize(size);
    for (const path of pages) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      for (const problem of await overflows(page)) problems.push(`${size.width} px ${path}: ${problem}`);
      // On a phone a table is a card per row: every cell says which column it is.
      const unlabelled = await page.locator("main table.data-table td:not([data-label]):not([colspan])").count();
      if (unlabelled > 0) problems.push(`${size.width} px ${path}: ${unlabelled} table cells without their column's name`);
      const shot = `${size.width}${path.replace(/[^a-z0-9]+/gi, "-")}`;
      await page.screenshot({ path: testInfo.outputPath(`${shot}.png`), fullPage: true });
      // The first table's first rows as a person sees them, for looking at.
      const table = page.locator("main table:visible").first();
      if (await table.count()) {
        await table.evaluate((el) => el.scrollIntoView({ block: "start" }));
        await page.screenshot({ path: testInfo.outputPath(`${shot}-table.png`) });
      }
    }
  }
  expect(problems).toEqual([]);
});

test("the object list shows whole rows on its first screen at 1,366 px", async ({ page }, testInfo) => {
  await signInAsAdmin(page);
  await page.setViewportSize({ width: 1366, height: 768 });
  // Whole rows above the fold: the filter form is compact once states are chosen, and the badges
  // lie side by side. Expired domains out of the zone carry a dozen states each; other rows fewer.
  for (const [path, rows] of [
    ["/objects?type=domain&states=outzone", 2],
    ["/objects?type=domain", 2],
  ] as const) {
    await page.goto(path);
    await expect(page.locator("table.objects-table tbody tr").first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`first-screen${path.replace(/[^a-z0-9]+/gi, "-")}.png`) });
    const bottoms = await page
      .locator("table.objects-table tbody tr")
      .evaluateAll((all) => all.map((r) => r.getBoundingClientRect().bottom));
    expect(bottoms.filter((b) => b <= 768).length, path).toBeGreaterThanOrEqual(rows);
  }
});

test("on a phone the header stays small and the object list's first row is on the first screen", async ({ page }, testInfo) => {
  await signInAsAdmin(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/objects?type=domain&states=outzone");
  await expect(page.locator("table.objects-table tbody tr").first()).toBeVisible();
  // No table header on a phone: the whole page is chosen from the bar above the list.
  await expect(page.getByRole("button", { name: "Choose all 50 on this page" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("phone-first-screen.png") });
  const header = await page.locator("header.topbar").boundingBox();
  expect(header?.height ?? 0).toBeLessThanOrEqual(844 * 0.2);
  const firstRow = await page.locator("table.objects-table tbody tr").first().boundingBox();
  expect(firstRow?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(844);
});

test("on a phone, what each state badge means can be read without hovering", async ({ page }, testInfo) => {
  await signInAsAdmin(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/objects?type=domain&states=outzone");
  const key = page.locator("details.state-key");
  await key.getByText("What the states on this page mean").click();
  const outzone = key.locator("dl > div").filter({ has: page.locator("dt", { hasText: /^outzone$/ }) });
  await expect(outzone.locator("dd")).toContainText("automatic");
  await expect(outzone.locator("dd")).toBeVisible();
  await key.screenshot({ path: testInfo.outputPath("state-key-phone.png") });
});
