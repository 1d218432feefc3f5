import { expect, type Page, test } from "@playwright/test";
import { freeDomainName, hydrated, pragueWallTime, shownAt, signInAsNewUser } from "./helpers";

const pattern = (text: string) => text.replaceAll(".", "\\.").replaceAll("(", "\\(").replaceAll(")", "\\)");

/** A domain no block or prohibition holds, the `index`th of the list (other tests take the first ones), opened. */
async function freeDomain(page: Page, index: number): Promise<string> {
  const name = await freeDomainName(page, index);
  await page.getByRole("link", { name, exact: true }).first().click();
  await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
  await hydrated(page.getByRole("form", { name: "Request a state" }).getByLabel("State"));
  return name;
}

test("changing a block keeps what was not changed, the confirmation says what changes, and the block's history keeps every reason", async ({
  page,
}, testInfo) => {
  await signInAsNewUser(page, "berta", "operator");
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  const name = await freeDomain(page, 40);
  const section = page.getByRole("region", { name: "Administrative block" });

  // Blocked from three days ahead to ten days ahead, with a reason.
  const from = pragueWallTime(3);
  const to = pragueWallTime(10);
  await section.getByLabel(/^Block from/).fill(from);
  await section.getByLabel(/^until/).fill(to);
  await section.getByLabel("Reason").fill("court order 7/2026");
  await section.getByRole("button", { name: "Block", exact: true }).click();
  await expect(section.getByRole("status")).toHaveText(new RegExp(`^Block (\\d+): ${pattern(name)} blocked from ${shownAt(from)} until `));
  const first = /^Block (\d+)/.exec((await section.getByRole("status").textContent()) as string)?.[1];

  // The change form opens filled with the block as it is: its start, its end, its prohibitions.
  await section.getByText("Change the block").click();
  await expect(section.getByLabel(/^Start/)).toHaveValue(from.replace("T", " "));
  await expect(section.getByLabel(/^End/)).toHaveValue(to.replace("T", " "));
  await expect(section.getByRole("checkbox", { name: "serverTransferProhibited" })).toBeChecked();
  await expect(section.getByRole("checkbox", { name: "serverRenewProhibited" })).not.toBeChecked();
  await section.screenshot({ path: testInfo.outputPath("block-change-form.png") });

  // One more prohibition: the confirmation lists what changes and what is kept; the end stays.
  await section.getByRole("checkbox", { name: "serverRenewProhibited" }).check();
  await section.getByLabel("Reason for the change").fill("renewals too");
  await section.getByRole("button", { name: "Change block" }).click();
  await expect(section.getByRole("status")).toHaveText(new RegExp(`^Block ${first} changed: Block (\\d+): `));
  expect(dialogs.at(-1)).toBe(
    [
      `Change block ${first} on ${name}?`,
      "Prohibitions added: serverRenewProhibited",
      "Prohibitions kept: serverDeleteProhibited, serverTransferProhibited, serverUpdateProhibited",
      `Start kept: ${from.replace("T", " ")}`,
      `End kept: ${to.replace("T", " ")}`,
      "Reason: renewals too",
    ].join("\n"),
  );
  await expect(section).toContainText(
    new RegExp(
      `Will be blocked \\(block \\d+\\) from ${shownAt(from)} until ${shownAt(to)}, by berta: serverBlocked, .*serverRenewProhibited`,
    ),
  );
  const second = /changed: Block (\d+)/.exec((await section.getByRole("status").textContent()) as string)?.[1];

  // The requests the change canceled say who canceled them and why.
  const canceledByChange = page.locator("table.requests tbody tr").filter({ hasText: "by berta: renewals too" });
  await expect(canceledByChange).toHaveCount(4);

  // Drop a prohibition and the end: both said before → after. (The form may still be open.)
  if (!(await section.locator("details.change-block").evaluate((d) => (d as HTMLDetailsElement).open)))
    await section.getByText("Change the block").click();
  await expect(section.getByLabel(/^End/)).toHaveValue(to.replace("T", " "));
  await expect(section.getByRole("checkbox", { name: "serverRenewProhibited" })).toBeChecked();
  await section.getByLabel(/^End/).fill("");
  await section.getByRole("checkbox", { name: "serverTransferProhibited" }).uncheck();
  await section.getByLabel("Reason for the change").fill("until further notice");
  await section.getByRole("button", { name: "Change block" }).click();
  await expect(section.getByRole("status")).toHaveText(new RegExp(`^Block ${second} changed: `));
  expect(dialogs.at(-1)).toBe(
    [
      `Change block ${second} on ${name}?`,
      "Prohibitions removed: serverTransferProhibited",
      "Prohibitions kept: serverDeleteProhibited, serverRenewProhibited, serverUpdateProhibited",
      `Start kept: ${from.replace("T", " ")}`,
      `End: ${to.replace("T", " ")} → no end`,
      "Reason: until further notice",
    ].join("\n"),
  );
  await expect(section).toContainText(/Will be blocked \(block \d+\) from .* with no end, by berta/);

  // Lifted: the panel says so.
  await section.getByLabel("Reason to unblock").fill("order withdrawn");
  await section.getByRole("button", { name: "Unblock" }).click();
  await expect(section.getByRole("status")).toHaveText(new RegExp(`^Block \\d+ lifted: ${pattern(name)} is no longer blocked`));
  await expect(section.getByRole("button", { name: "Block", exact: true })).toBeVisible();

  // Its history: every reason given, each with its person and instant.
  const history = section.locator("table.block-history tbody tr");
  await expect(history).toHaveCount(4);
  const expected = [
    [`Blocked (block ${first})`, "court order 7/2026"],
    [`Changed (block ${second})`, "renewals too"],
    ["Changed (block", "until further notice"],
    ["Lifted (block", "order withdrawn"],
  ];
  for (const [i, [what, reason]] of expected.entries()) {
    await expect(history.nth(i).locator("td").nth(0)).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} CES?T$/);
    await expect(history.nth(i).locator("td").nth(1)).toContainText(what);
    await expect(history.nth(i).locator("td").nth(2)).toHaveText("berta");
    await expect(history.nth(i).locator("td").nth(3)).toHaveText(reason);
  }
  await section.screenshot({ path: testInfo.outputPath("block-history.png") });
});

