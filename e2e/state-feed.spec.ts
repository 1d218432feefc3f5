import { expect, test } from "@playwright/test";
import { signInAsAdmin } from "./helpers";

test("an administrator gives a zone generator a token, which reads the feed until it is revoked", async ({ page }, testInfo) => {
  await signInAsAdmin(page);
  page.on("dialog", (dialog) => dialog.accept());
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API tokens" }).click();
  const form = page.getByRole("form", { name: "New API token" });
  await form.getByLabel("Client name").fill("zone generator e2e");
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(form.getByRole("status")).toHaveText("Token for zone generator e2e: copy it now, it is not shown again.");
  const token = (await form.locator("code.token").textContent()) as string;
  expect(token).toMatch(/^rsc_[A-Za-z0-9_-]{43}$/);
  await page.screenshot({ path: testInfo.outputPath("api-tokens.png"), fullPage: true });

  // The feed, with the token and without a session.
  const api = page.context().request;
  const feed = await api.get("/api/state-changes?after=0&limit=5&states=outzone", {
    headers: { Authorization: `Bearer ${token}`, Cookie: "" },
  });
  expect(feed.status()).toBe(200);
  const body = await feed.json();
  expect(body).toMatchObject({ changes: expect.any(Array), next: expect.any(Number), more: expect.any(Boolean) });
  for (const change of body.changes) expect(change).toMatchObject({ state: "outzone", change: expect.stringMatching(/^(entered|left)$/) });
  const bad = await api.get("/api/state-changes?states=nonsense", { headers: { Authorization: `Bearer ${token}` } });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error).toBe("Unknown state(s): nonsense.");

  await page.reload();
  const row = page.locator("table.tokens tbody tr", { hasText: "zone generator e2e" });
  await expect(row).toContainText(/after 0/);
  await row.getByRole("button", { name: "Revoke zone generator e2e" }).click();
  await expect(row).toContainText("revoked");
  const refused = await api.get("/api/state-changes", { headers: { Authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(401);
});
