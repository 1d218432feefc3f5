// Issue 27, item 7 (finding things): an object id in the header search opens the object, "/" puts
// the cursor in the search, the first Tab reaches a skip link to the content, and support is not
// offered a bulk change it may not make.
import { expect, test } from "@playwright/test";
import { pragueWallTime, signInAsAdmin, signInAsNewUser } from "./helpers";

test("an id in the header search opens its object; '/' focuses the search; the first Tab is a skip link", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/objects?type=domain");
  const first = page.locator("table.objects-table tbody td.col-name a").first();
  const name = (await first.textContent()) as string;
  const id = /\/objects\/(\d+)/.exec((await first.getAttribute("href")) as string)?.[1] as string;

  // "/" from anywhere but a field (once the page's script runs).
  await page.waitForLoadState("networkidle");
  await page.locator("h1").click();
  await page.keyboard.press("/");
  const search = page.getByRole("searchbox", { name: "Find an object by name, handle or id" });
  await expect(search).toBeFocused();
  await search.fill(id);
  await search.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/objects/${id}$`));
  await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();

  // The first Tab stop skips the header.
  await page.goto("/requests");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await skip.press("Enter");
  await expect(page.locator("main#content")).toBeFocused();
});

test("support is not offered a bulk change it may not make", async ({ page }) => {
  await signInAsNewUser(page, "sandra", "support");
  await page.goto("/requests");
  await expect(page.getByRole("heading", { name: "Requests", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Bulk change…" })).toHaveCount(0);
  await page.goto("/objects?type=domain");
  await expect(page.getByRole("link", { name: /^Bulk change/ })).toHaveCount(0);
});

test("the audit log names objects, records the object of a refused change, and shows its instants in the registry's zone", async ({
  page,
}) => {
  await signInAsAdmin(page);
  page.on("dialog", (dialog) => dialog.accept());
  await page.goto(
    "/objects?type=domain&states=serverBlocked,serverTransferProhibited,serverUpdateProhibited,serverDeleteProhibited,serverOutzoneManual&state_match=any&mode=not",
  );
  const link = page.locator("table.objects-table tbody td.col-name a").nth(35);
  const name = (await link.textContent()) as string;
  await link.click();
  const form = page.getByRole("form", { name: "Request a state" });
  const from = pragueWallTime(4);
  for (const reason of ["audit test", "audit test, overlapping"]) {
    await form.getByLabel("State").selectOption("serverOutzoneManual");
    await form.getByLabel(/^Start/).fill(from);
    await form.getByLabel(/^End/).fill(pragueWallTime(8));
    await form.getByLabel(/^Reason/).fill(reason);
    await form.getByRole("button", { name: "Create request" }).click();
    await expect(form.locator(reason === "audit test" ? ".form-ok" : ".form-error")).toBeVisible();
  }

  await page.goto("/audit");
  const rows = page.locator("table.audit-log tbody tr");
  // Newest first: the refused one names its object, by name, as a link.
  await expect(rows.nth(0)).toContainText("request.create");
  await expect(rows.nth(0)).toContainText("refused");
  await expect(rows.nth(0).getByRole("link", { name, exact: true })).toHaveAttribute("href", /^\/objects\/\d+$/);
  // The one made: its start as every time on the page, not as UTC.
  await expect(rows.nth(1)).toContainText(`from: ${from.replace("T", " ")} CE`);
  await expect(rows.nth(1).locator(".audit-input")).not.toContainText(/\d{2}:\d{2}:\d{2}(\.\d+)?Z/);
});

test("the bulk page counts a filter's objects before the dry run and offers only what their type can have", async ({ page }) => {
  await signInAsNewUser(page, "bettina", "operator");
  await page.goto("/objects?type=domain&states=serverOutzoneManual");
  const shown = (await page.locator(".page-head p").textContent()) as string;
  const count = /^([\d,]+) matching domains?/.exec(shown)?.[1] as string;
  await page.getByRole("link", { name: `Bulk change the whole filter (${count} ${count === "1" ? "object" : "objects"})…` }).click();
  const form = page.getByRole("form", { name: "Bulk change" });
  await expect(form).toContainText(`Objects: the ${count === "1" ? "1 object" : `${count} objects`} the list filter matches now.`);
  await expect(form).not.toContainText("states=");
  await expect(form.getByRole("link", { name: "See them in the list" })).toHaveAttribute("href", /^\/objects\?.*type=domain/);
  // A domain's block: no contact's prohibitions.
  await expect(form.getByRole("checkbox", { name: "serverTransferProhibited" })).toBeVisible();
  await expect(form.getByRole("checkbox", { name: "serverContactNameChangeProhibited" })).toHaveCount(0);

  // Pasted names are counted as they are typed.
  await form.getByRole("link", { name: "Paste names instead" }).click();
  const pasted = page.getByRole("form", { name: "Bulk change" });
  await pasted.getByLabel(/^Names or handles/).fill("one.cz two.cz\nthree.cz");
  await expect(pasted).toContainText("3 names");
  await pasted.getByLabel("Type", { exact: true }).selectOption("contact");
  await expect(pasted.getByRole("checkbox", { name: "serverContactNameChangeProhibited" })).toBeVisible();
  await expect(pasted.getByRole("checkbox", { name: "serverRenewProhibited" })).toHaveCount(0);
});
