// Issue 42: an administrator says that blocks in court-order cases need a second person; an
// operator opens a court-order case and blocks a domain in it, which waits as a proposal (nothing
// in force); the same operator cannot approve it; a second operator approves it from the queue and
// the block is in force with the case's reference in FRED's reason row; the case's record lists
// every step.
import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { E2E_ADMIN_PASSWORD, E2E_MAILS, freeDomainName, pragueWallAt, pragueWallTime, signIn, signInAsNewUser } from "./helpers";

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

test("25 domains chosen in the list are blocked in a law-enforcement case once a second operator approves them all, the approver is mailed, the review date is on the overview, and ending the case (approved) lifts all 25", async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  page.on("dialog", (dialog) => void dialog.accept());
  const stamp = Date.now().toString(36);
  const [proposer, approver] = [`oto-${stamp}`, `petra-${stamp}`];
  const password = (user: string) => `${user}'s long password`;
  // The administrator: every change in a law-enforcement case needs a second person.
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await page.goto("/admin/approvals");
  const rule = page.getByRole("region", { name: "New rule" });
  await rule.locator("select[name=caseKind]").selectOption("law_enforcement");
  await rule.getByRole("button", { name: "Add rule" }).click();
  await expect(rule.getByRole("status")).toHaveText(/^Approval rule \d+ added\.$/);
  await signOut(page);
  // The approver gives an address for mail.
  await signInAsNewUser(page, approver, "operator");
  await page.goto("/preferences");
  const email = page.locator("section#email");
  await email.getByLabel("E-mail address").fill(`${approver}@registry.example`);
  await email.getByLabel("Current password").fill(password(approver));
  await email.getByRole("button", { name: "Save the address" }).click();
  await expect(email.getByRole("status")).toBeVisible();
  await signOut(page);

  // The proposer opens the case, due for review in two days.
  await signInAsNewUser(page, proposer, "operator");
  await page.goto("/cases");
  const open = page.getByRole("region", { name: "Open a case" });
  await open.locator("select[name=kind]").selectOption("law_enforcement");
  await open.getByLabel("Reference (the order's or ticket's number)").fill(`KRPB-${stamp}`);
  await open.getByLabel("Requested by").fill("Police of the Czech Republic");
  await open.getByLabel("Review by (optional)").fill(pragueWallTime(2).slice(0, 10));
  await open.getByRole("button", { name: "Open case" }).click();
  await expect(open.getByRole("status")).toHaveText(/^Case \d+ opened/);
  const caseId = /^Case (\d+)/.exec((await open.getByRole("status").textContent()) as string)?.[1] as string;

  // 25 domains chosen in the list, blocked in the case: proposed, nothing in force.
  await page.goto(
    "/objects?type=domain&states=serverBlocked,serverTransferProhibited,serverDeleteProhibited,serverUpdateProhibited,serverRenewProhibited,serverOutzoneManual,serverInzoneManual&state_match=any&mode=not&size=25&sort=-name",
  );
  const names = (await page.locator("table.objects-table tbody td.col-name a").allTextContents()).slice(0, 25);
  expect(names).toHaveLength(25);
  await page.getByRole("checkbox", { name: `Choose ${names[0]}`, exact: true }).check();
  await page.getByRole("button", { name: "Choose all 25 on this page" }).click();
  await page.getByRole("link", { name: "Bulk change the 25 chosen objects…", exact: true }).click();
  const bulk = page.getByRole("form", { name: "Bulk change" });
  // Meanwhile the first of them gets a prohibition of its own (the registrant's dispute), in another
  // tab: the block cuts it, and ending the case restores it.
  const tab = await page.context().newPage();
  tab.on("dialog", (dialog) => void dialog.accept());
  await tab.goto(`/objects/by-name/${names[0]}`);
  const own = tab.getByRole("form", { name: "Request a state" });
  await own.getByLabel("State").selectOption("serverTransferProhibited");
  await own.getByLabel(/^Reason/).fill("registrant's dispute");
  await own.getByRole("button", { name: "Create request" }).click();
  await expect(own.locator(".form-ok")).toHaveText(/^Request \d+: /);
  await expect(tab.locator("table.states-now tbody tr td:first-child")).toContainText(["serverTransferProhibited"]);
  await tab.close();
  await bulk.locator("select[name=caseId]").selectOption(caseId);
  await bulk.getByLabel("Reason").fill("seizure order");
  await bulk.getByRole("button", { name: "Apply to all" }).click();
  await expect(bulk.getByRole("status").last()).toHaveText(/^Proposed for all 25 objects: each waits for a second person's approval/);
  await page.screenshot({ path: testInfo.outputPath("bulk-proposed.png"), fullPage: true });
  await page.goto("/approvals");
  await expect(page.locator("table.pending-changes tbody tr").filter({ hasText: `by ${proposer}` })).toHaveCount(25);
  await expect(page.getByRole("button", { name: /^Approve all/ })).toHaveCount(0);
  await signOut(page);

  // The approver was mailed, and approves all 25 at once.
  const mails = JSON.parse(readFileSync(E2E_MAILS, "utf8")) as { to: string[]; text: string }[];
  const mail = mails.find(
    (m) => m.to.includes(`${approver}@registry.example`) && m.text.includes("Subject: 25 changes wait for your approval"),
  );
  expect(mail?.text).toContain(`(case ${caseId}), proposed by ${proposer}: ${names[0]} blocked from now`);
  await signIn(page, approver, password(approver));
  await page.goto("/approvals");
  await page.getByRole("button", { name: `Approve all 25 changes proposed together by ${proposer}` }).click();
  await expect(page.getByRole("status").first()).toHaveText("25 changes approved and applied.");

  // In force, with the case's reference; the review date is on the overview.
  await page.goto(`/cases/${caseId}`);
  const items = page.getByRole("region", { name: "Blocks and requests in this case" });
  await expect(items.locator("tbody tr")).toHaveCount(25);
  await expect(items.locator("tbody tr").first()).toContainText("serverBlocked");
  // FRED's reason rows carry the case's reference (the states' "why" on the object's page reads them).
  await page.goto(`/objects/by-name/${names[1]}`);
  await expect(page.locator("table.states-now tbody tr").filter({ hasText: "serverBlocked" })).toContainText(
    `Case ${caseId} (KRPB-${stamp}): seizure order`,
  );
  await page.goto("/");
  await expect(
    page.getByRole("region", { name: "Cases and blocks to look at" }).getByRole("link", { name: `Case ${caseId}: KRPB-${stamp}` }),
  ).toBeVisible();

  // Ending the case: the lifts wait for a second person, then the case ends and nothing is blocked.
  await page.goto(`/cases/${caseId}`);
  const end = page.getByRole("region", { name: "End the case" });
  await end.getByLabel("Why it ends").fill("order ended");
  await end.getByRole("button", { name: "End case" }).click();
  await expect(page.getByRole("status").filter({ hasText: /lifts wait/ })).toHaveText(
    new RegExp(`^Case ${caseId}: 25 lifts wait for a second person's approval`),
  );
  await signOut(page);
  await signIn(page, proposer, password(proposer));
  await page.goto("/approvals");
  await page.getByRole("button", { name: `Approve all 25 changes proposed together by ${approver}` }).click();
  await expect(page.getByRole("status").first()).toHaveText("25 changes approved and applied.");
  await page.goto(`/cases/${caseId}`);
  await page.getByRole("region", { name: "End the case" }).getByLabel("Why it ends").fill("order ended");
  await page.getByRole("region", { name: "End the case" }).getByRole("button", { name: "End case" }).click();
  await expect(page.getByText(`Case ${caseId} ended; nothing was left to lift.`)).toBeVisible();
  await page.reload();
  await expect(
    page.getByRole("region", { name: "Blocks and requests in this case" }).locator("tbody tr").filter({ hasText: "ended early" }),
  ).toHaveCount(25);
  await expect(page.getByRole("region", { name: "The case's record" }).locator("li").last()).toContainText(`${proposer} ended the case`);
  await page.screenshot({ path: testInfo.outputPath("case-ended.png"), fullPage: true });
  // What the first one held before comes back: its own prohibition, and no block.
  await page.goto(`/objects/by-name/${names[0]}`);
  const held = page.locator("table.states-now tbody tr");
  await expect(held.filter({ hasText: "serverTransferProhibited" })).toHaveCount(1);
  await expect(held.filter({ hasText: "serverBlocked" })).toHaveCount(0);
  await expect(held.filter({ hasText: "serverTransferProhibited" })).toContainText("registrant's dispute");
  // None of the 25 is blocked any more.
  await page.goto("/objects?type=domain&states=serverBlocked&size=100");
  for (const name of names.slice(0, 5)) await expect(page.getByRole("link", { name, exact: true })).toHaveCount(0);
});

