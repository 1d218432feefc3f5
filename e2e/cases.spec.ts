// Issue 42 (so far): an administrator says that blocks in court-order cases need a second person; an
// operator opens a court-order case and blocks a domain in it, which waits as a proposal (nothing
// in force); the same operator cannot approve it; a second operator approves it from the queue and
// the block is in force with the case's reference in FRED's reason row; the case's record lists
// every step.
import { expect, type Page, test } from "@playwright/test";
import { E2E_ADMIN_PASSWORD, freeDomainName, signIn, signInAsNewUser } from "./helpers";

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
}

test("a block in a court-order case waits for a second person, who approves it from the queue; the record lists every step", async ({
  page,
}, testInfo) => {
  const stamp = Date.now().toString(36);
  // The administrator's policy: blocks in court-order cases need a second person.
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await page.goto("/admin/approvals");
  const rule = page.getByRole("region", { name: "New rule" });
  await rule.locator("select[name=state]").selectOption("serverBlocked");
  await rule.locator("select[name=change]").selectOption("make");
  await rule.locator("select[name=caseKind]").selectOption("court_order");
  await rule.getByRole("button", { name: "Add rule" }).click();
  await expect(rule.getByRole("status")).toHaveText(/^Approval rule \d+ added\.$/);
  await expect(page.locator("table.approval-rules tbody tr")).toContainText(["serverBlocked"]);
  await page.screenshot({ path: testInfo.outputPath("policy.png"), fullPage: true });
  await signOut(page);

  // An operator opens the case and blocks a domain in it.
  await signInAsNewUser(page, `olga-${stamp}`, "operator");
  const domain = await freeDomainName(page, 45);
  await page.goto("/cases");
  const open = page.getByRole("region", { name: "Open a case" });
  await open.locator("select[name=kind]").selectOption("court_order");
  await open.getByLabel("Reference (the order's or ticket's number)").fill(`3 C ${stamp}/2026`);
  await open.getByLabel("Requested by").fill("District court in Brno");
  await open.getByRole("button", { name: "Open case" }).click();
  await expect(open.getByRole("status")).toHaveText(new RegExp(`^Case \\d+ opened \\(3 C ${stamp}/2026\\)\\.$`));
  await page.getByRole("link", { name: new RegExp(`: 3 C ${stamp}/2026$`) }).click();
  await expect(page.getByRole("heading", { name: new RegExp(`^Case \\d+: 3 C ${stamp}/2026$`) })).toBeVisible();
  const caseUrl = page.url();
  const caseId = /\/cases\/(\d+)$/.exec(caseUrl)?.[1];
  const add = page.getByRole("region", { name: "Block or request in this case" });
  await add.getByLabel("Domain name or handle").fill(domain);
  await add.getByLabel("Reason").fill("phishing site");
  await add.getByRole("button", { name: "Make or propose" }).click();
  await expect(page.getByRole("status")).toHaveText(
    new RegExp(`^Change \\d+ waits for a second person's approval: ${domain.replace(".", "\\.")} blocked from now`),
  );
  // Nothing is in force; the proposer cannot approve it.
  const waiting = page.getByRole("region", { name: "Proposed changes" });
  await expect(waiting.getByText("Your proposal: another person approves it.")).toBeVisible();
  await expect(waiting.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Blocks and requests in this case" })).toContainText("Nothing was made in this case yet.");
  await page.screenshot({ path: testInfo.outputPath("case-proposed.png"), fullPage: true });
  await signOut(page);

  // A second operator approves it from the queue.
  await signInAsNewUser(page, `petr-${stamp}`, "operator");
  await page.goto("/approvals");
  const row = page.locator("table.pending-changes tbody tr").filter({ hasText: domain });
  await expect(row).toContainText(`by olga-${stamp}`);
  await page.screenshot({ path: testInfo.outputPath("approvals.png"), fullPage: true });
  await row.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status")).toHaveText(/^Change \d+ approved and applied: Block \d+: /);

  // The block is in force, FRED's reason row carries the case's reference, and the record lists every step.
  await page.goto(caseUrl);
  const items = page.getByRole("region", { name: "Blocks and requests in this case" });
  await expect(items.locator("tbody tr")).toHaveCount(1);
  await expect(items).toContainText("serverBlocked");
  await expect(items).toContainText(`olga-${stamp}, approved by petr-${stamp}`);
  const record = page.getByRole("region", { name: "The case's record" });
  await expect(record.locator("li")).toHaveText([
    new RegExp(`olga-${stamp} opened the case`),
    new RegExp(`olga-${stamp} proposed: ${domain.replace(".", "\\.")} blocked`),
    new RegExp(`petr-${stamp} approved olga-${stamp}'s proposal`),
    new RegExp(`petr-${stamp} made: ${domain.replace(".", "\\.")} blocked`),
  ]);
  await page.screenshot({ path: testInfo.outputPath("case-approved.png"), fullPage: true });
  await page.getByRole("link", { name: domain, exact: true }).first().click();
  await expect(page.getByText(`Case ${caseId} (3 C ${stamp}/2026): phishing site`).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("object-blocked.png"), fullPage: true });
});
