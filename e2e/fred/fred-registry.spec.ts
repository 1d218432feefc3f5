// The console on an adopted FRED 2.52 registry (e2e/fred/server.ts): what a registry's staff do
// there, and FRED's own cron entry point moving the registry's states through the console's engine
// (in charge, playwright.fred.config.ts) or through FRED's own (beside, playwright.fred-beside.config.ts).
import { expect, type Page, test } from "@playwright/test";
import type pg from "pg";
import { pragueWallTime, signInAsAdmin } from "../helpers";
import { FRED_E2E_MODE, fredConnection } from "./fred";

const mode = FRED_E2E_MODE;

let fred: pg.Client;
test.beforeAll(async () => {
  fred = await fredConnection();
});
test.afterAll(async () => {
  await fred.end();
});

/** The object's open (valid_to IS NULL) states, by name, from FRED's object_state. */
async function openStates(objectId: number): Promise<string[]> {
  const result = await fred.query(
    `SELECT e.name FROM object_state s JOIN enum_object_states e ON e.id = s.state_id
      WHERE s.object_id = $1 AND s.valid_to IS NULL ORDER BY e.name`,
    [objectId],
  );
  return result.rows.map((row) => row.name as string);
}

/** A domain in the zone, with no expiration yet and none of the given states. */
async function ordinaryDomain(without: string[]): Promise<{ id: number; name: string }> {
  const result = await fred.query(
    `SELECT o.id, o.name FROM object_registry o JOIN domain d ON d.id = o.id
      WHERE o.erdate IS NULL AND d.exdate > current_date + 60 AND d.nsset IS NOT NULL
        AND NOT EXISTS (SELECT FROM object_state s JOIN enum_object_states e ON e.id = s.state_id
                         WHERE s.object_id = o.id AND s.valid_to IS NULL AND (e.name = ANY($1) OR e.name IN ('outzone', 'expired')))
        AND NOT EXISTS (SELECT FROM object_state_request r WHERE r.object_id = o.id)
      ORDER BY o.id LIMIT 1`,
    [without],
  );
  expect(result.rows).toHaveLength(1);
  return { id: Number(result.rows[0].id), name: result.rows[0].name as string };
}

async function openObject(page: Page, id: number, name: string): Promise<void> {
  await page.goto(`/objects/${id}`);
  await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
}

test("the console serves the adopted registry: health, a state filter, an object's history", async ({ page, request }, testInfo) => {
  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: "ok", database: "reachable", migrations: "current" });

  await signInAsAdmin(page);
  // Signed in, health and the overview say which engine writes the state history.
  expect(await (await page.request.get("/api/health")).json()).toMatchObject({ status: "ok", mode });
  await page.goto("/");
  await expect(page.getByTestId("registry-mode")).toContainText(mode === "beside" ? "Beside FRED:" : "In charge:");
  await page.goto("/objects");
  // And it is so in FRED's catalogue: beside, FRED's own update_object_states(integer) (as the
  // adoption recorded it) and its trigger_domain, no console_* trigger on FRED's tables; in charge the
  // console's function and triggers in their place.
  const [engine] = (
    await fred.query(
      `SELECT pg_get_functiondef('public.update_object_states(integer)'::regprocedure) =
                (SELECT definition FROM console.replaced_fred_objects WHERE kind = 'function' AND name = 'update_object_states(integer)')
                AS freds_function,
              (SELECT tgenabled <> 'D' FROM pg_trigger WHERE tgname = 'trigger_domain') AS freds_trigger,
              (SELECT count(*)::int FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
                WHERE c.relnamespace = 'public'::regnamespace AND t.tgname LIKE 'console%' AND NOT t.tgisinternal) AS console_triggers`,
    )
  ).rows;
  if (mode === "beside") expect(engine).toEqual({ freds_function: true, freds_trigger: true, console_triggers: 0 });
  else expect(engine).toMatchObject({ freds_function: false, freds_trigger: false });
  if (mode === "charge") expect(engine.console_triggers).toBeGreaterThan(0);
  const form = page.getByRole("form", { name: "Filter objects" });
  await form.getByLabel("Type").selectOption("domain");
  await form.getByText("Choose states").click();
  await form.getByRole("checkbox", { name: "expired", exact: true }).check();
  await form.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/[?&]states=expired\b/);
  const names = page.locator("table.objects-table tbody td.col-name a");
  await expect(names.first()).toBeVisible();
  for (const cell of await page.locator("table.objects-table tbody td.col-states").allTextContents()) expect(cell).toContain("expired");
  // The list's count is FRED's own data, counted in full (the page's own count has a 25 ms budget a
  // busy machine can exhaust, and then says "many").
  await page.goto(`${page.url()}&count=all`);
  const total = Number(((await page.locator(".page-head p").textContent()) as string).replace(/[^\d]/g, ""));
  const [{ expired }] = (
    await fred.query(
      `SELECT count(*)::int AS expired FROM object_state s JOIN object_registry o ON o.id = s.object_id
        WHERE s.state_id = 9 AND s.valid_to IS NULL AND o.type = 3 AND o.erdate IS NULL`,
    )
  ).rows;
  expect(total).toBe(expired);
  await page.screenshot({ path: testInfo.outputPath("fred-objects-expired.png"), fullPage: true });

  const name = (await names.first().textContent()) as string;
  await names.first().click();
  await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
  await page.getByText(/^History as a table/).click();
  const [{ periods }] = (
    await fred.query("SELECT count(*)::int AS periods FROM object_state s JOIN object_registry o ON o.id = s.object_id WHERE o.name = $1", [
      name,
    ])
  ).rows;
  await expect(page.locator(".history-table tbody tr")).toHaveCount(periods);
  await expect(page.locator(".history-table tbody")).toContainText("expired");
  await page.screenshot({ path: testInfo.outputPath("fred-object-history.png"), fullPage: true });
});

