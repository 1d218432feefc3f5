import { expect, test } from "@playwright/test";
import { pragueWallTime, signInAsAdmin } from "./helpers";

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test("support opens an expired domain out of the zone, reads why, zooms the timeline, hovers a bar and follows the registrant", async ({
  page,
}, testInfo) => {
  await page.goto("/objects?type=domain&states=outzone,expired&state_match=all&sort=-expires");
  const first = page.locator("table.objects-table tbody td.col-name a").first();
  const name = (await first.textContent()) as string;
  await first.click();
  await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();

  // Current states and why they hold, in words.
  const states = page.locator("table.states-now");
  const row = (state: string) => states.locator("tr", { has: page.getByRole("cell", { name: state, exact: true }) });
  await expect(row("expired").locator("td.why")).toHaveText(/^expiration date \d{4}-\d{2}-\d{2} ≤ today \(\d{4}-\d{2}-\d{2}\)$/);
  await expect(row("outzone").locator("td.why")).toHaveText(/^out of the zone: /);
  await expect(page.getByRole("region", { name: "What this means now" })).toContainText("not in the DNS zone");
  await page.screenshot({ path: testInfo.outputPath("object-page.png"), fullPage: true });

  // The timeline: a lane per state, zoom, hover.
  const timeline = page.locator(".timeline");
  await expect(timeline.getByRole("button", { name: "Last year" })).toHaveAttribute("aria-pressed", "true");
  await timeline.getByRole("button", { name: "All" }).click();
  await expect(timeline.getByRole("button", { name: "All" })).toHaveAttribute("aria-pressed", "true");
  await expect(timeline.getByRole("img")).toHaveAttribute("aria-label", "State timeline, all its states");
  // Expired since today: at this zoom its recorded bar ends at now, a sliver; the keyboard's way to it
  // (every bar takes focus and names itself) shows the same tip as the mouse.
  const bar = timeline.locator('rect.bar[data-state="expired"]').first();
  await bar.focus();
  const tip = page.getByRole("tooltip");
  await expect(tip).toHaveText(/^expired: \d{4}-\d{2}-\d{2} \d{2}:\d{2} CES?T → now \(in force\)$/);
  await timeline.screenshot({ path: testInfo.outputPath("object-timeline.png") });
  await timeline.getByRole("button", { name: "Last month" }).click();
  await expect(timeline.getByRole("img")).toHaveAttribute("aria-label", "State timeline, last month");
  // The same history as a table.
  await page.getByText(/^History as a table/).click();
  await expect(page.locator(".history-table tbody tr").first()).toBeVisible();

  // Follow the registrant.
  const registrant = page.locator(".fact", { hasText: "Registrant" }).getByRole("link");
  const handle = (await registrant.textContent()) as string;
  await registrant.click();
  await expect(page.getByRole("heading", { name: handle, exact: true })).toBeVisible();
  await expect(page.locator("table.states-now")).toContainText(/referenced by \d+ domains? as registrant/);
  await page.screenshot({ path: testInfo.outputPath("registrant-page.png"), fullPage: true });
});

test("a domain about to expire: the page foresees the warning e-mail, leaving the zone and the deletion letter", async ({
  page,
}, testInfo) => {
  // The latest expiration among domains in their expiration warning: not expired yet, in the zone.
  await page.goto("/objects?type=domain&states=expirationWarning&sort=-expires");
  await page.locator("table.objects-table tbody td.col-name a").first().click();
  const meaning = page.getByRole("region", { name: "What this means now" });
  await expect(meaning).toContainText("The domain is in the DNS zone.");
  await expect(meaning).toContainText(
    /If nothing changes, the e-mail warning that it leaves the zone is due on \d{4}-\d{2}-\d{2} 00:00 CES?T \(outzoneUnguardedWarning\)\./,
  );
  await expect(meaning).toContainText(/If nothing changes, it leaves the DNS zone on \d{4}-\d{2}-\d{2} 14:00 CES?T\./);
  await expect(meaning).toContainText(
    /If nothing changes, the deletion warning letter is due on \d{4}-\d{2}-\d{2} 00:00 CES?T \(deleteWarning\)\./,
  );
  await meaning.screenshot({ path: testInfo.outputPath("object-what-next.png") });
});