test("canceling a request says so on the page", async ({ page }, testInfo) => {
  await signInAsNewUser(page, "cyril", "operator");
  page.on("dialog", (dialog) => dialog.accept());
  const name = await freeDomain(page, 41);

  const form = page.getByRole("form", { name: "Request a state" });
  await form.getByLabel("State").selectOption("serverRenewProhibited");
  await form.getByLabel(/^Start/).fill(pragueWallTime(4));
  await form.getByLabel(/^Reason/).fill("dispute");
  await form.getByRole("button", { name: "Create request" }).click();
  await expect(form.locator(".form-ok")).toHaveText(/^Request (\d+): /);
  const requestId = /^Request (\d+)/.exec((await form.locator(".form-ok").textContent()) as string)?.[1];

  const row = page.locator("table.requests tbody tr", { has: page.getByRole("cell", { name: requestId, exact: true }) });
  await row.getByLabel(`Reason to cancel request ${requestId}`).fill("settled");
  await row.getByRole("button", { name: `Cancel request ${requestId}` }).click();
  await expect(row).toContainText("canceled");
  await expect(page.locator(".action-notice")).toHaveText(
    `Request ${requestId} canceled: serverRenewProhibited on ${name} will not take effect.`,
  );
  await expect(page.locator(".action-notice")).toHaveAttribute("role", "status");
  await page.screenshot({ path: testInfo.outputPath("request-canceled-notice.png"), fullPage: true });
});
