import { readFileSync } from "node:fs";
import http from "node:http";
import { expect, type Page, test } from "@playwright/test";
import { E2E_ADMIN_PASSWORD, signIn, signInAsAdmin, signInAsNewUser } from "./helpers";

// Bad values sent to the console over HTTP: each gets a page with a notice saying what was wrong,
// or a 400/413 for a body, and nothing changes. Before, each of these was a bare 500.

/** The newest audit entry's id and the number of state requests: what a change would move. */
async function changes(page: Page): Promise<[string, string]> {
  await page.goto("/audit");
  const newest = (await page.locator("table.audit-log tbody tr td").first().textContent()) ?? "";
  await page.goto("/requests?phase=scheduled");
  const requests = await page.locator("table tbody tr").count();
  return [newest, String(requests)];
}

/** The server action id of `name` in the production build the suite runs against. */
function actionId(name: string): string {
  const manifest = JSON.parse(readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
    node: Record<string, { exportedName?: string }>;
  };
  const id = Object.entries(manifest.node).find(([, action]) => action.exportedName === name)?.[0];
  if (!id) throw new Error(`no server action ${name} in the build`);
  return id;
}

/** A POST with a body streamed in chunks (no Content-Length), as curl -T - or a proxy might send it. */
function postChunked(
  base: string,
  path: string,
  bytes: number,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    const request = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { ...headers, "Transfer-Encoding": "chunked" } },
      (response) => {
        let body = "";
        response.on("data", (chunk) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on("error", reject);
    const chunk = Buffer.alloc(64 * 1024, "x");
    for (let sent = 0; sent < bytes; sent += chunk.length) request.write(chunk);
    request.end();
  });
}

const cursor = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString("base64url");

test("bad ids, cursors, dates and NUL characters in addresses each give a notice on a usable page", async ({ page }, testInfo) => {
  await signInAsAdmin(page);
  const before = await changes(page);
  const cases: [string, string, string][] = [
    [
      "/requests?after=2026-13-45T99:99:99.000Z_1",
      "Requests",
      "The page position in the link is damaged: “2026-13-45T99:99:99.000Z” is not a real date and time; showing the first page.",
    ],
    [
      "/requests?after=2026-11-20T10:00:00.000Z_99999999999999",
      "Requests",
      "“99999999999999” is not a row id (a whole number from 1 to 2,147,483,647); showing the first page.",
    ],
    [
      "/audit?object=99999999999",
      "Audit log",
      "“99999999999” is not an object id (a whole number from 1 to 2,147,483,647) and no object is named so; the object filter is ignored.",
    ],
    [
      "/audit?actor=a%00b",
      "Audit log",
      "“actor” in the address holds a NUL character (%00), which no name, id or date has; it was left out.",
    ],
    [
      `/objects?sort=created&after=${cursor(["created", "2026-13-45 99:99:99", 1])}`,
      "Objects",
      "The page position in the link is damaged: “2026-13-45 99:99:99” is not a real date and time; showing the first page.",
    ],
    [
      `/objects?after=${cursor(["name", "abc", 99_999_999_999])}`,
      "Objects",
      "“99999999999” is not a row id (a whole number from 1 to 2,147,483,647); showing the first page.",
    ],
  ];
  for (const [url, heading, notice] of cases) {
    const response = await page.goto(url);
    expect(response?.status(), url).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: notice })).toBeVisible();
    // The rest of the page works: its table has rows.
    await expect(page.locator("table tbody tr").first()).toBeVisible();
  }
  await page.goto(cases[0][0]);
  await page.screenshot({ path: testInfo.outputPath("requests-bad-cursor.png") });

  const byName = await page.goto("/objects/by-name/a%00b");
  expect(byName?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Not an object name" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText("The name in the address holds a NUL character (%00), which no registry name has.");
  await page.screenshot({ path: testInfo.outputPath("by-name-nul.png"), fullPage: true });
  // An address whose %-encoding is broken names no page at all.
  const broken = await page.request.get("/objects/by-name/%E0%A4%A");
  expect(broken.status()).toBe(400);
  expect(await broken.json()).toEqual({ error: "The address is not valid %-encoded text; nothing was done." });

  expect(await changes(page)).toEqual(before);
});

