import { expect, test } from "@playwright/test";
import { pragueWallTime, shownAt, signIn, signInAsNewUser } from "./helpers";

test("an operator schedules a serverOutzoneManual period for next week, sees it scheduled, and cancels it", async ({ page }, testInfo) => {
  await signInAsNewUser(page, "olga", "operator");
  page.on("dialog", (dialog) => dialog.accept());

  // A domain in the zone now.
  await page.goto("/objects?type=domain&states=outzone&mode=not");
  const first = page.locator("table.objects-table tbody td.col-name a").first();
  const name = (await first.textContent()) as string;
  await first.click();
  await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();

  const form = page.getByRole("form", { name: "Request a state" });
  await form.getByLabel("State").selectOption("serverOutzoneManual");
  // 10:00 six days ahead is always within "upcoming 7 days" (seven days ahead is not after 10:00).
  const from = pragueWallTime(6);
  const to = pragueWallTime(13);
  await form.getByLabel(/^Start/).fill(from);
  await form.getByLabel(/^End/).fill(to);
  await form.getByLabel(/^Reason/).fill("court order 1/2026");
  await expect(form.getByRole("status")).toHaveText(
    new RegExp(
      `^${name.replaceAll(".", "\\.")} will get serverOutzoneManual \\(The domain is administratively kept out of zone\\) from ${shownAt(from)} until ${shownAt(to)}\\.$`,
    ),
  );
  // The preview, from the registry's own rules: the manual state and the outzone it causes.
  await form.getByRole("button", { name: "Preview what it does" }).click();
  await expect(form.locator(".preview-result")).toContainText(`${name} gets outzone (The domain isn't generated in the zone) on `);
  await page.screenshot({ path: testInfo.outputPath("request-preview.png"), fullPage: true });
  await form.getByRole("button", { name: "Create request" }).click();
  await expect(form.locator(".form-ok")).toHaveText(
    new RegExp(`^Request (\\d+): serverOutzoneManual on ${name.replaceAll(".", "\\.")} from ${from.replace("T", " ")} CES?T until `),
  );
  const requestId = /^Request (\d+)/.exec((await form.locator(".form-ok").textContent()) as string)?.[1];

  // Pending in the requests table and as a dashed bar on the timeline.
  const row = page.locator("table.requests tbody tr", { has: page.getByRole("cell", { name: requestId, exact: true }) });
  await expect(row).toContainText("scheduled");
  await expect(row).toContainText("court order 1/2026");
  await expect(page.locator('.timeline rect.bar.future[data-state="serverOutzoneManual"]')).toHaveCount(1);
  // "What this means now" says what comes next in date order: the period out of the zone next week
  // and the request that makes it come before whatever the expiration brings later.
  const meaning = page.getByRole("region", { name: "What this means now" });
  await expect(meaning).toContainText(`serverOutzoneManual (scheduled request ${requestId})`);
  const instants = (await meaning.locator("li").allTextContents())
    .map((line) => /\d{4}-\d\d-\d\d \d\d:\d\d/.exec(line)?.[0])
    .filter((at): at is string => at !== undefined);
  expect(instants.length).toBeGreaterThan(1);
  expect(instants).toEqual([...instants].sort());
  await page.screenshot({ path: testInfo.outputPath("request-scheduled.png"), fullPage: true });

  // And on the requests page, among the upcoming ones.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Requests" }).click();
  await page.getByRole("link", { name: "upcoming 7 days" }).click();
  // Narrowed to the object (a page holds 50 requests; the next week may have more).
  await page.getByLabel("Object (name or handle)").fill(name);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/[?&]upcoming=1\b.*[?&]object=|[?&]object=.*[?&]upcoming=1\b/);
  const listed = page.locator("table.requests tbody tr", { has: page.getByRole("cell", { name: requestId, exact: true }) });
  await expect(listed).toContainText("scheduled");
  await expect(listed).toContainText("olga");
  await page.screenshot({ path: testInfo.outputPath("requests-upcoming.png"), fullPage: true });
  await listed.getByRole("link", { name: new RegExp(name.replaceAll(".", "\\.")) }).click();

  // Cancel it: it stays listed, canceled, and leaves the timeline.
  await row.getByLabel(`Reason to cancel request ${requestId}`).fill("order withdrawn");
  await row.getByRole("button", { name: `Cancel request ${requestId}` }).click();
  await expect(row).toContainText("canceled");
  await expect(row).toContainText("order withdrawn");
  await expect(page.locator('.timeline rect.bar.future[data-state="serverOutzoneManual"]')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("request-canceled.png"), fullPage: true });

  // A broken rule is said before anything is sent: an end before the start.
  await form.getByLabel("State").selectOption("serverTransferProhibited");
  await form.getByLabel(/^Start/).fill(to);
  await form.getByLabel(/^End/).fill(from);
  await form.getByLabel(/^Reason/).fill("test");
  await expect(form.getByRole("alert")).toHaveText(/^The end \(.*\) is not after the start \(.*\): the request would be refused\.$/);
  await expect(form.getByRole("button", { name: "Create request" })).toBeDisabled();

  // The canceled request on the requests page, with who canceled it and why.
  await page.goto("/requests?phase=canceled&author=olga");
  await expect(page.locator("table.requests tbody tr", { has: page.getByRole("cell", { name: requestId, exact: true }) })).toContainText(
    "by olga: order withdrawn",
  );
});

