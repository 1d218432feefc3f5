// Issue 41, items 2, 3 and 9, on the object list: one selection ("Bulk change" takes exactly the
// ticked rows and says how many; the whole filter is a separate choice with its count; the bar's
// texts never run together), an exact name with other filters lists instead of jumping to the
// object, and the search finds an object by its ROID and by a name written with its trailing dot.
import { expect, type Locator, type Page, test } from "@playwright/test";
import { signInAsAdmin } from "./helpers";

const WIDTHS = [
  { label: "1,366 px", width: 1366, height: 768 },
  { label: "a phone", width: 390, height: 844 },
] as const;

const rows = (page: Page) => page.locator("table.objects-table tbody tr");
const names = (page: Page) => page.locator("table.objects-table tbody td.col-name a");
const heading = (page: Page) => page.locator(".page-head p");

/** The list's count as its heading writes it: "6", "19,012" or "more than 1,000". */
async function shownTotal(page: Page): Promise<string> {
  const text = (await heading(page).textContent()) as string;
  const total = /^(.+?) matching /.exec(text)?.[1];
  expect(total, text).toBeTruthy();
  return total as string;
}

/** The boxes of `items`, in order: none overlaps the next, and on one line they stand apart. */
async function standApart(items: Locator): Promise<void> {
  const boxes = await items.evaluateAll((all) =>
    all.map((item) => {
      const r = item.getBoundingClientRect();
      return { text: item.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    }),
  );
  expect(boxes.length).toBeGreaterThan(1);
  for (let i = 1; i < boxes.length; i++) {
    const [a, b] = [boxes[i - 1], boxes[i]];
    if (a.top < b.bottom && b.top < a.bottom) expect(b.left - a.right, `${a.text} | ${b.text}`).toBeGreaterThanOrEqual(8);
    else expect(b.top, `${a.text} | ${b.text}`).toBeGreaterThanOrEqual(a.bottom - 1);
  }
}

async function fitsWidth(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

for (const { label, width, height } of WIDTHS)
  test(`at ${label}: "Bulk change" takes exactly the ticked rows and says how many; the whole filter is a separate choice with its count`, async ({
    page,
  }, testInfo) => {
    await signInAsAdmin(page);
    await page.setViewportSize({ width, height });
    await page.goto("/objects?type=domain&states=serverBlocked&mode=not&size=25");
    await expect(rows(page)).toHaveCount(25);
    const total = await shownTotal(page);

    // Nothing ticked: the whole filter, said with its count; no action that does not say what it takes.
    const whole = page.getByRole("link", { name: `Bulk change the whole filter (${total} objects)…`, exact: true });
    await expect(whole).toBeVisible();
    await expect(whole).toHaveAttribute("href", /^\/requests\/bulk\?filter=/);
    await expect(page.getByRole("link", { name: "Bulk change these…", exact: true })).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath(`list-none-chosen-${width}.png`) });

    // Three ticked: the bar's button takes those three and says so; the texts stand apart.
    const chosen = (await names(page).allTextContents()).slice(1, 4);
    for (const name of chosen) await page.getByRole("checkbox", { name: `Choose ${name}`, exact: true }).check();
    const bar = page.locator(".selection-bar");
    await expect(bar).toHaveText(/^3 rows chosen Bulk change the 3 chosen objects… Choose all 25 on this page Clear$/);
    await expect(bar).toBeVisible();
    await standApart(bar.locator(":scope > *"));
    const these = bar.getByRole("link", { name: "Bulk change the 3 chosen objects…", exact: true });
    await expect(these).toHaveAttribute("href", /^\/requests\/bulk\?ids=\d+,\d+,\d+$/);
    // The ticked rows' action is the button; the whole filter stays a plain link, with its count.
    const background = (link: Locator) => link.evaluate((a) => getComputedStyle(a).backgroundColor);
    expect(await background(these)).not.toBe("rgba(0, 0, 0, 0)");
    expect(await background(whole)).toBe("rgba(0, 0, 0, 0)");
    await expect(whole).toBeVisible();
    await fitsWidth(page, width);
    await page.locator(".column-picker").scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`list-three-chosen-${width}.png`) });

    await these.click();
    const form = page.getByRole("form", { name: "Bulk change" });
    await expect(form.getByLabel(/^Names or handles/)).toHaveValue(chosen.join("\n"));
    await expect(form).toContainText("3 names");
    await page.goBack();

    // The whole filter is taken only when asked for, by its own link.
    // (Counted again: the same filter, the count perhaps more exact than before.)
    const again = page.locator(".list-tools a.bulk-filter");
    await expect(again).toHaveText(/^Bulk change the whole filter \(.+ objects\)…$/);
    await again.click();
    await expect(page.getByRole("form", { name: "Bulk change" })).toContainText(/the list filter matches/i);
  });

