import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../prisma/demo/load";
import type { Database } from "../db/client";
import { migrate } from "../db/migrations";
import { testBackends } from "../testing/databases";
import { actAs, signedInAs } from "../testing/sessions";
import { listObjects } from "./list";

describe.each(testBackends())("object list on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let live: number;
  let list: typeof listObjects;

  beforeAll(async () => {
    ({ db, drop } = await backend.create());
    await migrate(db.sql);
    await seedDemo(db.sql, { domains: 150, seed: 5, now: new Date("2026-11-22T10:00:00Z"), timeZone: "Europe/Prague" });
    [{ live }] = await db.sql.query<{ live: number }>("SELECT count(*)::int AS live FROM object_registry WHERE erdate IS NULL");
    const support = await signedInAs(db, "support");
    list = (params) => actAs(support, () => listObjects(params));
  });
  afterAll(() => drop());

  it("pages through live objects by name with their type and sponsoring registrar", async () => {
    const first = await list({});
    expect(first.total).toBe(live);
    expect(first.rows).toHaveLength(50);
    expect(first.pageCount).toBe(Math.ceil(live / 50));
    const byName = await db.sql.query<{ name: string }>("SELECT name FROM object_registry WHERE erdate IS NULL ORDER BY name, id LIMIT 50");
    expect(first.rows.map((r) => r.name)).toEqual(byName.map((r) => r.name));
    expect(first.rows.every((r) => r.sponsoringRegistrar?.startsWith("REG-"))).toBe(true);

    const second = await list({ page: "2" });
    expect(second.page).toBe(2);
    expect(second.rows.map((r) => r.id)).not.toContain(first.rows[0].id);

    const all = [];
    for (let page = 1; page <= first.pageCount; page++) all.push(...(await list({ page: String(page) })).rows);
    expect(new Set(all.map((r) => r.id)).size).toBe(live);
  });

  it("filters by a type read from the database", async () => {
    const domains = await list({ type: "domain", size: "100" });
    expect(domains.types).toEqual(["contact", "nsset", "domain", "keyset"]);
    expect(domains.total).toBe(150);
    expect(domains.rows.every((r) => r.type === "domain")).toBe(true);
  });

  it("falls back to defaults with a notice for each bad URL value", async () => {
    const result = await list({ page: "'; DROP TABLE domain; --", size: "100000", type: "registrar" });
    expect(result.page).toBe(1);
    expect(result.pageSize).toBe(50);
    expect(result.type).toBeNull();
    expect(result.notices).toEqual([
      "Unknown object type “registrar”; showing all types.",
      "Page size “100000” is not one of 25, 50, 100, 500; showing 50 per page.",
      "Page “'; DROP TABLE domain; --” is not a page number; showing page 1.",
    ]);
    const beyond = await list({ page: "9999" });
    expect(beyond.page).toBe(beyond.pageCount);
    expect(beyond.rows.length).toBeGreaterThan(0);
    expect(beyond.notices[0]).toMatch(/past the end; showing the last page/);
  });

  it("filters by a state held now and shows each row's current states and pending requests", async () => {
    const [{ outzone }] = await db.sql.query<{ outzone: number }>(
      `SELECT count(*)::int AS outzone FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
        JOIN object_registry o ON o.id = os.object_id WHERE s.name = 'outzone' AND os.valid_to IS NULL AND o.erdate IS NULL`,
    );
    const result = await list({ states: "outzone", type: "domain", size: "500" });
    expect(outzone).toBeGreaterThan(0);
    expect(result.total).toBe(outzone);
    expect(result.rows.every((r) => r.states.includes("outzone") && r.expires !== null)).toBe(true);
    const pending = await list({ pending: "1", size: "500" });
    expect(pending.rows.length).toBeGreaterThan(0);
    expect(pending.rows.every((r) => r.pendingRequests > 0)).toBe(true);
  });
});