test("an operator blocks a domain from a future start, narrows the block and unblocks it", async ({ page }, testInfo) => {
  await signInAsNewUser(page, "otto", "operator");
  page.on("dialog", (dialog) => dialog.accept());
  await page.goto(
    "/objects?type=domain&states=serverBlocked,serverTransferProhibited,serverDeleteProhibited,serverUpdateProhibited&state_match=any&mode=not",
  );
  const first = page.locator("table.objects-table tbody td.col-name a").first();
  await first.click();

  const section = page.getByRole("region", { name: "Administrative block" });
  // Count only once the object's page has rendered: count() does not wait, and on the list page it is 0.
  await page.waitForURL(/\/objects\/\d+/);
  await expect(section.getByRole("button", { name: "Block", exact: true })).toBeVisible();
  const canceledRows = page.locator("table.requests tbody tr").filter({ has: page.locator(".status", { hasText: /^canceled$/ }) });
  const canceledBefore = await canceledRows.count();
  await section.getByLabel(/^Block from/).fill(pragueWallTime(3));
  await section.getByLabel(/^until/).fill(pragueWallTime(10));
  await expect(section.getByRole("checkbox", { name: "serverDeleteProhibited" })).toBeChecked();
  await expect(section.getByRole("checkbox", { name: "serverRenewProhibited" })).not.toBeChecked();
  await section.getByLabel("Reason").fill("court order 7/2026");
  await section.getByRole("button", { name: "Block", exact: true }).click();
  // The page shows the block at once (the form gives way to it).
  // A block that starts in three days is not in force yet, and says so; the summary tells what is coming.
  await expect(section).toContainText(
    /^Administrative blockWill be blocked \(block \d+\) from .* by otto: serverBlocked, serverDeleteProhibited, serverTransferProhibited, serverUpdateProhibited\./,
  );
  const blockId = /Will be blocked \(block (\d+)\)/.exec((await section.textContent()) as string)?.[1];
  const summary = page.getByRole("region", { name: "What this means now" });
  // One line for the whole block: its states begin and end together.
  await expect(summary).toContainText(
    new RegExp(
      `From .* until .*: serverBlocked, serverDeleteProhibited, serverTransferProhibited, serverUpdateProhibited \\(block ${blockId}, scheduled requests \\d+, \\d+, \\d+, \\d+\\)\\.`,
    ),
  );
  await expect(summary.locator("li", { hasText: "scheduled request" })).toHaveCount(1);
  await expect(summary).toContainText("No EPP command is refused by its states.");
  await expect(page.locator("table.requests tbody tr").filter({ has: page.locator(".status", { hasText: /^scheduled$/ }) })).toHaveCount(4);
  await expect(page.locator('.timeline rect.bar.future[data-state="serverBlocked"]')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath("block-scheduled.png"), fullPage: true });

  // Change it: drop the transfer prohibition.
  await section.getByText("Change the block").click();
  await section.getByRole("checkbox", { name: "serverTransferProhibited" }).uncheck();
  await section.getByLabel("Reason for the change").fill("narrowed");
  await section.getByRole("button", { name: "Change block" }).click();
  await expect(section).toContainText(/by otto: serverBlocked, serverDeleteProhibited, serverUpdateProhibited\./);
  await expect(page.locator("table.requests tbody tr").filter({ has: page.locator(".status", { hasText: /^scheduled$/ }) })).toHaveCount(3);

  await section.getByLabel("Reason to unblock").fill("order withdrawn");
  await section.getByRole("button", { name: "Unblock" }).click();
  await expect(section.getByRole("button", { name: "Block", exact: true })).toBeVisible();
  await expect(canceledRows).toHaveCount(canceledBefore + 7);
  await expect(page.locator('.timeline rect.bar.future[data-state="serverBlocked"]')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("block-lifted.png"), fullPage: true });
});

