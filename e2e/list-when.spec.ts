// Issue 41, item 5: lists by an instant or a window say when. "Entering outzone next week" shows
// when each domain enters (ahead: the forecast) and why, sorts by it and exports it; a domain kept in
// the zone by serverInzoneManual says that the request's end is why it will leave; "had serverBlocked
// at T" shows the states held at T, not today's.
import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { pragueWallTime, shownAt, signInAsAdmin, signInAsNewUser } from "./helpers";

const rows = (page: Page) => page.locator("table.objects-table tbody tr");
const column = (page: Page, id: string) => page.locator(`table.objects-table tbody td.col-${id}`);
/** A wall time `ms` from now in the registry's zone, as the list's URL takes it. */
const wall = (ms: number) =>
  new Intl.DateTimeFormat("sv-SE", { timeZone: "Europe/Prague", dateStyle: "short", timeStyle: "short" })
    .format(Date.now() + ms)
    .replace(" ", "T");
const DAY = 86_400_000;
/** The instants of a column as shown ("2026-12-03 10:00 CET"), without the zone: in English they sort as text. */
const instants = async (page: Page, id: string) =>
  (await column(page, id).locator(".instant").allTextContents()).map((text) => text.replace(/ [A-Z]{3,4}$/, ""));

test("entering outzone next week: when each domain enters, ahead, why; sorted by it both ways; in the CSV", async ({ page }, testInfo) => {
  await signInAsAdmin(page);
  // Every row on one page (the demo has a few dozen), so both orders hold the same rows.
  const week = `type=domain&states=outzone&mode=entered&from=${wall(60_000)}&to=${wall(7 * DAY)}&size=500`;
  await page.goto(`/objects?${week}`);
  await expect(page.getByRole("columnheader", { name: /^From/ })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: /^Until/ })).toBeVisible();
  await expect(page.locator(".when-caption")).toContainText("From and Until: the period of outzone this filter found, in Europe/Prague");
  const count = await rows(page).count();
  expect(count).toBeGreaterThan(1);
  // Every entry lies ahead: marked so, with its cause (the demo's are expirations).
  await expect(column(page, "from").locator(".ahead")).toHaveCount(count);
  await expect(column(page, "from").locator(".cause")).toHaveCount(count);
  const causes = await column(page, "from").locator(".cause").allTextContents();
  expect(causes.every((cause) => /^(out of the zone: |its )/.test(cause))).toBe(true);
  expect(causes.some((cause) => /unguarded since .* \(expired \d{4}-\d{2}-\d{2}\)/.test(cause))).toBe(true);
  await page.screenshot({ path: testInfo.outputPath("entering-outzone-next-week.png") });

  // Sorted by when they enter: the header is a link, then the other way round.
  await page.getByRole("link", { name: /^From/ }).click();
  await expect(page).toHaveURL(/[?&]sort=from\b/);
  const ascending = await instants(page, "from");
  expect(ascending.length).toBe(count);
  expect([...ascending].sort()).toEqual(ascending);
  await page.getByRole("link", { name: /^From/ }).click();
  await expect(page).toHaveURL(/[?&]sort=-from\b/);
  await expect.poll(() => instants(page, "from")).toEqual([...ascending].sort().reverse());

  // The CSV has the same columns, in the same order.
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const csv = (await readFile((await (await downloading).path()) as string, "utf8")).trimEnd().split("\r\n");
  expect(csv[0]).toBe(
    "id,name,type,sponsoring_registrar,created,expires,states,pending_requests,period_state,period_from,period_until,change_ahead,change_cause",
  );
  expect(csv.length - 1).toBe(count);
  const froms = csv.slice(1).map((line) => line.split(",")[9]);
  expect([...froms].sort().reverse()).toEqual(froms);
  expect(csv.slice(1).every((line) => /,outzone,[^,]+,[^,]*,from,/.test(line))).toBe(true);
});

test("a domain kept in the zone by serverInzoneManual says the request's end is why it will leave it", async ({ page }, testInfo) => {
  await signInAsNewUser(page, "wanda", "operator");
  // A domain out of the zone now because it expired long ago.
  await page.goto("/objects?type=domain&states=outzone,expired&state_match=all");
  const link = page.locator("table.objects-table tbody td.col-name a").nth(20);
  const name = (await link.textContent()) as string;
  await link.click();
  await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
  const form = page.getByRole("form", { name: "Request a state" });
  await form.getByLabel("State").selectOption("serverInzoneManual");
  await form.getByLabel(/^Start/).fill(pragueWallTime(1));
  await form.getByLabel(/^End/).fill(pragueWallTime(3));
  await form.getByLabel(/^Reason/).fill("court order 41/2026");
  await form.getByRole("button", { name: "Create request" }).click();
  await expect(form.locator(".form-ok")).toHaveText(/^Request \d+: serverInzoneManual on /);
  const request = /^Request (\d+)/.exec((await form.locator(".form-ok").textContent()) as string)?.[1];

  // It leaves the zone tomorrow and enters it again in three days: each said, with its cause.
  const window = `type=domain&q=${encodeURIComponent(name)}&states=outzone&from=${wall(60_000)}&to=${wall(7 * DAY)}`;
  await page.goto(`/objects?${window}&mode=left`);
  await expect(rows(page)).toHaveCount(1);
  await expect(column(page, "until")).toContainText(new RegExp(shownAt(pragueWallTime(1))));
  await expect(column(page, "until").locator(".cause")).toHaveText(
    new RegExp(`^its serverInzoneManual request ${request} starts: “court order 41/2026”$`),
  );
  await page.goto(`/objects?${window}&mode=entered`);
  await expect(rows(page)).toHaveCount(1);
  await expect(column(page, "from")).toContainText(new RegExp(shownAt(pragueWallTime(3))));
  await expect(column(page, "from").locator(".ahead")).toHaveText("ahead");
  await expect(column(page, "from").locator(".cause")).toHaveText(
    new RegExp(`^its serverInzoneManual request ${request} ends: “court order 41/2026”; out of the zone: unguarded since `),
  );
  await page.screenshot({ path: testInfo.outputPath("kept-in-zone-leaves.png"), fullPage: true });
});

test("had serverBlocked at T: the states held at T, and when the block began and ended", async ({ page }, testInfo) => {
  await signInAsAdmin(page);
  const at = wall(-3 * DAY);
  await page.goto(`/objects?states=serverBlocked&mode=at&at=${at}`);
  await expect(page.getByRole("columnheader", { name: /^States then/ })).toBeVisible();
  await expect(page.locator(".when-caption")).toContainText(`States then: at ${at.replace("T", " ")}`);
  const count = await rows(page).count();
  expect(count).toBeGreaterThan(0);
  for (const cell of await column(page, "statesAt").allTextContents()) expect(cell).toContain("serverBlocked");
  // Every block listed began by T; none of those instants lies ahead.
  const begun = await instants(page, "from");
  expect(begun.length).toBe(count);
  for (const instant of begun) expect(instant <= at.replace("T", " ")).toBe(true);
  await expect(column(page, "from").locator(".ahead")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("had-serverblocked-at-t.png") });
  // On a phone, the columns are labelled rows of their own.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(column(page, "statesAt").first()).toHaveAttribute("data-label", /^States then/);
  await page.screenshot({ path: testInfo.outputPath("had-serverblocked-at-t-phone.png"), fullPage: true });
});
