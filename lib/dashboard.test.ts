import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testBackends } from "../testing/databases";
import { createDomain, createObject, createRequest, registryAt, TYPE } from "../testing/registry";
import { actAs, anonymous, signedInAs } from "../testing/sessions";
import type { RequestContext } from "./auth/request-context";
import { dashboard } from "./dashboard";
import type { Database } from "./db/client";
import { explainPlan, type PlanNode } from "./objects/count";
import { listObjects } from "./objects/list";
import {
  BACKGROUND_SHARE,
  COMING_TTL_MS,
  FIGURES_TTL_MS,
  FORECAST_BY_DAY_SQL,
  forgetOverviewCounts,
  keptFigures,
  overviewCounting,
  RECOUNT_AFTER_MAX_MS,
  recount,
  recountAfter,
  startOverviewCounts,
} from "./overview-counts";

const DAY = 86_400_000;

describe.each(testBackends())("the overview's figures on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let support: RequestContext;
  let admin: RequestContext;

  beforeAll(async () => {
    ({ db, drop } = await registryAt(backend, new Date(), async (tx) => {
      const holder = await createObject(tx, TYPE.contact, "OVERVIEW-HOLDER", "2020-01-01T00:00:00Z");
      const nsset = await createObject(tx, TYPE.nsset, "OVERVIEW-NS", "2020-01-01T00:00:00Z");
      for (let i = 1; i <= 5; i++) {
        const id = await createDomain(tx, {
          name: `overview-${i}.cz`,
          crdate: "2021-01-01T00:00:00Z",
          exdate: "2030-01-01",
          registrant: holder,
          nsset: i <= 2 ? null : nsset,
        });
        // Blocked three days ago for a day: entered and left inside the 30 days.
        if (i === 3)
          await createRequest(
            tx,
            id,
            "serverBlocked",
            new Date(Date.now() - 3 * DAY).toISOString(),
            new Date(Date.now() - 2 * DAY).toISOString(),
          );
      }
      // Ahead: one domain expires in three days, another is blocked from the day after tomorrow.
      const day = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
      await createDomain(tx, { name: "overview-expiring.cz", crdate: "2021-01-01T00:00:00Z", exdate: day(3), registrant: holder, nsset });
      const later = await createDomain(tx, {
        name: "overview-later.cz",
        crdate: "2021-01-01T00:00:00Z",
        exdate: "2030-01-01",
        registrant: holder,
        nsset,
      });
      await createRequest(tx, later, "serverBlocked", new Date(Date.now() + 2 * DAY).toISOString());
      const deleted = await createDomain(tx, {
        name: "overview-gone.cz",
        crdate: "2021-01-01T00:00:00Z",
        exdate: "2030-01-01",
        registrant: holder,
        nsset: null,
      });
      await tx.query("UPDATE object_registry SET erdate = now() AT TIME ZONE 'UTC' - interval '1 day' WHERE id = $1", [deleted]);
    }));
    support = await signedInAs(db, "support");
    admin = await signedInAs(db, "admin");
  });
  afterAll(() => drop());

  it("counts exactly the objects of the list each figure opens", async () => {
    const d = await actAs(support, () => dashboard({ refresh: true }));
    // The list counts within a 25 ms budget and shows a counted bound past it (a busy machine gets
    // there); these lists are shorter than a page, so such a total is checked by its rows.
    const total = async (params: Record<string, string>) => {
      const list = await actAs(support, () => listObjects(params));
      if (!list.atLeast) return list.total;
      expect(list.next).toBeNull();
      return list.rows.length;
    };
    const byName = Object.fromEntries(d.states.map((s) => [s.name, s.objects]));
    expect(byName.outzone).toBe(2);
    for (const state of ["outzone", "nssetMissing", "linked", "serverBlocked"])
      expect(byName[state], state).toBe(await total({ states: state }));
    const all = d.states.map((s) => s.name).join(",");
    expect(d.days).toHaveLength(30);
    let entered = 0;
    let left = 0;
    for (const day of d.days) {
      expect(day.entered).toBe(await total({ states: all, state_match: "any", mode: "entered", from: day.from, to: day.to }));
      expect(day.left).toBe(await total({ states: all, state_match: "any", mode: "left", from: day.from, to: day.to }));
      entered += day.entered;
      left += day.left;
    }
    expect(entered).toBeGreaterThanOrEqual(1);
    expect(left).toBeGreaterThanOrEqual(1);
    // Coming up: today from the next minute and 7 days more; each figure is the forecast list's count.
    expect(d.coming).toHaveLength(8);
    const foreseen = d.coming.flatMap((day) => day.entries.map((e) => ({ ...e, day })));
    for (const { state, objects, day } of foreseen)
      expect(objects, `${state} on ${day.day}`).toBe(await total({ states: state, mode: "entered", from: day.from, to: day.to }));
    expect(foreseen.map((e) => e.state)).toEqual(expect.arrayContaining(["expired", "serverBlocked"]));
    expect(d.recent).toBeNull();
    expect((await actAs(admin, () => dashboard())).recent).toEqual(expect.any(Array)); // administrators see the audit log
    await expect(actAs(anonymous(db), () => dashboard())).rejects.toThrow(/Sign in/);
  });

  it("reads only the forecast's periods that begin in the week ahead, once, not every one that overlaps it", async () => {
    // At 1.5 million domains 53,000 periods begin in the week and 3.9 million overlap it (the states
    // objects hold now): the window's start has to reach the stored plan's scan, and the scan is
    // done once, not again for each day (25 s of the database's time, then 1.4 s, now 0.65 s).
    const scans: { condition: string; perDay: boolean }[] = [];
    const walk = (node: PlanNode, perDay: boolean) => {
      if (node["Relation Name"] === "state_plan")
        scans.push({ condition: [node["Index Cond"], node["Recheck Cond"], node.Filter].filter(Boolean).join(" AND "), perDay });
      // A correlated subquery (the day's entries) runs once for each day.
      for (const child of node.Plans ?? []) walk(child, perDay || child["Parent Relationship"] === "SubPlan");
    };
    walk(await explainPlan(db.sql, FORECAST_BY_DAY_SQL, ["Europe/Prague"]), false);
    expect(scans).not.toHaveLength(0);
    for (const scan of scans) {
      expect(scan.condition).toMatch(/valid_from >= \(date_trunc\('minute'/);
      expect(scan.perDay).toBe(false);
    }
  });

  it("describes the states in the reader's language, from one kept reading of the counts", async () => {
    const english = await actAs(support, () => dashboard({ refresh: true }));
    // Read right after the English one: the kept counts, described in Czech.
    const czech = await actAs({ ...support, locale: "cs" }, () => dashboard());
    expect(czech.asOf).toBe(english.asOf);
    const described = (d: typeof english, name: string) => d.states.find((s) => s.name === name)?.description;
    expect(described(english, "outzone")).toBe("The domain isn't generated in the zone");
    expect(described(czech, "outzone")).toBe("Doména není generována do zóny");
    expect(described(czech, "linked")).toBe("Je navázán na další záznam v registru");
    expect(described(await actAs(support, () => dashboard()), "outzone")).toBe("The domain isn't generated in the zone");
    expect(czech.states.map((s) => [s.name, s.objects])).toEqual(english.states.map((s) => [s.name, s.objects]));
  });

  it("never makes a reader wait for a count once one is kept: old counts are served at once and counted again in the background", async () => {
    const first = await actAs(support, () => dashboard({ refresh: true }));
    const blocked = (d: typeof first) => d.states.find((s) => s.name === "serverBlocked")?.objects;
    const id = await createDomain(db.sql, {
      name: "overview-background.cz",
      crdate: "2021-01-01T00:00:00Z",
      exdate: "2030-01-01",
      registrant: (await db.sql.query<{ id: number }>("SELECT id FROM object_registry WHERE name = 'OVERVIEW-HOLDER'"))[0].id,
      nsset: null,
    });
    await createRequest(db.sql, id, "serverBlocked", new Date(Date.now() - DAY).toISOString());
    // Older than allowed: the kept counts come back as they were, and a count starts behind them.
    const stale = await actAs(support, () => dashboard({ maxAgeMs: 0 }));
    expect(stale.asOf).toBe(first.asOf);
    expect(blocked(stale)).toBe(blocked(first));
    // The count started behind them (on PGlite, one query at a time, it may be done already).
    await overviewCounting(db.sql.location);
    const fresh = await actAs(support, () => dashboard());
    expect((fresh.asOf ?? "") > (first.asOf ?? "")).toBe(true);
    expect(blocked(fresh)).toBe((blocked(first) ?? 0) + 1);
  });

  it("answers at once while the first count since the start runs, saying the counts are coming, and shows them once taken", async () => {
    // A process that starts: nothing kept, the server's first count under way and slow.
    forgetOverviewCounts(db.sql.location);
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = {
      ...db.sql,
      location: db.sql.location,
      query: async (...args: Parameters<typeof db.sql.query>) => {
        await gate;
        return db.sql.query(...args);
      },
    } as typeof db.sql;
    const counts = startOverviewCounts(async () => slow, "Europe/Prague", 3_600_000);
    try {
      const coming = await actAs(support, () => dashboard({ firstCountWaitMs: 50 }));
      expect(coming).toMatchObject({ counting: true, asOf: null, states: [] });
      release();
      await overviewCounting(db.sql.location);
      const shown = await actAs(support, () => dashboard());
      expect(shown.counting).toBe(false);
      expect(shown.asOf).not.toBeNull();
      expect(shown.states.length).toBeGreaterThan(0);
    } finally {
      release();
      counts.stop();
    }
  });

  it("counts one query at a time and takes the forecast by day again only after ten minutes", async () => {
    forgetOverviewCounts(db.sql.location);
    let running = 0;
    let most = 0;
    let forecasts = 0;
    const watched = {
      ...db.sql,
      location: db.sql.location,
      query: async (...args: Parameters<typeof db.sql.query>) => {
        running++;
        most = Math.max(most, running);
        if (String(args[0]).includes("console.state_forecast")) forecasts++;
        try {
          return await db.sql.query(...args);
        } finally {
          running--;
        }
      },
    } as typeof db.sql;
    const first = await recount(watched, "Europe/Prague");
    const second = await recount(watched, "Europe/Prague");
    expect(most).toBe(1);
    expect(forecasts).toBe(1);
    expect(second.comingAsOf).toBe(first.comingAsOf);
    expect(second.coming).toEqual(first.coming);
    expect(Date.parse(second.asOf)).toBeGreaterThanOrEqual(Date.parse(first.asOf));
    // Ten minutes on, the forecast is taken again.
    const now = Date.now();
    const later = vi.spyOn(Date, "now").mockReturnValue(now + COMING_TTL_MS + 1);
    try {
      const third = await recount(watched, "Europe/Prague");
      expect(forecasts).toBe(2);
      expect(third.comingAsOf).not.toBe(first.comingAsOf);
    } finally {
      later.mockRestore();
    }
    const shown = await actAs(support, () => dashboard());
    expect(shown.comingAsOf).not.toBe("");
  });

  it("takes the counts in the background no more often than their share of the time allows (BACKGROUND_SHARE)", async () => {
    forgetOverviewCounts(db.sql.location);
    // A registry where the counts take 1 s a query and the forecast by day 20 s (a clock of our own).
    let clock = 0;
    let queries = 0;
    let forecasts = 0;
    const slow = {
      ...db.sql,
      location: db.sql.location,
      query: async (...args: Parameters<typeof db.sql.query>) => {
        queries++;
        const forecast = String(args[0]).includes("console.state_forecast");
        if (forecast) forecasts++;
        const rows = await db.sql.query(...args);
        clock += forecast ? 20_000 : 1_000;
        return rows;
      },
    } as typeof db.sql;
    const started = Date.now();
    const spies = [vi.spyOn(performance, "now").mockImplementation(() => clock), vi.spyOn(Date, "now").mockReturnValue(started)];
    const counts = startOverviewCounts(async () => slow, "Europe/Prague", FIGURES_TTL_MS);
    try {
      await vi.waitFor(() => expect(keptFigures(db.sql.location)).not.toBeNull());
      // Three queries of 1 s: not again before 3 s / BACKGROUND_SHARE.
      const after = 3_000 / BACKGROUND_SHARE;
      expect(after).toBeGreaterThan(FIGURES_TTL_MS);
      expect(keptFigures(db.sql.location)?.recountAfterMs).toBe(after);
      const at = (ms: number) => spies[1].mockReturnValue(started + ms);
      const tick = async (ms: number) => {
        at(ms);
        keptFigures(db.sql.location); // as a page reads them
        await counts.tick();
      };
      const taken = queries;
      await tick(FIGURES_TTL_MS + 1_000);
      expect(queries).toBe(taken);
      // Nor does a page start a count before then.
      at(after - 1_000);
      // The page says how often: every 3 minutes (3 s / 2 %), the forecast by day every 17 (20 s / 2 %).
      expect((await actAs(support, () => dashboard())).everyMinutes).toEqual({ counts: 3, coming: 17 });
      expect(overviewCounting(db.sql.location)).toBeNull();
      expect(queries).toBe(taken);
      // Then it counts again, the forecast by day kept: 20 s of it is taken again after 20 s / BACKGROUND_SHARE.
      await tick(after + 1_000);
      expect(queries).toBeGreaterThan(taken);
      expect(forecasts).toBe(1);
      const comingAfter = 20_000 / BACKGROUND_SHARE;
      expect(comingAfter).toBeGreaterThan(COMING_TTL_MS);
      await tick(COMING_TTL_MS + 60_000);
      expect(forecasts).toBe(1);
      await tick(comingAfter + 60_000);
      expect(forecasts).toBe(2);
    } finally {
      counts.stop();
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("counts a quick registry again at every tick, and puts no count off longer than RECOUNT_AFTER_MAX_MS", async () => {
    forgetOverviewCounts(db.sql.location);
    let queries = 0;
    const watched = {
      ...db.sql,
      location: db.sql.location,
      query: async (...args: Parameters<typeof db.sql.query>) => {
        queries++;
        return db.sql.query(...args);
      },
    } as typeof db.sql;
    const counts = startOverviewCounts(async () => watched, "Europe/Prague", FIGURES_TTL_MS);
    try {
      await vi.waitFor(() => expect(keptFigures(db.sql.location)).not.toBeNull());
      const taken = queries;
      // The next tick comes a minute after the last began: the figures, dated when it ended, are a
      // little short of a minute old, and are counted again all the same.
      const at = keptFigures(db.sql.location)?.at as number;
      const clock = vi.spyOn(Date, "now").mockReturnValue(at + FIGURES_TTL_MS - 200);
      try {
        await counts.tick();
      } finally {
        clock.mockRestore();
      }
      expect(queries).toBeGreaterThan(taken);
    } finally {
      counts.stop();
    }
    // A count held up for an hour (a lock) does not put the next one off for 50 hours.
    expect(recountAfter(3_600_000, FIGURES_TTL_MS)).toBe(RECOUNT_AFTER_MAX_MS);
    expect(recountAfter(3_600_000, COMING_TTL_MS)).toBe(RECOUNT_AFTER_MAX_MS);
  });
});
