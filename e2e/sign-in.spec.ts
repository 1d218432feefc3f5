import { expect, test } from "@playwright/test";
import { E2E_ADMIN_PASSWORD, signIn, signInAsAdmin } from "./helpers";

test("an administrator signs in, works, signs out and cannot get back without signing in", async ({ page, browser }, testInfo) => {
  await page.goto("/objects");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fobjects/);

  await page.getByLabel("User name").fill("admin");
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.locator("form").getByRole("alert")).toHaveText(/the user name or password is wrong/);
  await page.screenshot({ path: testInfo.outputPath("sign-in-failed.png") });

  await page.getByLabel("Password").fill(E2E_ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/objects$/);
  await expect(page.getByRole("heading", { name: "Objects" })).toBeVisible();
  await expect(page.getByRole("banner")).toContainText("admin");
  const cookies = await page.context().cookies();
  // Plain HTTP here; behind HTTPS (NEXTAUTH_URL https://…) next-auth adds Secure and a __Secure- name.
  expect(cookies.find((c) => c.name === "next-auth.session-token")).toMatchObject({ httpOnly: true, sameSite: "Lax" });

  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/objects");
  await expect(page).toHaveURL(/\/login/);
  await expect(page.locator("table.data-table")).toHaveCount(0);

  // The session cookie from before sign-out no longer opens anything: the server ended that session.
  const replay = await browser.newContext();
  await replay.addCookies(cookies);
  const stale = await replay.newPage();
  const response = await stale.goto("/objects");
  expect(response?.status()).toBe(401);
  await expect(stale.getByRole("heading", { name: "Sign in to continue" })).toBeVisible();
  await replay.close();
});

test("a support worker finds the objects but no write controls", async ({ page }, testInfo) => {
  await signInAsAdmin(page);
  await page.getByRole("link", { name: "Users" }).click();
  const add = page.locator("section.panel");
  await add.getByLabel("User name").fill("sam");
  await add.getByLabel("Full name").fill("Sam Support");
  await add.getByLabel("Role").selectOption("support");
  await add.getByLabel("Initial password").fill("sam's long password");
  await add.getByRole("button", { name: "Add user" }).click();
  await expect(add.getByRole("status")).toHaveText("User sam (support) was added.");
  await expect(page.getByRole("cell", { name: /sam/ }).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("users-admin.png"), fullPage: true });
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);

  await signIn(page, "sam", "sam's long password");
  await expect(page.locator("table.data-table tbody tr")).toHaveCount(50);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link")).toHaveText(["Overview", "Objects", "Requests", "Cases", "Approvals"]);
  // Reading controls only: filters and export (sorting is by the column headers' links).
  await expect(page.getByRole("button")).toHaveText(["Sign out", "Apply filters", "Export CSV"]);
  await expect(page.locator("table.objects-table thead").getByRole("link")).toHaveText([/^Name \/ handle/, /^Created/]);
  await page.screenshot({ path: testInfo.outputPath("objects-as-support.png"), fullPage: true });

  for (const path of ["/admin/users", "/audit"]) {
    const response = await page.goto(path);
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  }
});

test("the admin reads the audit trail of what just happened", async ({ page }, testInfo) => {
  await signInAsAdmin(page);
  await page.getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "auth.sign_in" }).first()).toBeVisible();
  await page.getByLabel("Action").selectOption("access.denied");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/action=access.denied/);
  const actions = await page.locator("table.data-table tbody td:nth-child(4)").allTextContents();
  expect(actions.length).toBeGreaterThan(0);
  expect(new Set(actions)).toEqual(new Set(["access.denied"]));
  await page.screenshot({ path: testInfo.outputPath("audit-log.png"), fullPage: true });
});

test("every response carries the security headers; cross-site and forged requests are refused", async ({
  request,
  playwright,
  baseURL,
}) => {
  const login = await request.get("/login");
  const headers = login.headers();
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).toContain("object-src 'none'");
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("same-origin");
  expect(headers["cache-control"]).toContain("no-store");
  // Pages leave uncompressed by default: the reverse proxy in front compresses them (COMPRESS=true: the server does).
  const gzipAsked = await request.get("/login", { headers: { "accept-encoding": "gzip" } });
  expect(gzipAsked.headers()["content-encoding"]).toBeUndefined();

  const crossSite = await request.post("/admin/users", { headers: { Origin: "https://evil.example" }, form: { username: "mallory" } });
  expect(crossSite.status()).toBe(403);

  const forged = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Cookie: "next-auth.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0.forged.value" },
  });
  const page = await forged.get("/objects", { maxRedirects: 0 });
  expect(page.status()).toBe(307);
  expect(page.headers().location).toContain("/login");
  const api = await forged.get("/api/auth/session");
  expect(await api.json()).toEqual({});
  await forged.dispose();
});

test("the health endpoint answers without a session with the verdict only; an administrator gets the details", async ({
  request,
  page,
}) => {
  const response = await request.get("/api/health", { maxRedirects: 0 });
  expect([200, 503]).toContain(response.status());
  const body = await response.json();
  expect(body).toMatchObject({ database: "reachable", migrations: "current" });
  expect(Object.keys(body).sort()).toEqual(["database", "migrations", "status"]);

  await signInAsAdmin(page);
  const detailed = await page.request.get("/api/health");
  expect(Object.keys(await detailed.json()).sort()).toEqual(["database", "migrations", "mode", "problems", "scheduler", "status"]);
});

test("every page names its icon, which anyone may fetch", async ({ page, request }) => {
  await page.goto("/login");
  const href = await page.locator('link[rel="icon"]').getAttribute("href");
  expect(href).toMatch(/^\/icon\.svg/);
  const icon = await request.get(href as string, { maxRedirects: 0 });
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
});