test("a change FRED's programs make has its states when it commits, dated at the change; FRED's cron then finds nothing to do", async ({
  page,
}) => {
  const domain = await ordinaryDomain([]);
  // As FRED's registry server would: the domain's expiration moves to three days ago.
  const clock = async () => (await fred.query<{ at: Date }>("SELECT clock_timestamp() AS at")).rows[0].at;
  const before = await clock();
  await fred.query("UPDATE domain SET exdate = current_date - 3 WHERE id = $1", [domain.id]);
  const after = await clock();
  // No engine run: the change's own commit brought the domain to the rules (in charge the console's
  // triggers, beside FRED's own trigger_domain).
  expect(await openStates(domain.id)).toContain("expired");
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const cron = (await fred.query<{ at: Date }>("SELECT clock_timestamp() AS at, update_object_states(0)")).rows[0].at;
  expect(await openStates(domain.id)).toContain("expired");
  // History as stored (a wall-clock timestamp: in charge the console's, in UTC; beside FRED's own
  // trigger's, CURRENT_TIMESTAMP in the session's zone, Europe/Prague here as fredConnection sets it),
  // stamped when the registry changed (its expiration instant had already passed then), not when the
  // cron happened to run.
  const { rows } = await fred.query<{ from: Date }>(
    "SELECT (valid_from AT TIME ZONE $2) AS from FROM object_state WHERE object_id = $1 AND state_id = 9 AND valid_to IS NULL",
    [domain.id, mode === "beside" ? "Europe/Prague" : "UTC"],
  );
  expect(rows).toHaveLength(1);
  expect(rows[0].from.getTime()).toBeGreaterThanOrEqual(before.getTime());
  expect(rows[0].from.getTime()).toBeLessThanOrEqual(after.getTime());
  expect(rows[0].from.getTime()).toBeLessThan(cron.getTime() - 1000);
  // A second run finds nothing due and writes nothing.
  const count = async () => (await fred.query("SELECT count(*)::int AS n, max(id) AS last FROM object_state")).rows[0];
  const first = await count();
  await fred.query("SELECT update_object_states(0)");
  expect(await count()).toEqual(first);

  await signInAsAdmin(page);
  await openObject(page, domain.id, domain.name);
  await expect(page.locator("table.states-now")).toContainText("expired");
});

