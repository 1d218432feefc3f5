import { describe, expect, it } from "vitest";
import { type DemoOptions, generateDemo, localDate, type Row, type TableName } from "./generate";

const OPTIONS: DemoOptions = { domains: 3_000, seed: 42, now: new Date("2026-11-22T10:00:00Z"), timeZone: "Europe/Prague" };

function collect(options: DemoOptions): Map<TableName, Row[]> {
  const tables = new Map<TableName, Row[]>();
  for (const chunk of generateDemo(options)) {
    for (const batch of chunk.batches) tables.set(batch.table, [...(tables.get(batch.table) ?? []), ...batch.rows]);
  }
  return tables;
}

describe("demo registry generator", () => {
  const tables = collect(OPTIONS);
  const rows = (table: TableName) => tables.get(table) ?? [];

  it("is deterministic for a seed and differs between seeds", () => {
    expect(collect(OPTIONS)).toEqual(tables);
    const other = collect({ ...OPTIONS, seed: 43 });
    expect(other.get("domain")).not.toEqual(rows("domain"));
  });

  it("produces the requested number of domains, with contacts, nssets and keysets in registry proportions", () => {
    const live = rows("object_registry").filter((r) => r.erdate === null);
    const count = (type: number) => live.filter((r) => r.type === type).length;
    expect(count(3)).toBe(3_000);
    expect(count(1)).toBe(1_000);
    expect(count(2)).toBe(300);
    expect(count(4)).toBe(100);
    expect(rows("object_registry").filter((r) => r.erdate !== null).length).toBeGreaterThan(0);
  });

  it("gives live objects unique names that follow FRED's case rule", () => {
    const live = rows("object_registry").filter((r) => r.erdate === null);
    const keys = live.map((r) => `${r.type}:${r.name}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of live) {
      const name = String(r.name);
      expect(name).toBe(r.type === 3 ? name.toLowerCase() : name.toUpperCase());
    }
    expect(live.some((r) => String(r.name).endsWith(".0.2.4.e164.arpa"))).toBe(true);
  });

  it("spreads expiration dates from two years ago to two years ahead", () => {
    const today = localDate(OPTIONS.now, OPTIONS.timeZone);
    const days = rows("domain").map((d) => (Date.parse(String(d.exdate)) - Date.parse(today)) / 86_400_000);
    expect(Math.min(...days)).toBeGreaterThanOrEqual(-730);
    expect(Math.min(...days)).toBeLessThan(-600);
    expect(Math.max(...days)).toBeLessThanOrEqual(730);
    expect(Math.max(...days)).toBeGreaterThan(600);
  });

  it("never creates overlapping requests for one state, nor outzone and inzone requests on one domain", () => {
    const requests = rows("object_state_request");
    expect(requests.length).toBeGreaterThan(50);
    const end = (r: Row) =>
      Math.min(
        r.valid_to ? Date.parse(String(r.valid_to)) : Number.POSITIVE_INFINITY,
        r.canceled ? Date.parse(String(r.canceled)) : Number.POSITIVE_INFINITY,
      );
    const byKey = new Map<string, Row[]>();
    for (const r of requests) {
      expect(Date.parse(String(r.crdate))).toBeLessThanOrEqual(OPTIONS.now.getTime());
      if (r.valid_to) expect(Date.parse(String(r.valid_to))).toBeGreaterThan(Date.parse(String(r.valid_from)));
      if (r.canceled) expect(Date.parse(String(r.canceled))).toBeGreaterThanOrEqual(Date.parse(String(r.crdate)));
      const key = `${r.object_id}:${r.state_id}`;
      byKey.set(key, [...(byKey.get(key) ?? []), r]);
    }
    for (const list of byKey.values()) {
      const sorted = list.sort((a, b) => Date.parse(String(a.valid_from)) - Date.parse(String(b.valid_from)));
      for (let i = 1; i < sorted.length; i++) expect(Date.parse(String(sorted[i].valid_from))).toBeGreaterThanOrEqual(end(sorted[i - 1]));
    }
    const outzone = new Set(requests.filter((r) => r.state_id === 5).map((r) => r.object_id));
    expect(requests.filter((r) => r.state_id === 6 && outzone.has(r.object_id))).toEqual([]);
  });

  it("only requests states that are manual and valid for the object's type", () => {
    const typeOf = new Map(rows("object_registry").map((r) => [r.id, r.type]));
    const allowed: Record<number, number[]> = { 1: [1, 3, 4, 7], 2: [1, 3, 4], 3: [1, 2, 3, 4, 5, 6, 7, 18], 4: [1, 3, 4] };
    for (const r of rows("object_state_request")) {
      expect(allowed[Number(typeOf.get(r.object_id))]).toContain(r.state_id);
    }
  });
});
