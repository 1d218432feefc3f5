// The pages people use most, in English and Czech, on a 1,366 px screen and on a 390 px phone:
// each is screenshotted (test-results/; with DOCS_SCREENS=1 also the user guide's, into
// docs/screens/) and none scrolls sideways.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { pragueWallTime, signInAsNewUser } from "./helpers";

/** The screenshots the user guide shows (its first line lists them). */
const GUIDE_SCREENS = (/<!-- screens: ([^>]*) -->/.exec(readFileSync("docs/guide.md", "utf8"))?.[1] ?? "")
  .trim()
  .split(/\s+/)
  .map((file) => path.basename(file));

const WIDTHS = [
  { name: "1366", width: 1366, height: 768 },
  { name: "390", width: 390, height: 844 },
];

/** What sticks out of the window sideways: the outermost elements reaching past its right edge (none: nothing overflows). */
const overflowing = (page: Page) =>
  page.evaluate(() => {
    if (document.documentElement.scrollWidth <= window.innerWidth) return [];
    const out: string[] = [];
    for (const element of document.body.querySelectorAll("*")) {
      const right = element.getBoundingClientRect().right;
      // Inside a scrolling box (a wide table on a phone) is fine; only what the page itself must scroll to counts.
      if (right <= window.innerWidth + 0.5 || element.closest(".data-table") || element.parentElement?.closest("[data-overflowing]"))
        continue;
      element.setAttribute("data-overflowing", "");
      out.push(`${element.tagName.toLowerCase()}.${[...element.classList].join(".")} (${Math.round(right)} px)`);
    }
    return out.slice(0, 5);
  });

test("the main pages fit a laptop and a phone, in English and in Czech", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await signInAsNewUser(page, "vera", "admin");
  page.on("dialog", (dialog) => dialog.accept());
  // An object with a scheduled block, so the object page shows what is coming.
  await page.goto("/objects?type=domain&states=serverBlocked,serverTransferProhibited&state_match=any&mode=not");
  const link = page.locator("table.objects-table tbody td.col-name a").nth(40);
  await link.click();
  await expect(page).toHaveURL(/\/objects\/\d+$/);
  const objectPath = new URL(page.url()).pathname;
  const block = page.getByRole("region", { name: "Administrative block" });
  await block.getByLabel(/^Block from/).fill(pragueWallTime(3));
  await block.getByLabel("Reason").fill("screens 1/2026");
  await block.getByRole("button", { name: "Block", exact: true }).click();
  await expect(block).toContainText("Will be blocked");

  // A case, for its page.
  await page.goto("/cases");
  const open = page.getByRole("region", { name: "Open a case" });
  await open.locator("select[name=kind]").selectOption("csirt");
  await open.getByLabel("Reference (the order's or ticket's number)").fill("CSIRT-2026-0815");
  await open.getByLabel("Requested by").fill("CSIRT.CZ");
  await open.getByRole("button", { name: "Open case" }).click();
  const caseId = /^Case (\d+)/.exec((await open.getByRole("status").textContent()) as string)?.[1];

  const pages = [
    ["overview", "/"],
    ["objects", "/objects?type=domain&states=outzone"],
    ["object", objectPath],
    ["requests", "/requests"],
    ["bulk", "/requests/bulk"],
    ["cases", "/cases"],
    ["case", `/cases/${caseId}`],
    ["approvals", "/approvals"],
    ["audit", "/audit"],
    ["admin-users", "/admin/users"],
    ["admin-tokens", "/admin/tokens"],
    ["admin-approvals", "/admin/approvals"],
    ["preferences", "/preferences"],
  ];
  for (const language of ["en", "cs"] as const) {
    // The person's choice of language (English first, as the new user starts).
    if (language === "cs") await page.getByLabel("Language").selectOption("cs");
    await expect(page.locator("html")).toHaveAttribute("lang", language);
    for (const size of WIDTHS) {
      await page.setViewportSize({ width: size.width, height: size.height });
      for (const [name, address] of pages) {
        await page.goto(address);
        await expect(page.locator("main h1").first()).toBeVisible();
        const file = `${name}-${size.name}-${language}.png`;
        await page.screenshot({ path: testInfo.outputPath(file), fullPage: true });
        // The user guide's pictures (docs/guide.md names them), renewed when asked: DOCS_SCREENS=1.
        if (process.env.DOCS_SCREENS === "1" && GUIDE_SCREENS.includes(file))
          await page.screenshot({ path: path.join("docs", "screens", file) });
        expect(await overflowing(page), `${address} in ${language} at ${size.width} px overflows sideways`).toEqual([]);
      }
    }
  }
});