test("an administrator schedules and cancels a request, and a request from now takes effect in FRED's object_state", async ({
  page,
}, testInfo) => {
  page.on("dialog", (dialog) => dialog.accept());
  const domain = await ordinaryDomain(["serverTransferProhibited", "serverUpdateProhibited"]);
  await signInAsAdmin(page);
  await openObject(page, domain.id, domain.name);
  const form = page.getByRole("form", { name: "Request a state" });
  const requests = page.locator("table.requests tbody tr");

  // Scheduled for next week, then canceled.
  await form.getByLabel("State").selectOption("serverTransferProhibited");
  await form.getByLabel(/^Start/).fill(pragueWallTime(6));
  await form.getByLabel(/^End/).fill(pragueWallTime(13));
  await form.getByLabel(/^Reason/).fill("transfer dispute 4/2026");
  await form.getByRole("button", { name: "Create request" }).click();
  await expect(form.locator(".form-ok")).toHaveText(/^Request (\d+): serverTransferProhibited on /);
  const scheduled = Number(/^Request (\d+)/.exec((await form.locator(".form-ok").textContent()) as string)?.[1]);
  const row = requests.filter({ has: page.getByRole("cell", { name: String(scheduled), exact: true }) });
  await expect(row).toContainText("scheduled");
  const [stored] = (await fred.query("SELECT object_id, state_id, canceled FROM object_state_request WHERE id = $1", [scheduled])).rows;
  expect(stored).toEqual({ object_id: domain.id, state_id: 3, canceled: null });
  await row.getByLabel(`Reason to cancel request ${scheduled}`).fill("dispute settled");
  await row.getByRole("button", { name: `Cancel request ${scheduled}` }).click();
  await expect(row).toContainText("canceled");
  const [canceled] = (
    await fred.query(
      `SELECT r.canceled IS NOT NULL AS canceled, x.reason_cancellation AS reason
         FROM object_state_request r LEFT JOIN object_state_request_reason x ON x.object_state_request_id = r.id WHERE r.id = $1`,
      [scheduled],
    )
  ).rows;
  expect(canceled).toEqual({ canceled: true, reason: "dispute settled" });
  expect(await openStates(domain.id)).not.toContain("serverTransferProhibited");

  // From now: the state opens in FRED's object_state at once, and FRED's cron leaves it be.
  await form.getByLabel("State").selectOption("serverUpdateProhibited");
  await form.getByLabel(/^Reason/).fill("court order 9/2026");
  await form.getByRole("button", { name: "Create request" }).click();
  await expect(form.locator(".form-ok")).toHaveText(/^Request (\d+): serverUpdateProhibited on /);
  const now = Number(/^Request (\d+)/.exec((await form.locator(".form-ok").textContent()) as string)?.[1]);
  expect(await openStates(domain.id)).toContain("serverUpdateProhibited");
  await fred.query("SELECT update_object_states(0)");
  await fred.query("SELECT update_object_states($1)", [domain.id]);
  expect(await openStates(domain.id)).toContain("serverUpdateProhibited");
  await page.reload();
  await expect(page.locator("table.states-now")).toContainText("serverUpdateProhibited");
  await page.screenshot({ path: testInfo.outputPath("fred-request-in-force.png"), fullPage: true });

  // Canceled: the state closes.
  const inForce = requests.filter({ has: page.getByRole("cell", { name: String(now), exact: true }) });
  await inForce.getByLabel(`Reason to cancel request ${now}`).fill("order lifted");
  await inForce.getByRole("button", { name: `Cancel request ${now}` }).click();
  await expect(inForce).toContainText("canceled");
  expect(await openStates(domain.id)).not.toContain("serverUpdateProhibited");
  const [{ periods }] = (
    await fred.query("SELECT count(*)::int AS periods FROM object_state WHERE object_id = $1 AND state_id = 4 AND valid_to IS NOT NULL", [
      domain.id,
    ])
  ).rows;
  expect(periods).toBe(1);
});