test("the notices speak Czech to a person who chose Czech", async ({ page }, testInfo) => {
  await signInAsNewUser(page, `chyby-${Date.now().toString(36)}`, "operator");
  await page.getByLabel("Language").selectOption("cs");
  await expect(page.locator("html")).toHaveAttribute("lang", "cs");
  await page.goto("/requests?after=2026-11-20T10:00:00.000Z_99999999999999&author=a%00b");
  const notice = page.getByRole("status").filter({ hasText: "Pozice stránky" });
  await expect(notice).toContainText("„99999999999999“ není ID řádku (celé číslo od 1 do 2\u00a0147\u00a0483\u00a0647)");
  await expect(notice).toContainText("„author“ v adrese obsahuje znak NUL (%00)");
  await page.screenshot({ path: testInfo.outputPath("requests-bad-cursor-cs.png") });
  await page.goto("/objects/by-name/a%00b");
  await expect(page.getByRole("heading", { level: 1, name: "Toto není název objektu" })).toBeVisible();
  await expect(page.getByRole("status")).toContainText("Název v adrese obsahuje znak NUL (%00)");
});

test("a body streamed past the size limit and a server action's arguments nested 100,000 deep are refused, nothing changed", async ({
  page,
  baseURL,
}) => {
  await signInAsAdmin(page);
  const before = await changes(page);
  const origin = baseURL as string;
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const action = actionId("bulkAction");

  const chunked = await postChunked(origin, "/requests/bulk", 3 * 1024 * 1024, {
    "Content-Type": "text/plain;charset=UTF-8",
    "Next-Action": action,
    Origin: origin,
    Cookie: cookie,
  });
  expect(chunked).toEqual({ status: 413, body: JSON.stringify({ error: "The request is too large: more than 1,048,576 bytes." }) });

  const deep = await page.request.post("/requests/bulk", {
    headers: { "Content-Type": "text/plain;charset=UTF-8", "Next-Action": action, Accept: "text/x-component", Origin: origin },
    data: `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
  });
  expect(deep.status()).toBe(400);
  expect(await deep.json()).toEqual({ error: "The request nests data more than 64 levels deep; nothing was done." });

  expect(await changes(page)).toEqual(before);
});

test("the audit log keeps the connection's address, not the one X-Forwarded-For claims; anonymous refusals are not audited", async ({
  browser,
  page,
  request,
}) => {
  // With no trusted proxy configured (TRUSTED_PROXY_HOPS=0) a claimed address is ignored.
  const spoofing = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": "6.6.6.6", "X-Console-Peer": "7.7.7.7" } });
  const spoofed = await spoofing.newPage();
  await signIn(spoofed, "admin", E2E_ADMIN_PASSWORD);
  await spoofed.goto("/audit?action=auth.sign_in");
  await expect(spoofed.locator("table.audit-log tbody tr").first().locator("td").last()).toHaveText("127.0.0.1");
  await spoofing.close();

  // Cross-site writes and requests without a session are refused, in the log only.
  for (let i = 0; i < 20; i++) {
    const crossSite = await request.post("/admin/users", { headers: { Origin: "https://evil.example" }, form: { username: "mallory" } });
    expect(crossSite.status()).toBe(403);
  }
  await signInAsAdmin(page);
  for (const action of ["request.cross_site", "access.denied"]) {
    await page.goto(`/audit?action=${action}&actor=`);
    const actors = await page.locator("table.audit-log tbody tr td:nth-child(3)").allTextContents();
    // Only signed-in people's refusals (each row names its actor) are there.
    expect(actors.filter((actor) => actor === "—" || actor.startsWith("(unknown)") || actor.startsWith("session:"))).toEqual([]);
  }
  // Plain HTTP here (NEXTAUTH_URL http://…): no Strict-Transport-Security.
  expect((await request.get("/login")).headers()["strict-transport-security"]).toBeUndefined();
});