test("unknown ids and names give a 404 that offers a search; a deleted object shows a banner; a name resolves to its object", async ({
  page,
}) => {
  const missing = await page.goto("/objects/999999999");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("link", { name: /Search the object list for “999999999”/ })).toBeVisible();
  const unknown = await page.goto("/objects/by-name/no-such-domain.cz?type=domain");
  expect(unknown?.status()).toBe(404);
  await page.getByRole("link", { name: /Search the object list/ }).click();
  await expect(page).toHaveURL(/q=no-such-domain\.cz/);

  // A deleted object: its history, under a banner.
  await page.goto("/objects?type=domain&deleted=only");
  await page.locator("table.objects-table tbody td.col-name a").first().click();
  await expect(page.getByRole("status").filter({ hasText: "Deleted on" })).toContainText(
    /Deleted on \d{4}-\d{2}-\d{2} \d{2}:\d{2} CES?T\./,
  );
  await expect(page.getByRole("heading", { name: "State history" })).toBeVisible();

  await page.goto("/objects?type=domain&size=25");
  const name = (await page.locator("table.objects-table tbody td.col-name a").first().textContent()) as string;
  await page.goto(`/objects/by-name/${encodeURIComponent(name.toUpperCase())}?type=domain`);
  await expect(page).toHaveURL(/\/objects\/\d+$/);
  await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
});

test("what the page foresees agrees with the states: no zone warning while out of it, and a scheduled outzone period says when it returns", async ({
  page,
}) => {
  await signInAsAdmin(page);
  page.on("dialog", (dialog) => dialog.accept());
  // Out of the zone: the warning that it will leave the zone is not promised.
  await page.goto("/objects?type=domain&states=outzone");
  const links = page.locator("table.objects-table tbody td.col-name a");
  for (const i of [0, 1, 2, 3, 4]) {
    await page.goto("/objects?type=domain&states=outzone");
    await links.nth(i).click();
    const meaning = page.getByRole("region", { name: "What this means now" });
    await expect(meaning).toContainText("The domain is not in the DNS zone");
    await expect(meaning).not.toContainText("the e-mail warning that it leaves the zone");
  }

  // In the zone, with a serverOutzoneManual period scheduled: when it leaves and when it returns.
  await page.goto(
    "/objects?type=domain&states=outzone,serverOutzoneManual,serverInzoneManual,serverBlocked,expired&state_match=any&mode=not",
  );
  await links.nth(25).click();
  const form = page.getByRole("form", { name: "Request a state" });
  const from = pragueWallTime(5);
  const to = pragueWallTime(9);
  await form.getByLabel("State").selectOption("serverOutzoneManual");
  await form.getByLabel(/^Start/).fill(from);
  await form.getByLabel(/^End/).fill(to);
  await form.getByLabel(/^Reason/).fill("foresight test");
  await form.getByRole("button", { name: "Create request" }).click();
  await expect(form.locator(".form-ok")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("region", { name: "What this means now" })).toContainText(
    new RegExp(`it leaves the DNS zone on ${from.replace("T", " ")} CES?T and returns to it on ${to.replace("T", " ")} CES?T\\.`),
  );
});

test("a domain out of the zone for two causes names both, each since when, instead of the later one since the earlier start", async ({
  page,
}) => {
  // Out of the zone for lack of an nsset, with no manual request: then kept out by a request too.
  const links = page.locator("table.objects-table tbody td.col-name a");
  let found = false;
  for (let i = 0; i < 10 && !found; i++) {
    await page.goto("/objects?type=domain&states=nssetMissing,outzone&state_match=all");
    await links.nth(i).click();
    const why = page.locator("table.states-now tr", { has: page.getByRole("cell", { name: "outzone", exact: true }) }).locator("td.why");
    if ((await why.textContent()) !== "out of the zone: the domain has no nsset") continue;
    found = true;
    const form = page.getByRole("form", { name: "Request a state" });
    await form.getByLabel("State").selectOption("serverOutzoneManual");
    await form.getByLabel(/^Reason/).fill("two causes");
    page.once("dialog", (dialog) => dialog.accept());
    await form.getByRole("button", { name: "Create request" }).click();
    await expect(form.locator(".form-ok")).toBeVisible();
    await page.reload();
    // The period began with the missing nsset; the request holds from its own start, said as such.
    await expect(why).toHaveText(
      /^out of the zone: the domain has no nsset; and serverOutzoneManual is requested from \d{4}-\d{2}-\d{2} \d{2}:\d{2} (CES?T|Europe\/Prague)$/,
    );
  }
  expect(found).toBe(true);
});
