import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { E2E_SERVER_LOG, signInAsAdmin } from "./helpers";

test("the production server logs JSON lines, and every line of a request carries the id it answered with", async ({ page }) => {
  await signInAsAdmin(page);
  const response = await page.request.get("/objects?type=domain&states=outzone", { headers: { "X-Request-Id": "e2e-trace-20261122" } });
  expect(response.status()).toBe(200);
  expect(response.headers()["x-request-id"]).toBe("e2e-trace-20261122");
  const own = await page.request.get("/objects");
  const made = own.headers()["x-request-id"];
  expect(made).toMatch(/^[0-9a-f-]{36}$/);

  await expect
    .poll(() => readFileSync(E2E_SERVER_LOG, "utf8").includes(`"requestId":"${made}"`), { message: "access line written" })
    .toBe(true);
  const lines = readFileSync(E2E_SERVER_LOG, "utf8").trim().split("\n");
  // Everything from the console's own start-up line on is JSON (Next's banner comes before it).
  const from = lines.findIndex((line) => line.includes("Registry State Console is using"));
  expect(from).toBeGreaterThanOrEqual(0);
  const parsed = lines.slice(from).map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(parsed[0]).toMatchObject({ level: "info", msg: expect.stringContaining("Registry State Console is using") });
  const access = parsed.filter((l) => l.requestId === "e2e-trace-20261122");
  expect(access).toContainEqual(expect.objectContaining({ method: "GET", path: "/objects", status: 200, ms: expect.any(Number) }));
  expect(parsed.filter((l) => l.requestId === made)).toContainEqual(expect.objectContaining({ path: "/objects", status: 200 }));
  // Every request line has an id; ids are not shared between requests. One exception: a server
  // action posted to a page that does not have it (the bad-request fuzz does) is forwarded by Next
  // to the page that has it, as a second POST of the same request, logged under the same id; and a
  // server action that redirects (opening a case for an object goes back to the object's page) is
  // answered with the page it redirects to, rendered in the same request: its GET under the same id.
  const requestLines = parsed.filter((l) => "status" in l);
  expect(requestLines.length).toBeGreaterThan(3);
  for (const line of requestLines) expect(line.requestId).toEqual(expect.any(String));
  const byId = new Map<string, Record<string, unknown>[]>();
  for (const line of requestLines) byId.set(line.requestId as string, [...(byId.get(line.requestId as string) ?? []), line]);
  const shared = [...byId.values()].filter((group) => group.length > 1);
  for (const group of shared) {
    expect(group.length, JSON.stringify(group)).toBe(2);
    expect(group[0].method === "POST" || group[1].method === "POST", JSON.stringify(group)).toBe(true);
    expect(new Set(group.map((l) => l.path)).size, JSON.stringify(group)).toBe(2);
  }
});