test("'does not have now' with 'any of' lists domains with none of the states, 'all of' those lacking at least one", async ({
  page,
}, testInfo) => {
  const chosen = ["serverBlocked", "serverTransferProhibited", "serverUpdateProhibited"];
  /** The listed domains' open states among the chosen ones, by name, from FRED's object_state. */
  const heldOfChosen = async (names: string[]) => {
    const result = await fred.query(
      `SELECT o.name, count(e.name)::int AS held FROM object_registry o
         LEFT JOIN object_state s ON s.object_id = o.id AND s.valid_to IS NULL
         LEFT JOIN enum_object_states e ON e.id = s.state_id AND e.name = ANY($2)
        WHERE o.name = ANY($1) AND o.erdate IS NULL GROUP BY o.name`,
      [names, chosen],
    );
    return new Map(result.rows.map((row) => [row.name as string, row.held as number]));
  };
  const countWith = async (having: string) =>
    (
      await fred.query(
        `SELECT count(*)::int AS n FROM object_registry o
          WHERE o.type = 3 AND o.erdate IS NULL
            AND (SELECT count(*) FROM object_state s JOIN enum_object_states e ON e.id = s.state_id
                  WHERE s.object_id = o.id AND s.valid_to IS NULL AND e.name = ANY($1)) ${having}`,
        [chosen],
      )
    ).rows[0].n as number;

  await signInAsAdmin(page);
  for (const [match, label, having, lacks] of [
    ["any", "any of (has none)", "= 0", (held: number) => held === 0],
    ["all", "all of (lacks at least one)", `< ${chosen.length}`, (held: number) => held < chosen.length],
  ] as const) {
    await page.goto("/objects");
    const form = page.getByRole("form", { name: "Filter objects" });
    await form.getByLabel("Type").selectOption("domain");
    await form.getByRole("radio", { name: "does not have now" }).check();
    // The choice says what it means once "does not have now" is chosen.
    await expect(form.getByLabel("Several states").locator(`option[value="${match}"]`)).toHaveText(label);
    await form.getByLabel("Several states").selectOption(match);
    await form.getByText("Choose states").click();
    for (const state of chosen) await form.getByRole("checkbox", { name: state, exact: true }).check();
    await form.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/[?&]mode=not\b/);
    await expect(page.locator("table.objects-table tbody tr").first()).toBeVisible();
    const names = await page.locator("table.objects-table tbody td.col-name a").allTextContents();
    expect(names.length).toBeGreaterThan(0);
    // Every listed domain really lacks them as the words say, in FRED's own tables...
    const held = await heldOfChosen(names);
    for (const name of names) expect(lacks(held.get(name) ?? -1), `${name} holds ${held.get(name)} of ${chosen.join(", ")}`).toBe(true);
    // ...and the list holds all such domains (counted in full, as above).
    await page.goto(`${page.url()}&count=all`);
    const total = Number(((await page.locator(".page-head p").textContent()) as string).replace(/[^\d]/g, ""));
    expect(total).toBe(await countWith(having));
    await page.screenshot({ path: testInfo.outputPath(`fred-objects-not-${match}.png`), fullPage: true });
  }
});