test("an operator bulk-blocks three domains from a pasted list, dry run first", async ({ page }, testInfo) => {
  await signInAsNewUser(page, "bea", "operator");
  page.on("dialog", (dialog) => dialog.accept());
  await page.goto(
    "/objects?type=domain&states=serverBlocked,serverTransferProhibited,serverDeleteProhibited,serverUpdateProhibited&state_match=any&mode=not&size=25",
  );
  const names = (await page.locator("table.objects-table tbody td.col-name a").allTextContents()).slice(10, 13);
  expect(names).toHaveLength(3);

  await page.goto("/requests");
  await page.getByRole("link", { name: "Bulk change…" }).click();
  const form = page.getByRole("form", { name: "Bulk change" });
  await form.getByLabel(/^Names or handles/).fill(names.join("\n"));
  await form.getByLabel("Reason").fill("phishing campaign");
  await form.getByRole("button", { name: "Dry run" }).click();
  await expect(form.locator(".form-ok")).toHaveText("Dry run: 3 of 3 will apply; nothing was changed.");
  const rows = form.locator("table.bulk-outcomes tbody tr");
  await expect(rows).toHaveCount(3);
  for (const [i, name] of names.entries())
    await expect(rows.nth(i)).toContainText(new RegExp(`will apply: ${name.replaceAll(".", "\\.")} blocked from now`));
  await page.screenshot({ path: testInfo.outputPath("bulk-dry-run.png"), fullPage: true });

  await form.getByRole("button", { name: "Apply to all" }).click();
  await expect(form.locator(".form-ok")).toHaveText(/^Applied to all 3 objects \(batch [0-9a-f-]{36}\)\.$/);
  await page.screenshot({ path: testInfo.outputPath("bulk-applied.png"), fullPage: true });
  await rows.first().getByRole("link").click();
  await expect(page.getByRole("region", { name: "Administrative block" })).toContainText(
    /Blocked \(block \d+\) from .* by bea: serverBlocked/,
  );
});

test("an operator chooses rows of a filtered list, sees how many, and bulk-changes exactly those: dry run, then apply", async ({
  page,
}, testInfo) => {
  await signInAsNewUser(page, "selma", "operator");
  page.on("dialog", (dialog) => dialog.accept());
  await page.goto("/objects?type=domain&states=serverBlocked,serverTransferProhibited&state_match=any&mode=not&size=25");
  const bar = page.locator(".selection-bar");
  // Nothing chosen: on a wide screen the boxes in the table are the way, and the bar takes no room.
  await expect(bar).toBeHidden();
  // Every row of the page, then three fewer: 22 chosen.
  await page.getByRole("checkbox", { name: "Choose every row on this page" }).check();
  await expect(bar).toHaveText(/^25 rows chosen Bulk change the 25 chosen objects… Clear$/);
  const names = await page.locator("table.objects-table tbody td.col-name a").allTextContents();
  for (const name of names.slice(0, 3)) await page.getByRole("checkbox", { name: `Choose ${name}`, exact: true }).uncheck();
  await expect(bar).toContainText("22 rows chosen");
  await expect(page.getByRole("checkbox", { name: "Choose every row on this page" })).not.toBeChecked();
  await expect(page.locator("table.objects-table tbody tr.chosen")).toHaveCount(22);
  await page.screenshot({ path: testInfo.outputPath("objects-chosen.png"), fullPage: true });
  await bar.getByRole("link", { name: "Bulk change the 22 chosen objects…" }).click();

  const form = page.getByRole("form", { name: "Bulk change" });
  await expect(form.getByLabel(/^Names or handles/)).toHaveValue(names.slice(3).join("\n"));
  await expect(form).toContainText("22 names");
  await expect(form.getByLabel("Type", { exact: true })).toHaveValue("domain");
  await form.getByLabel("Change", { exact: true }).selectOption("request");
  await form.getByLabel("State", { exact: true }).selectOption("serverTransferProhibited");
  await form.getByLabel("Reason").fill("chosen rows");
  await form.getByRole("button", { name: "Dry run" }).click();
  await expect(form.locator(".form-ok")).toHaveText("Dry run: 22 of 22 will apply; nothing was changed.");
  await form.getByRole("button", { name: "Apply to all" }).click();
  await expect(form.locator(".form-ok")).toHaveText(/^Applied to all 22 objects \(batch [0-9a-f-]{36}\)\.$/);
  // Exactly those: each chosen domain has the request, the three left out do not.
  await page.goto(`/objects?type=domain&q=${encodeURIComponent(names[3])}&jump=no`);
  await expect(page.locator("table.objects-table tbody td.col-states").first()).toContainText("serverTransferProhibited");
  await page.goto(`/objects?type=domain&q=${encodeURIComponent(names[0])}&jump=no`);
  await expect(page.locator("table.objects-table tbody td.col-states").first()).not.toContainText("serverTransferProhibited");
});

