import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { pragueWallAt, signInAsAdmin } from "./helpers";

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

const rows = (page: Page) => page.locator("table.objects-table tbody tr");
const column = (page: Page, id: string) => page.locator(`table.objects-table tbody td.col-${id}`);

test("support finds outzone domains of one registrar, sorts by expiration, pages with the browser, exports and opens one", async ({
  page,
}, testInfo) => {
  await page.goto("/objects");
  await expect(page.getByRole("heading", { name: "Objects" })).toBeVisible();
  await expect(rows(page)).toHaveCount(50);
  await page.screenshot({ path: testInfo.outputPath("objects-unfiltered.png"), fullPage: true });

  // "has outzone now", domains only.
  const form = page.getByRole("form", { name: "Filter objects" });
  await form.getByLabel("Type").selectOption("domain");
  await form.getByText("Choose states").click();
  await form.getByRole("checkbox", { name: "outzone", exact: true }).check();
  // Each choice says what the state is and which types it is for.
  await expect(form.locator("label", { has: page.getByRole("checkbox", { name: "outzone", exact: true }) })).toHaveAttribute(
    "title",
    /zone.* \(domain\)$/,
  );
  await expect(form.locator("label", { has: page.getByRole("checkbox", { name: "serverBlocked", exact: true }) })).toHaveAttribute(
    "title",
    /\(contact, domain\)$/,
  );
  await expect(form.getByRole("radio", { name: "has now" })).toBeChecked();
  await form.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/[?&]states=outzone\b/);
  await expect(page).toHaveURL(/[?&]type=domain\b/);
  await expect(rows(page).first()).toBeVisible();
  for (const cell of await column(page, "states").allTextContents()) expect(cell).toContain("outzone");
  // Each badge explains its state on hover: the catalogue's description and what kind of state it is.
  await expect(column(page, "states").first().getByText("outzone", { exact: true })).toHaveAttribute(
    "title",
    /zone.* — automatic, external \(shown to registrars\)$/,
  );

  // Narrow by the registrar of the first result.
  const registrar = (await column(page, "registrar").first().textContent()) as string;
  await form.getByLabel("Sponsoring registrar").selectOption(registrar);
  await form.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]registrar=${registrar}\\b`));
  await expect(page.locator(".page-head")).not.toContainText("about");
  const total = Number(((await page.locator(".page-head p").textContent()) as string).replace(/[^\d]/g, ""));
  expect(total).toBeGreaterThan(50);
  expect(new Set(await column(page, "registrar").allTextContents())).toEqual(new Set([registrar]));

  // Sort by expiration: the header is a link, the order is in the URL.
  await page.getByRole("link", { name: /^Expires/ }).click();
  await expect(page).toHaveURL(/[?&]sort=expires\b/);
  await expect(page.getByRole("columnheader", { name: /Expires/ })).toHaveAttribute("aria-sort", "ascending");
  const firstPage = await column(page, "expires").allTextContents();
  expect([...firstPage].sort()).toEqual(firstPage);
  const firstNames = await column(page, "name").allTextContents();
  await page.screenshot({ path: testInfo.outputPath("objects-outzone-by-expiration.png"), fullPage: true });
  await page.screenshot({ path: testInfo.outputPath("objects-outzone-top.png") });

  // Forward, then back and forward again with the browser's buttons.
  await page.getByRole("link", { name: "Next ›" }).click();
  await expect(page).toHaveURL(/[?&]after=/);
  await expect(rows(page).first()).toBeVisible();
  const secondNames = await column(page, "name").allTextContents();
  expect(secondNames.filter((name) => firstNames.includes(name))).toEqual([]);
  const secondExpires = await column(page, "expires").allTextContents();
  expect(secondExpires[0] >= firstPage[firstPage.length - 1]).toBe(true);
  await page.goBack();
  await expect(page).not.toHaveURL(/[?&]after=/);
  await expect(column(page, "name").first()).toHaveText(firstNames[0]);
  await page.goForward();
  await expect(page).toHaveURL(/[?&]after=/);
  await expect(column(page, "name").first()).toHaveText(secondNames[0]);
  await page.getByRole("link", { name: "‹ Previous" }).click();
  await expect(column(page, "name").first()).toHaveText(firstNames[0]);

  // The whole filtered result as CSV, not just the page.
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const download = await downloading;
  // Named with the registry's wall time (Europe/Prague), as every time on its pages.
  const stamps = [0, 60_000, 120_000].map((ago) =>
    pragueWallAt(Date.now() - ago)
      .replace(/[-:]/g, "")
      .replace("T", "-"),
  );
  expect(stamps.map((stamp) => `objects-${stamp}.csv`)).toContain(download.suggestedFilename());
  const csv = await readFile((await download.path()) as string, "utf8");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe("id,name,type,sponsoring_registrar,created,expires,states,pending_requests");
  expect(lines).toHaveLength(total + 1);
  const records = lines.slice(1).map((line) => line.split(","));
  expect(records.every((r) => r[2] === "domain" && r[3] === registrar && r[6].split(" ").includes("outzone"))).toBe(true);
  const exported = records.map((r) => r[5]);
  expect([...exported].sort()).toEqual(exported);
  expect(records.slice(0, 50).map((r) => r[1])).toEqual(firstNames);
  await expect(page.getByText(`Exported ${total.toLocaleString("en")} rows`)).toBeVisible();

  // Open a result.
  await page.getByRole("link", { name: firstNames[0], exact: true }).click();
  await expect(page).toHaveURL(/\/objects\/\d+$/);
  await expect(page.getByRole("heading", { name: firstNames[0] })).toBeVisible();
  await expect(page.getByRole("cell", { name: "outzone", exact: true })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("object-opened.png"), fullPage: true });
});

test("a malformed URL shows what was wrong and a usable page", async ({ page }, testInfo) => {
  const response = await page.goto("/objects?page=-3&size=abc&type=zone&states=outzone,bogus&mode=at&at=2026-02-30&after=xyz");
  expect(response?.status()).toBe(200);
  const notice = page.getByRole("status").filter({ hasText: "Unknown object type" });
  await expect(notice).toContainText("Unknown object type “zone”");
  await expect(notice).toContainText("Unknown state “bogus”");
  await expect(notice).toContainText("The instant “2026-02-30” is not a date or time");
  await expect(notice).toContainText("Page size “abc” is not one of 25, 50, 100, 500");
  await expect(notice).toContainText("the page number in the link was not used");
  await expect(notice).toContainText("page position in the link is damaged");
  await expect(rows(page).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("objects-bad-url.png"), fullPage: true });

  await page.goto("/objects?q=%27%3B%20DROP%20TABLE%20domain%3B--");
  await expect(page.getByText("No objects match these filters.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Clear all filters" })).toBeVisible();
});

test("an exact domain name or handle goes straight to its object; columns can be hidden, on every browser of that person; sorting works by keyboard", async ({
  page,
  browser,
}) => {
  await page.goto("/objects?type=contact&size=25");
  const handle = (await column(page, "name").first().textContent()) as string;
  await page.goto(`/objects?q=${encodeURIComponent(handle.toLowerCase())}`);
  await expect(page).toHaveURL(/\/objects\/\d+$/);
  await expect(page.getByRole("heading", { name: handle })).toBeVisible();

  await page.goto("/objects?type=domain");
  await page.getByText("Columns", { exact: true }).click();
  await page.getByRole("checkbox", { name: "Created" }).uncheck();
  await expect(page.getByRole("columnheader", { name: /Created/ })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("columnheader", { name: /Created/ })).toHaveCount(0);
  // Kept with the person, not the browser: another browser (no shared storage) signed in as them shows the same.
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await signInAsAdmin(other);
  await other.goto("/objects?type=domain");
  await expect(other.getByRole("columnheader", { name: /Expires/ })).toHaveCount(1);
  await expect(other.getByRole("columnheader", { name: /Created/ })).toHaveCount(0);
  await elsewhere.close();
  await page.getByText("Columns", { exact: true }).click();
  await page.getByRole("checkbox", { name: "Created" }).check();
  await expect(page.getByRole("columnheader", { name: /Created/ })).toHaveCount(1);

  await page.getByRole("link", { name: /^Name \/ handle/ }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]sort=-name\b/);
  const names = await column(page, "name").allTextContents();
  const lower = names.map((n) => n.toLowerCase());
  expect([...lower].sort().reverse()).toEqual(lower);
});

test("a count too long to finish shows a bound that was counted, never an estimate; 'count them all' matches the export", async ({
  page,
}) => {
  await signInAsAdmin(page);
  // A "contains" search over most domains: counting them all is past the page's budget.
  await page.goto("/objects?type=domain&q=.cz");
  const count = page.locator(".page-head p");
  // A bound that was counted: a search by name alone counts up to 2,000 as it chooses how to read
  // (else within the page's budget: 10,000, or on a busy machine 1,000, or none: "many").
  await expect(count).toHaveText(/^(more than (10,000|2,000|1,000)|many) matching domains Count them all$/);
  await expect(count).not.toContainText("estimate");

  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const csv = await readFile((await (await downloading).path()) as string, "utf8");
  const exported = csv.trimEnd().split("\r\n").length - 1;
  expect(exported).toBeGreaterThan(10_000);

  await count.getByRole("link", { name: "Count them all" }).click();
  await expect(page).toHaveURL(/[?&]count=all\b/);
  await expect(count).toHaveText(`${exported.toLocaleString("en")} matching domains`);
  // Paging on does not count them all again.
  await expect(page.getByRole("link", { name: /^Next/ })).not.toHaveAttribute("href", /count=all/);
});

test("a state filter that reaches into the future lists the forecast, says so, and exports the same objects", async ({ page }) => {
  await signInAsAdmin(page);
  const wall = (instant: number) =>
    new Intl.DateTimeFormat("sv-SE", { timeZone: "Europe/Prague", dateStyle: "short", timeStyle: "short" })
      .format(instant)
      .replace(" ", "T");
  const [from, to] = [wall(Date.now() + 60_000), wall(Date.now() + 7 * 86_400_000)];
  await page.goto(`/objects?type=domain&states=outzone&mode=entered&from=${from}&to=${to}`);
  await expect(page.getByRole("status").filter({ hasText: "this list is a forecast" })).toContainText(
    "the states the rules and the scheduled requests will give if nothing else changes",
  );
  // The demo registry has domains leaving the zone in the coming week: the forecast finds them.
  const heading = page.locator(".page-head p");
  await expect(heading).toHaveText(/^\d[\d,]* matching domains?$/);
  const shown = Number((await heading.textContent())?.replace(/\D/g, ""));
  expect(shown).toBeGreaterThan(0);
  await expect(rows(page)).toHaveCount(Math.min(shown, 50));
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const csv = await readFile((await (await downloading).path()) as string, "utf8");
  expect(csv.trimEnd().split("\r\n").length - 1).toBe(shown);
  // A filter wholly in the past is the recorded history, with no such notice.
  await page.goto("/objects?type=domain&states=outzone&mode=entered&from=2025-01-01&to=2025-02-01");
  await expect(page.getByText("this list is a forecast")).toHaveCount(0);
});

test("the timeline's recorded bars end at now; only what is foreseen runs past it", async ({ page }, testInfo) => {
  await signInAsAdmin(page);
  // A domain out of the zone now: its outzone row is recorded and still in force.
  await page.goto("/objects?type=domain&states=outzone");
  await page.locator("table.objects-table tbody td.col-name a").first().click();
  const now = page.locator(".timeline line.now-line");
  await expect(now).toHaveCount(1); // a line has no area: attached, not "visible"
  const nowX = Number(await now.getAttribute("x1"));
  const recorded = page.locator('.timeline rect.bar:not(.future)[data-state="outzone"]');
  await expect(recorded.first()).toBeVisible();
  for (const bar of await page.locator(".timeline rect.bar:not(.future)").all()) {
    const [x, width] = [Number(await bar.getAttribute("x")), Number(await bar.getAttribute("width"))];
    // 2 px is the narrowest bar drawn (a state that held for a moment).
    expect(x + Math.max(0, width - 2)).toBeLessThanOrEqual(nowX + 0.01);
  }
  await page.screenshot({ path: testInfo.outputPath("timeline-now.png"), fullPage: true });
});