/** A wall time in the registry's zone `seconds` from now, to the minute after (as a date and time field takes it), and its instant. */
function soon(seconds: number): { wall: string; at: number } {
  const at = Math.ceil((Date.now() + seconds * 1000) / 60_000) * 60_000;
  return { wall: pragueWallAt(at), at };
}

test("from an object's page a case is opened for it and changes are proposed in it; the proposer edits one (approval starts again); a rejected and an expired proposal change nothing", async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  page.on("dialog", (dialog) => void dialog.accept());
  const stamp = Date.now().toString(36);
  const [proposer, approver] = [`vera-${stamp}`, `wim-${stamp}`];
  // The administrator: every change made in a CSIRT case needs a second person.
  await signIn(page, "admin", E2E_ADMIN_PASSWORD);
  await page.goto("/admin/approvals");
  const rule = page.getByRole("region", { name: "New rule" });
  await rule.locator("select[name=change]").selectOption("make");
  await rule.locator("select[name=caseKind]").selectOption("csirt");
  await rule.getByRole("button", { name: "Add rule" }).click();
  await expect(rule.getByRole("status")).toHaveText(/^Approval rule \d+ added\.$/);
  await signOut(page);

  // The proposer opens a case from the domain's page, and comes back to it with the case chosen.
  await signInAsNewUser(page, proposer, "operator");
  const domain = await freeDomainName(page, 46);
  await page.getByRole("link", { name: domain, exact: true }).first().click();
  await page.locator("form.block-form").getByRole("link", { name: "Open a new case for this object" }).click();
  await expect(page.getByText(`The case opened here comes back to ${domain}`)).toBeVisible();
  const open = page.getByRole("region", { name: "Open a case" });
  await open.locator("select[name=kind]").selectOption("csirt");
  await open.getByLabel("Reference (the order's or ticket's number)").fill(`CSIRT-${stamp}`);
  await open.getByLabel("Requested by").fill("CSIRT.CZ");
  await open.getByRole("button", { name: "Open case" }).click();
  await expect(page).toHaveURL(/\/objects\/\d+\?case=\d+/);
  const caseId = new URL(page.url()).searchParams.get("case") as string;
  const block = page.locator("form.block-form");
  const request = page.getByRole("form", { name: "Request a state" });
  await expect(block.getByLabel("In case")).toHaveValue(caseId);
  await expect(request.getByLabel("In case")).toHaveValue(caseId);
  await page.screenshot({ path: testInfo.outputPath("object-case-chosen.png"), fullPage: true });

  // Proposed in the case: an outzone period starting in a minute or two, and a block from now.
  const start = soon(25);
  await request.getByLabel("State").selectOption("serverOutzoneManual");
  await request.getByLabel(/^Start/).fill(start.wall);
  await request.getByLabel(/^Reason/).fill("phishing, out of the zone");
  await request.getByRole("button", { name: "Create request" }).click();
  await expect(request.locator(".form-ok")).toHaveText(/^Change \d+ waits for a second person's approval: /);
  await block.getByLabel("Reason").fill("phishing");
  await block.getByRole("button", { name: "Block" }).click();
  const waiting = page.getByRole("region", { name: "Changes waiting for a second person's approval" });
  await expect(waiting.locator("tbody tr")).toHaveCount(2);
  // The proposer edits the block's reason: its approval starts again.
  const blockRow = waiting.locator("tbody tr").filter({ hasText: "blocked" });
  await blockRow.getByText("Edit", { exact: true }).click();
  await blockRow.getByLabel("Reason").fill("phishing, confirmed by CSIRT.CZ");
  await blockRow.getByRole("button", { name: "Save: approval starts again" }).click();
  await expect(page.getByRole("status").filter({ hasText: "was edited" })).toHaveText(
    /^Change \d+ was edited and waits for approval again: /,
  );
  await page.screenshot({ path: testInfo.outputPath("object-proposed.png"), fullPage: true });
  await signOut(page);

  // The approver rejects the block; the outzone period's start passes while it waits.
  await signInAsNewUser(page, approver, "operator");
  await page.goto("/approvals");
  const rejected = page.locator("table.pending-changes tbody tr").filter({ hasText: domain }).filter({ hasText: "blocked" });
  await rejected.getByLabel("Reason for rejecting").fill("not enough evidence");
  await rejected.getByRole("button", { name: "Reject" }).click();
  await expect(page.getByRole("status").first()).toHaveText(/^Change \d+ rejected; nothing was done\.$/);
  await page.waitForTimeout(Math.max(0, start.at - Date.now() + 2_000));
  await page.reload();
  const late = page.locator("table.pending-changes tbody tr").filter({ hasText: domain });
  await expect(late).toContainText("Its start passed while it waited.");
  await expect(late.getByRole("button", { name: "Approve from now" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("approvals-late.png"), fullPage: true });
  await signOut(page);

  // Its proposer withdraws it. Nothing of either reached FRED's tables: no state, no request.
  await signIn(page, proposer, `${proposer}'s long password`);
  await page.goto(`/cases/${caseId}`);
  const proposals = page.getByRole("region", { name: "Proposed changes" });
  await proposals.locator("tbody tr").filter({ hasText: "Its start passed" }).getByRole("button", { name: "Withdraw" }).click();
  await expect(page.getByRole("status").first()).toHaveText(/^Change \d+ withdrawn; nothing was done\.$/);
  await expect(page.getByRole("region", { name: "Blocks and requests in this case" })).toContainText("Nothing was made in this case yet.");
  await expect(page.getByRole("region", { name: "The case's record" }).locator("li")).toHaveText([
    new RegExp(`${proposer} opened the case`),
    new RegExp(`${proposer} proposed: serverOutzoneManual`),
    new RegExp(`${proposer} proposed: ${domain.replace(".", "\\.")} blocked`),
    new RegExp(`${proposer} edited a proposal: ${domain.replace(".", "\\.")} blocked`),
    new RegExp(`${approver} rejected ${proposer}'s proposal: not enough evidence`),
    new RegExp(`${proposer} withdrew a proposal`),
  ]);
  await page.screenshot({ path: testInfo.outputPath("case-nothing-made.png"), fullPage: true });
  await page.goto(`/objects/by-name/${domain}`);
  await expect(page.locator("table.states-now tbody tr").filter({ hasText: /serverBlocked|serverOutzoneManual/ })).toHaveCount(0);
  await expect(page.getByText("No state requests.")).toBeVisible();
});