test("a block FRED's blockDomainsId made shows on the object page as a block, and the console changes and lifts it", async ({
  page,
}, testInfo) => {
  page.on("dialog", (dialog) => dialog.accept());
  const domain = await ordinaryDomain(["serverBlocked", "serverDeleteProhibited", "serverTransferProhibited", "serverUpdateProhibited"]);
  /** One FRED transaction in UTC (FRED's timestamps), with FRED's lock, then PerformObjectStateRequest. */
  const asFred = async (work: () => Promise<void>) => {
    await fred.query("BEGIN");
    try {
      await fred.query("SET LOCAL TIME ZONE 'UTC'");
      await fred.query("SELECT lock_object_state_request_lock($1)", [domain.id]);
      await work();
      await fred.query("SELECT update_object_states($1)", [domain.id]);
      await fred.query("COMMIT");
    } catch (error) {
      await fred.query("ROLLBACK");
      throw error;
    }
  };
  const insertRequests = (states: string[], validTo: string | null) =>
    fred.query(
      `INSERT INTO object_state_request (object_id, state_id, crdate, valid_from, valid_to)
       SELECT $1, id, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, $3::timestamp FROM enum_object_states WHERE name = ANY ($2::text[])`,
      [domain.id, states, validTo],
    );
  // The registrant's transfer lock (a registry-lock public request).
  await asFred(() => insertRequests(["serverTransferProhibited"], null).then(() => {}));
  // blockDomainsId(KEEP_OWNER, block to date +30 days): the server* requests in force canceled,
  // the chosen states and serverBlocked until that date at 12:00:00, the reason on serverBlocked's request.
  const toDate = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  await asFred(async () => {
    await fred.query(
      `UPDATE object_state_request SET canceled = CURRENT_TIMESTAMP
        WHERE canceled IS NULL AND object_id = $1 AND valid_from <= CURRENT_TIMESTAMP AND (valid_to IS NULL OR CURRENT_TIMESTAMP < valid_to)
          AND (SELECT 0 FROM enum_object_states eos WHERE eos.id = state_id AND eos.manual AND eos.name LIKE 'server%' LIMIT 1) IS NOT NULL`,
      [domain.id],
    );
    await insertRequests(["serverUpdateProhibited", "serverDeleteProhibited", "serverBlocked"], `${toDate} 12:00:00`);
    await fred.query(
      `INSERT INTO object_state_request_reason (object_state_request_id, reason_creation, reason_cancellation)
       SELECT osr.id, $1, NULL FROM object_state_request osr JOIN enum_object_states eos ON eos.id = osr.state_id
        WHERE osr.valid_from <= CURRENT_TIMESTAMP AND (osr.valid_to IS NULL OR CURRENT_TIMESTAMP <= osr.valid_to)
          AND osr.canceled IS NULL AND osr.object_id = $2 AND eos.name = 'serverBlocked' ORDER BY osr.id DESC LIMIT 1`,
      ["court order 12/2026", domain.id],
    );
  });
  expect(await openStates(domain.id)).toEqual(["serverBlocked", "serverDeleteProhibited", "serverUpdateProhibited"]);
  const blockedRequest = Number(
    (await fred.query("SELECT id FROM object_state_request WHERE object_id = $1 AND state_id = 7", [domain.id])).rows[0].id,
  );

  await signInAsAdmin(page);
  await openObject(page, domain.id, domain.name);
  const section = page.getByRole("region", { name: "Administrative block" });
  await expect(section).toContainText(
    new RegExp(
      `Blocked in FRED \\(its serverBlocked request ${blockedRequest}\\) from .* until .*: serverBlocked, serverDeleteProhibited, serverUpdateProhibited\\.`,
    ),
  );
  await expect(section).toContainText("Reason: court order 12/2026");
  await expect(page.locator("table.requests tbody")).toContainText(`ends with FRED's block (request ${blockedRequest})`);
  await expect(section.getByRole("button", { name: "Unblock" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("fred-made-block.png"), fullPage: true });

  // Changed in the console: no longer prohibits updates, no end. It goes on without a gap, and the
  // transfer lock FRED's block had replaced comes back.
  await section.getByText("Change the block").click();
  await expect(section.getByRole("checkbox", { name: "serverUpdateProhibited" })).toBeChecked();
  await section.getByRole("checkbox", { name: "serverUpdateProhibited" }).uncheck();
  // The form opens with the block's end; emptied, the block has none.
  await expect(section.getByLabel(/^End/)).not.toHaveValue("");
  await section.getByLabel(/^End/).fill("");
  await section.getByLabel("Reason for the change").fill("narrowed");
  await section.getByRole("button", { name: "Change block" }).click();
  await expect(section).toContainText(
    /^Administrative blockBlocked \(block \d+\) from .* with no end, by admin: serverBlocked, serverDeleteProhibited\./,
  );
  expect(await openStates(domain.id)).toEqual(["serverBlocked", "serverDeleteProhibited", "serverTransferProhibited"]);
  const { rows: changed } = await fred.query(
    `SELECT b.made_by, r.valid_to, (SELECT canceled IS NOT NULL FROM object_state_request WHERE id = $2) AS fred_request_canceled,
            (SELECT count(*)::int FROM object_state WHERE object_id = $1 AND state_id = 7) AS blocked_rows
       FROM console.blocks b JOIN object_state_request r ON r.id = b.blocked_request_id
      WHERE b.object_id = $1 AND b.unblocked_at IS NULL`,
    [domain.id, blockedRequest],
  );
  expect(changed).toEqual([{ made_by: "fred", valid_to: null, fred_request_canceled: true, blocked_rows: 1 }]);

  // Lifted: what was in force before FRED's block (the transfer lock) stays, nothing else.
  await section.getByLabel("Reason to unblock").fill("order lifted");
  await section.getByRole("button", { name: "Unblock" }).click();
  await expect(section.getByRole("button", { name: "Block", exact: true })).toBeVisible();
  expect(await openStates(domain.id)).toEqual(["serverTransferProhibited"]);
  await fred.query("SELECT update_object_states(0)");
  expect(await openStates(domain.id)).toEqual(["serverTransferProhibited"]);
  const { rows: after } = await fred.query(
    `SELECT (SELECT count(*)::int FROM object_state_request r JOIN enum_object_states s ON s.id = r.state_id
              WHERE r.object_id = $1 AND s.name LIKE 'server%'
                AND r.valid_from <= now() AT TIME ZONE 'UTC' AND (r.valid_to IS NULL OR now() AT TIME ZONE 'UTC' < r.valid_to) AND r.canceled IS NULL)
              AS in_force,
            (SELECT count(*)::int FROM object_state_request WHERE object_id = $1 AND LEAST(canceled, valid_to) < valid_from) AS out_of_turn`,
    [domain.id],
  );
  expect(after).toEqual([{ in_force: 1, out_of_turn: 0 }]);
});