test("an exact name with other filters lists what matches (0, or the object) and keeps them; alone it opens the object", async ({
  page,
}, testInfo) => {
  await signInAsAdmin(page);
  await page.goto("/objects?type=domain&states=serverBlocked&mode=not&size=25");
  const unblocked = (await names(page).first().textContent()) as string;
  await page.goto("/objects?type=domain&states=serverBlocked&size=25");
  await expect(heading(page)).toBeVisible();
  const blocked = (await names(page).count()) > 0 ? await names(page).first().textContent() : null;

  for (const { width, height } of WIDTHS) {
    await page.setViewportSize({ width, height });
    for (const query of [
      `q=${encodeURIComponent(unblocked)}&states=serverBlocked`,
      // An instant long before the demo registry's history: no state was held then.
      `q=${encodeURIComponent(unblocked)}&states=serverBlocked&mode=at&at=2001-01-01T00:00`,
    ]) {
      await page.goto(`/objects?${query}`);
      await expect(page).toHaveURL(/\/objects\?/);
      await expect(page.getByRole("heading", { name: "Objects", exact: true })).toBeVisible();
      await expect(heading(page)).toHaveText(/^0 matching objects/);
      await expect(page.getByText("No objects match these filters.")).toBeVisible();
      // The filters stay as given.
      await expect(page.getByRole("form", { name: "Filter objects" }).getByLabel("Name or handle")).toHaveValue(unblocked);
      await fitsWidth(page, width);
    }
    await page.screenshot({ path: testInfo.outputPath(`exact-name-at-instant-${width}.png`) });

    // A blocked domain with "has serverBlocked now": the object, in the list.
    if (blocked) {
      await page.goto(`/objects?q=${encodeURIComponent(blocked)}&states=serverBlocked`);
      await expect(page).toHaveURL(/\/objects\?/);
      await expect(page.getByRole("link", { name: blocked, exact: true })).toBeVisible();
    }
  }

  // The bare name: straight to the object.
  await page.goto(`/objects?q=${encodeURIComponent(unblocked)}`);
  await expect(page).toHaveURL(/\/objects\/\d+$/);
  await expect(page.getByRole("heading", { name: unblocked, exact: true })).toBeVisible();
});

test("the header search finds an object by its ROID as its page shows it, and by a name written with its trailing dot", async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.goto("/objects?type=domain&size=25");
  const link = names(page).nth(2);
  const name = (await link.textContent()) as string;
  const href = (await link.getAttribute("href")) as string;
  await page.goto(href);
  await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
  const roid = /\b([A-Z]\d{10}-[A-Z0-9]+)\b/.exec((await heading(page).textContent()) as string)?.[1] as string;
  expect(roid).toMatch(/^D\d{10}-CZ$/);

  for (const { width, height } of WIDTHS) {
    await page.setViewportSize({ width, height });
    for (const text of [roid, roid.toLowerCase(), `${name}.`, ` ${name.toUpperCase()}. `]) {
      await page.goto("/requests");
      const search = page.getByRole("searchbox", { name: "Find an object by name, handle or id" });
      await search.fill(text);
      await search.press("Enter");
      await expect(page, text).toHaveURL(new RegExp(`${href}$`));
      await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
    }
  }

  // Asked for as a list, both find it too.
  for (const q of [roid, `${name}.`]) {
    await page.goto(`/objects?q=${encodeURIComponent(q)}&jump=no`);
    await expect(page.getByRole("link", { name, exact: true })).toBeVisible();
  }
  await page.goto(`/objects?q=${encodeURIComponent(roid)}&jump=no`);
  await expect(heading(page)).toHaveText(/^1 matching object\b/);
});
