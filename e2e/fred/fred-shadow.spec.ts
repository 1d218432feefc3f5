// Shadow's page (/shadow, issue 40) on the FRED registry adopted beside (playwright.fred-beside.config.ts):
// the registry moved to shadow by the real move, one of FRED's known bugs written as FRED's programs
// could (a request for an automatic state, which FRED's procedure applies), FRED's cron run, a
// difference planted in FRED's object_state, and a shadow comparison made; the page then shows
// the verdict, the known bug explained, the planted difference unexplained and linked to its object,
// and, back beside (where the registry is left for any later spec), that it is not in shadow.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { moveMode } from "../../lib/db/adoption-mode";
import { type DirectDriver, postgresDriver } from "../../lib/db/driver";
import { en } from "../../lib/i18n/messages/en";
import { runShadow } from "../../lib/states/shadow";
import { signInAsAdmin } from "../helpers";
import { FRED_E2E_DATABASE, FRED_E2E_MODE, fredConnection } from "./fred";

test.skip(
  FRED_E2E_MODE !== "beside",
  "shadow is reached from beside (in charge only with a forced move, and back to charge only from shadow)",
);

let fred: pg.Client;
let owner: DirectDriver;
/** What the spec wrote into FRED's tables, to take out again. */
const written = { request: null as number | null, planted: null as { object_id: number; state_id: number } | null };

test.beforeAll(async () => {
  fred = await fredConnection();
  const { fredUrl } = JSON.parse(readFileSync(FRED_E2E_DATABASE, "utf8")) as { fredUrl: string };
  owner = postgresDriver(new pg.Pool({ connectionString: fredUrl, max: 2 }), "the e2e FRED registry");
});

test.afterAll(async () => {
  // Back beside, FRED's tables as before: the request and the planted row go, FRED's own function
  // brings the domain's states back to its requests.
  try {
    const [{ mode }] = await owner.query<{ mode: string }>("SELECT mode FROM console.registry_origin");
    if (mode !== "beside") await moveMode(owner, "beside");
    if (written.planted)
      await fred.query("DELETE FROM object_state WHERE object_id = $1 AND state_id = $2 AND valid_to IS NULL", [
        written.planted.object_id,
        written.planted.state_id,
      ]);
    if (written.request) {
      const { rows } = await fred.query<{ object_id: number }>("DELETE FROM object_state_request WHERE id = $1 RETURNING object_id", [
        written.request,
      ]);
      for (const row of rows) await fred.query("SELECT update_object_states($1)", [row.object_id]);
    }
  } finally {
    await fred.end();
    await owner.close();
  }
});

/** An ordinary domain: in the zone, far from expiring, with no request and no open manual or expiry state. */
async function ordinaryDomain(offset: number): Promise<{ id: number; name: string }> {
  const { rows } = await fred.query<{ id: number; name: string }>(
    `SELECT o.id, o.name FROM object_registry o JOIN domain d ON d.id = o.id
      WHERE o.erdate IS NULL AND d.exdate > current_date + 60 AND d.nsset IS NOT NULL
        AND NOT EXISTS (SELECT FROM object_state_request r WHERE r.object_id = o.id)
        AND NOT EXISTS (SELECT FROM object_state s JOIN enum_object_states e ON e.id = s.state_id
                         WHERE s.object_id = o.id AND s.valid_to IS NULL AND (e.manual OR e.name IN ('expired', 'outzone')))
      ORDER BY o.id OFFSET $1 LIMIT 1`,
    [offset],
  );
  expect(rows).toHaveLength(1);
  return { id: Number(rows[0].id), name: rows[0].name };
}