test("a bulk change with a refused name says nothing was made, in a warning, and names no request", async ({ page }, testInfo) => {
  await signInAsNewUser(page, "bruno", "operator");
  page.on("dialog", (dialog) => dialog.accept());
  await page.goto("/objects?type=domain&states=serverBlocked,serverOutzoneManual,serverInzoneManual&state_match=any&mode=not&size=25");
  const names = (await page.locator("table.objects-table tbody td.col-name a").allTextContents()).slice(20, 22);
  expect(names).toHaveLength(2);

  await page.goto("/requests/bulk");
  const form = page.getByRole("form", { name: "Bulk change" });
  await form.getByLabel(/^Names or handles/).fill([...names, "nowhere-at-all.cz"].join("\n"));
  await form.getByLabel("Change", { exact: true }).selectOption("request");
  await form.getByLabel("State", { exact: true }).selectOption("serverInzoneManual");
  await form.getByLabel("Reason").fill("zone test");

  // The dry run's refusal is a warning, not a success.
  await form.getByRole("button", { name: "Dry run" }).click();
  await expect(form.locator(".form-warning")).toHaveText("Dry run: 2 of 3 will apply, 1 refused; nothing was changed.");
  await expect(form.locator(".form-ok")).toHaveCount(0);

  await form.getByRole("button", { name: "Apply to all" }).click();
  await expect(form.locator(".form-warning")).toHaveText(
    "1 of 3 cannot be applied; nothing was changed. Fix or remove them and try again.",
  );
  const rows = form.locator("table.bulk-outcomes tbody tr");
  await expect(rows).toHaveCount(3);
  for (const i of [0, 1]) {
    await expect(rows.nth(i)).toHaveClass("not-made");
    await expect(rows.nth(i)).toContainText(`not made, as the batch was refused: serverInzoneManual on ${names[i]}`);
    await expect(rows.nth(i)).not.toContainText(/Request \d+/);
  }
  await expect(rows.nth(2)).toHaveClass("refused");
  await page.screenshot({ path: testInfo.outputPath("bulk-refused.png"), fullPage: true });
});

test("the request list sorts by its headers, the order in the URL, and keeps each person's hidden columns", async ({ page, browser }) => {
  await signInAsNewUser(page, "rosa", "support");
  await page.goto("/requests");
  const period = page.getByRole("columnheader", { name: /Period/ });
  await expect(period).toHaveAttribute("aria-sort", "descending");
  await period.getByRole("link").click();
  await expect(page).toHaveURL(/[?&]sort=start\b/);
  await expect(page.getByRole("columnheader", { name: /Period/ })).toHaveAttribute("aria-sort", "ascending");
  await page
    .getByRole("columnheader", { name: /Request/ })
    .getByRole("link")
    .click();
  await expect(page).toHaveURL(/[?&]sort=-id\b/);
  const ids = (await page.locator("table.requests tbody tr td:first-child").allTextContents()).map(Number);
  expect(ids.length).toBeGreaterThan(1);
  expect(ids).toEqual([...ids].sort((a, b) => b - a));
  // The next page keeps the order.
  await page.getByRole("link", { name: /^Next/ }).click();
  await expect(page).toHaveURL(/[?&]sort=-id\b/);
  const more = (await page.locator("table.requests tbody tr td:first-child").allTextContents()).map(Number);
  expect(Math.max(...more)).toBeLessThan(Math.min(...ids));

  await page.getByText("Columns", { exact: true }).click();
  await page.getByRole("checkbox", { name: "Author" }).uncheck();
  await expect(page.getByRole("columnheader", { name: "Author" })).toHaveCount(0);
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await signIn(other, "rosa", "rosa's long password");
  await other.goto("/requests");
  await expect(other.getByRole("columnheader", { name: /Reason/ })).toHaveCount(1);
  await expect(other.getByRole("columnheader", { name: "Author" })).toHaveCount(0);
  await elsewhere.close();
});
