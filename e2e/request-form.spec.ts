// What an operator meets in the request form and a support worker in the lists' words: no state
// chosen for them, no serverBlocked by accident, a confirmation for a request from now, the
// period checked while typing, a preview that never outlives its request, one word for a request
// that has not started, and a notice for every part of a link that was not used.
import { expect, type Page, test } from "@playwright/test";
import { pragueWallTime, shownAt, signInAsNewUser } from "./helpers";

/** A domain with none of the manual states and no block, further down the list than other specs look. */
async function openQuietDomain(page: Page, nth: number): Promise<string> {
  await page.goto(
    "/objects?type=domain&states=serverBlocked,serverTransferProhibited,serverUpdateProhibited,serverDeleteProhibited,serverOutzoneManual&state_match=any&mode=not",
  );
  const link = page.locator("table.objects-table tbody td.col-name a").nth(nth);
  const name = (await link.textContent()) as string;
  await link.click();
  await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
  return name;
}

test("the request form chooses no state, offers no serverBlocked, and confirms a request from now", async ({ page }, testInfo) => {
  await signInAsNewUser(page, "ursula", "operator");
  const name = await openQuietDomain(page, 30);
  const form = page.getByRole("form", { name: "Request a state" });
  const requests = page.locator("table.requests tbody tr");
  const before = await requests.count();

  // Nothing chosen: a reason and "Create request" create nothing.
  await expect(form.getByLabel("State")).toHaveValue("");
  await expect(form.getByLabel("State").locator("option")).not.toContainText(["serverBlocked"]);
  await expect(form).toContainText("serverBlocked is set with the Block action above");
  await form.getByLabel(/^Reason/).fill("registrar dispute 9/2026");
  await form.getByRole("button", { name: "Create request" }).click();
  await expect(form.getByLabel("State")).toHaveJSProperty("validity.valueMissing", true);
  await expect(form.locator(".form-ok")).toHaveCount(0);

  // From now: asked once more; declining sends nothing.
  await form.getByLabel("State").selectOption("serverTransferProhibited");
  const asked: string[] = [];
  page.once("dialog", (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await form.getByRole("button", { name: "Create request" }).click();
  await expect
    .poll(() => asked)
    .toEqual([`Request serverTransferProhibited on ${name} from now? It takes effect as soon as it is created.`]);
  await expect(form.locator(".form-ok")).toHaveCount(0);
  expect(await requests.count()).toBe(before);

  // The preview, then the request: afterwards the form is new and the old preview is gone.
  await form.getByRole("button", { name: "Preview what it does" }).click();
  await expect(form.locator(".preview-result")).toContainText("Preview:");
  await page.screenshot({ path: testInfo.outputPath("request-form-preview.png"), fullPage: true });
  page.once("dialog", (dialog) => void dialog.accept());
  await form.getByRole("button", { name: "Create request" }).click();
  await expect(form.locator(".form-ok")).toHaveText(/^Request \d+: serverTransferProhibited on /);
  await expect(form.locator(".preview-result")).toHaveCount(0);
  await expect(form.getByLabel("State")).toHaveValue("");
  await expect(requests).toHaveCount(before + 1);
});

test("the summary says an end before the start is wrong before anything is sent", async ({ page }, testInfo) => {
  await signInAsNewUser(page, "uwe", "operator");
  await openQuietDomain(page, 31);
  const form = page.getByRole("form", { name: "Request a state" });
  await form.getByLabel("State").selectOption("serverOutzoneManual");
  await form.getByLabel(/^Start/).fill(pragueWallTime(10));
  await form.getByLabel(/^End/).fill(pragueWallTime(5));
  await form.getByLabel(/^Reason/).fill("court order 3/2026");
  await expect(form.getByRole("alert")).toHaveText(
    new RegExp(
      `^The end \\(${shownAt(pragueWallTime(5))}\\) is not after the start \\(${shownAt(pragueWallTime(10))}\\): the request would be refused\\.$`,
    ),
  );
  await expect(form.getByRole("button", { name: "Create request" })).toBeDisabled();
  await page.screenshot({ path: testInfo.outputPath("request-form-end-before-start.png"), fullPage: true });
  // Put right, the warning goes and the request can be sent.
  await form.getByLabel(/^End/).fill(pragueWallTime(12));
  await expect(form.getByRole("alert")).toHaveCount(0);
  await expect(form.getByRole("button", { name: "Create request" })).toBeEnabled();
});

test("a request that has not started has one word, on the object page and in the request list", async ({ page }) => {
  await signInAsNewUser(page, "udo", "operator");
  const name = await openQuietDomain(page, 32);
  const form = page.getByRole("form", { name: "Request a state" });
  await form.getByLabel("State").selectOption("serverRenewProhibited");
  await form.getByLabel(/^Start/).fill(pragueWallTime(4));
  await form.getByLabel(/^Reason/).fill("renewal dispute");
  await form.getByRole("button", { name: "Create request" }).click();
  const requestId = /^Request (\d+)/.exec((await form.locator(".form-ok").textContent()) as string)?.[1] as string;

  const onObject = page.locator("table.requests");
  await expect(onObject.getByRole("columnheader", { name: "Phase" })).toBeVisible();
  const objectRow = onObject.locator("tbody tr", { has: page.getByRole("cell", { name: requestId, exact: true }) });
  await expect(objectRow.locator(".status")).toHaveText("scheduled");

  // The request list, filtered by the object's name and by the request's id.
  await page.goto(`/requests?object=${encodeURIComponent(name.toUpperCase())}`);
  const listed = page.locator("table.requests tbody tr");
  await expect(listed).toHaveCount(1);
  await expect(page.locator("table.requests").getByRole("columnheader", { name: "Phase" })).toBeVisible();
  await expect(listed.locator(".status")).toHaveText("scheduled");
  await page.goto(`/requests?id=${requestId}`);
  await expect(listed).toHaveCount(1);
  await expect(listed.getByRole("cell", { name: requestId, exact: true })).toBeVisible();
  await page.goto("/requests?id=12x");
  await expect(page.getByRole("status").filter({ hasText: "“12x” is not a request id" })).toBeVisible();
});

test("every part of a list's link that is not used is named in a notice", async ({ page }) => {
  await signInAsNewUser(page, "uta", "support");
  for (const [query, notice] of [
    ["mode=ever", "“mode” belongs to the state filter, but no state was chosen; it was left out."],
    ["states=outzone&mode=ever", "State mode “ever” is not one of now, at, during, entered, left, not; using “now”."],
    ["at=2026-01-01&state_match=any", "“state_match, at” belong to the state filter, but no state was chosen; they were left out."],
    ["request_from=2026-01-01", "“request_from” belongs to the request filter, but no state was chosen for it; it was left out."],
    ["match=prefix", "“match” belongs to the name search, but no name was given; it was left out."],
    ["colour=blue", "“colour” is not a filter of this list; it was ignored."],
  ]) {
    await page.goto(`/objects?${query}`);
    await expect(page.locator(".notice[role=status]"), query).toContainText(notice);
  }
});

test("forms keep what was typed when the server refuses it, and a past start is said before asking", async ({ page }, testInfo) => {
  await signInAsNewUser(page, "quentin", "operator");
  page.on("dialog", (dialog) => dialog.accept());
  const name = await openQuietDomain(page, 40);
  const form = page.getByRole("form", { name: "Request a state" });

  // A start in the past: said in the summary, and nothing is asked or sent.
  await form.getByLabel("State").selectOption("serverOutzoneManual");
  await form.getByLabel(/^Start/).fill(pragueWallTime(-2));
  await expect(form.getByRole("alert")).toHaveText(
    new RegExp(
      `^The start \\(${shownAt(pragueWallTime(-2))}\\) has passed already: the request would be refused\\. Leave it empty to start now\\.$`,
    ),
  );
  await expect(form.getByRole("button", { name: "Create request" })).toBeDisabled();

  // A request the server refuses (it overlaps one already made): every field keeps its value.
  const from = pragueWallTime(5);
  const to = pragueWallTime(9);
  await form.getByLabel(/^Start/).fill(from);
  await form.getByLabel(/^End/).fill(to);
  await form.getByLabel(/^Reason/).fill("first period");
  await form.getByRole("button", { name: "Create request" }).click();
  await expect(form.locator(".form-ok")).toHaveText(new RegExp(`^Request \\d+: serverOutzoneManual on ${name.replaceAll(".", "\\.")}`));
  await form.getByLabel("State").selectOption("serverOutzoneManual");
  await form.getByLabel(/^Start/).fill(pragueWallTime(7));
  await form.getByLabel(/^End/).fill(pragueWallTime(12));
  await form.getByLabel(/^Reason/).fill("overlapping period");
  await form.getByRole("button", { name: "Create request" }).click();
  await expect(form.locator(".form-error")).toBeVisible();
  await expect(form.getByLabel("State")).toHaveValue("serverOutzoneManual");
  await expect(form.getByLabel(/^Start/)).toHaveValue(pragueWallTime(7).replace("T", " "));
  await expect(form.getByLabel(/^End/)).toHaveValue(pragueWallTime(12).replace("T", " "));
  await expect(form.getByLabel(/^Reason/)).toHaveValue("overlapping period");
  await expect(form.locator("p.preview")).toContainText(`${name} will get serverOutzoneManual`);
  await page.screenshot({ path: testInfo.outputPath("request-refused-kept.png"), fullPage: true });

  // The block form too: an end before its start is refused, and the dates and reason stay.
  const block = page.getByRole("region", { name: "Administrative block" });
  await block.getByLabel(/^Block from/).fill(pragueWallTime(6));
  await block.getByLabel(/^until/).fill(pragueWallTime(4));
  await block.getByLabel("Reason").fill("court order 8/2026");
  await block.getByRole("button", { name: "Block", exact: true }).click();
  await expect(block.locator(".form-error")).toBeVisible();
  await expect(block.getByLabel(/^Block from/)).toHaveValue(pragueWallTime(6).replace("T", " "));
  await expect(block.getByLabel(/^until/)).toHaveValue(pragueWallTime(4).replace("T", " "));
  await expect(block.getByLabel("Reason")).toHaveValue("court order 8/2026");
  await page.screenshot({ path: testInfo.outputPath("block-refused-kept.png"), fullPage: true });
});

test("dates: no seconds, a half-typed start is said as such, and common periods fill the end", async ({ page }, testInfo) => {
  await signInAsNewUser(page, "petra", "operator");
  const name = await openQuietDomain(page, 45);
  const form = page.getByRole("form", { name: "Request a state" });
  await form.getByLabel("State").selectOption("serverRenewProhibited");
  const start = form.getByLabel(/^Start/);
  await expect(start).not.toHaveAttribute("step", "1");

  // Half a date: not "from now", and nothing can be sent.
  await start.click();
  await page.keyboard.type("12");
  await expect(form.getByRole("alert")).toHaveText("The start is not a whole date and time yet: finish it, or empty it to start now.");
  await expect(form.getByRole("button", { name: "Create request" })).toBeDisabled();
  await expect(form.locator("p.preview")).not.toContainText("from now");

  // A whole start, then "7 days": the end is a week later at the same wall time.
  const from = pragueWallTime(3);
  await start.fill(from);
  await expect(form.getByRole("alert")).toHaveCount(0);
  await form.getByRole("button", { name: "7 days" }).click();
  await expect(form.getByLabel(/^End/)).toHaveValue(pragueWallTime(10).replace("T", " "));
  await expect(form.locator("p.preview")).toContainText(`${name} will get serverRenewProhibited`);
  await expect(form.locator("p.preview")).toContainText(new RegExp(`from ${shownAt(from)} until ${shownAt(pragueWallTime(10))}`));
  await form.getByRole("button", { name: "end of the month" }).click();
  await expect(form.getByLabel(/^End/)).toHaveValue(/^\d{4}-\d{2}-01 00:00$/);
  await page.screenshot({ path: testInfo.outputPath("request-form-dates.png"), fullPage: true });

  // In Czech the fields are written as Czech writes dates, whatever the browser's language; the
  // form still sends the ISO wall time.
  await page.getByLabel("Language").selectOption("cs");
  await expect(page.locator("html")).toHaveAttribute("lang", "cs");
  const czech = page.locator("form.request-form");
  const startCs = czech.locator(".wall-time input[type=text]").first();
  await expect(startCs).toHaveAttribute("placeholder", "d. m. rrrr hh:mm");
  // The end chosen in English ("end of the month") is now written the Czech way.
  await expect(czech.locator(".wall-time input[type=text]").nth(1)).toHaveValue(/^1\. \d{1,2}\. \d{4} 00:00$/);
  await startCs.fill("5.12.2031 9:30");
  await startCs.blur();
  await expect(startCs).toHaveValue("5. 12. 2031 09:30");
  await expect(czech.locator('input[type=hidden][name="from"]')).toHaveValue("2031-12-05T09:30");
  await startCs.fill("31. 4. 2031 10:00");
  expect(await startCs.evaluate((input: HTMLInputElement) => input.validationMessage)).toBe("Takový den neexistuje: 31. 4. 2031 10:00.");
  await page.screenshot({ path: testInfo.outputPath("request-form-dates-cs.png"), fullPage: true });
  await page.getByLabel("Jazyk").selectOption("en");
});