test("shadow's page: the verdict, FRED's known bug explained, the planted difference unexplained and linked; beside, it says so", async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await moveMode(owner, "shadow");
  // One of FRED's known bugs, as FRED's programs may write it: a request for an automatic state.
  const bugDomain = await ordinaryDomain(0);
  const {
    rows: [request],
  } = await fred.query<{ id: number }>(
    "INSERT INTO object_state_request (object_id, state_id, valid_from) VALUES ($1, 9, now() AT TIME ZONE 'UTC' - interval '1 day') RETURNING id",
    [bugDomain.id],
  );
  written.request = Number(request.id);
  // FRED's regular procedure, as its cron runs it (a UTC session): it applies the request.
  const cron = new pg.Client({ connectionString: (JSON.parse(readFileSync(FRED_E2E_DATABASE, "utf8")) as { fredUrl: string }).fredUrl });
  await cron.connect();
  try {
    await cron.query("SET TimeZone TO 'UTC'");
    await cron.query("SELECT update_object_states(0)");
  } finally {
    await cron.end();
  }
  // The planted difference: a manual state in FRED's object_state that no request gives.
  const plantedDomain = await ordinaryDomain(1);
  await fred.query(
    "INSERT INTO object_state (object_id, state_id, valid_from) VALUES ($1, 2, now() AT TIME ZONE 'UTC' - interval '1 hour')",
    [plantedDomain.id],
  );
  written.planted = { object_id: plantedDomain.id, state_id: 2 };
  const run = await runShadow(owner);
  expect(run).not.toBeNull();
  const shadowRun = run as NonNullable<typeof run>;
  const causeOf = (objectId: number) => shadowRun.differences.find((d) => d.objectId === objectId)?.cause;
  expect(causeOf(plantedDomain.id)).toBe("unexplained");
  const bug = causeOf(bugDomain.id) as string;
  expect(bug).toMatch(/^fred_bug:(request_wrong_state|session_current_date)$/);
  const bugName = bug.slice("fred_bug:".length) as keyof typeof en.shadow.bugs;

  await signInAsAdmin(page);
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/");
  await page.getByRole("link", { name: "Shadow's report: the console's engine compared with FRED's" }).click();
  await expect(page).toHaveURL(/\/shadow$/);
  await expect(page.getByRole("heading", { name: "Shadow's report", level: 1 })).toBeVisible();
  await expect(page.getByTestId("shadow-mode")).toContainText("In shadow since");
  await expect(page.getByTestId("shadow-verdict")).toHaveText("Not ready to hand over");
  await expect(page.getByTestId("shadow-reason")).toContainText("has unexplained differences");
  await expect(page.locator("table.shadow-runs tbody tr").first()).toContainText(`Run ${shadowRun.id} (shown below)`);
  await expect(page.locator("table.shadow-days tbody tr").first()).toContainText("Unexplained");
  // The run's differences, unexplained first: the planted one.
  const planted = page.locator("table.shadow-differences tbody tr", { hasText: plantedDomain.name });
  await expect(planted).toHaveCount(1);
  await expect(planted).toContainText("serverRenewProhibited");
  await expect(planted.locator("td").nth(3)).toHaveText("does not have it");
  await expect(planted.locator("td").nth(4)).toHaveText("has it in force");
  await expect(planted.locator("td").nth(5)).toHaveText("Unexplained");
  await page.screenshot({ path: testInfo.outputPath("shadow-1366.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("shadow-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1366, height: 900 });

  // The known bug, named and described, through the run's cause link.
  const bugWords = `FRED's known bug ${bugName}: ${en.shadow.bugs[bugName]}`;
  await page.locator(".shadow-filter a", { hasText: bugWords }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]cause=${encodeURIComponent(bug)}`));
  const bugRow = page.locator("table.shadow-differences tbody tr", { hasText: bugDomain.name }).first();
  await expect(bugRow.locator("td").nth(5)).toHaveText(bugWords);
  await expect(page.locator("table.shadow-differences tbody tr", { hasText: "Unexplained" })).toHaveCount(0);

  // The object link opens the planted difference's object.
  await page.goto(`/shadow?run=${shadowRun.id}&cause=unexplained`);
  await page.locator("table.shadow-differences tbody").getByRole("link", { name: plantedDomain.name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/objects/${plantedDomain.id}$`));
  await expect(page.getByRole("heading", { name: plantedDomain.name, exact: true })).toBeVisible();

  // Bad parameters: a notice each, never an error page.
  for (const [query, notice] of [
    ["run=abc", "“abc” is not a run id (a whole number); showing the newest run."],
    ["run=987654321", "There is no run 987654321; showing the newest run."],
    ["page=-1&cause=%3Cb%3E", "“-1” is not a page number"],
    ["days=0", "“0” is not a number of days from 1 to 365"],
  ] as const) {
    const response = await page.goto(`/shadow?${query}`);
    expect(response?.status(), query).toBe(200);
    await expect(page.locator(".notice")).toContainText(notice);
    await expect(page.getByTestId("shadow-verdict")).toHaveText("Not ready to hand over");
  }

  // Back beside: the page says the registry is not in shadow and how to move it, and keeps the runs.
  await moveMode(owner, "beside");
  await page.goto("/shadow");
  await expect(page.getByTestId("shadow-mode")).toContainText("This registry is not in shadow: it is beside FRED");
  await expect(page.getByTestId("shadow-mode")).toContainText("npm run db:adopt -- --mode shadow");
  await expect(page.getByTestId("shadow-mode")).toContainText("The runs made while it was in shadow are shown below.");
  await expect(page.locator("table.shadow-runs tbody tr").first()).toContainText(`Run ${shadowRun.id}`);
  await page.screenshot({ path: testInfo.outputPath("shadow-beside-1366.png"), fullPage: true });
});
