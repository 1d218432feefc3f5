// The registry's Prometheus scrapes the running console: /api/metrics with its token counts the
// requests the server answered, by route, and says what the database holds.
import { expect, test } from "@playwright/test";
import { E2E_METRICS_TOKEN, signInAsAdmin } from "./helpers";

test("a scraper with the metrics token reads the requests the server answered, by route; without it, nothing", async ({ page }) => {
  const refused = await page.request.get("/api/metrics");
  expect(refused.status()).toBe(401);
  expect(await refused.text()).not.toContain("rsc_");

  await signInAsAdmin(page);
  for (const id of [1, 2, 3]) await page.request.get(`/objects/${id}`);
  const scrape = async () => {
    const response = await page.request.get("/api/metrics", { headers: { Authorization: `Bearer ${E2E_METRICS_TOKEN}` } });
    expect(response.status()).toBe(200);
    return response.text();
  };
  const count = (text: string) =>
    text
      .split("\n")
      .filter((l) => l.startsWith("rsc_http_requests_total{") && l.includes('route="/objects/[id]"') && l.includes('method="GET"'))
      .reduce((sum, l) => sum + Number(l.split(" ").pop()), 0);
  const before = await scrape();
  expect(count(before)).toBeGreaterThanOrEqual(3);
  await page.request.get("/objects/4");
  await expect.poll(async () => count(await scrape())).toBe(count(before) + 1);
  const text = await scrape();
  expect(text).toMatch(/^rsc_state_engine_last_run_age_seconds\{app="registry_state_console"\} [\d.]+$/m);
  expect(text).toMatch(/^rsc_pending_approvals\{app="registry_state_console"\} \d+$/m);
  expect(text).toMatch(/^rsc_sign_ins_total\{result="ok",app="registry_state_console"\} \d+$/m);
  expect(text).toMatch(/^rsc_audit_chain_length\{app="registry_state_console"\} \d+$/m);
  // The server's own process: its resident memory (tens of MiB at least) and its event loop's lag.
  const resident = Number(/^process_resident_memory_bytes\{app="registry_state_console"\} (\d+)$/m.exec(text)?.[1]);
  expect(resident).toBeGreaterThan(50 * 2 ** 20);
  expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds\{app="registry_state_console"\} [\d.e+-]+$/m);
});
