import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { createDomain, createObject, createRequest, registryAt, TYPE } from "../../testing/registry";
import { actAs, signedInAs } from "../../testing/sessions";
import { english } from "../actions/message";
import type { Database } from "../db/client";
import { rolledBack, type SqlExecutor } from "../db/driver";
import { wallTime } from "../format/instant";
import { exportObjects } from "../objects/export";
import { type ForecastForm, filterSql, type ObjectFilter } from "../objects/filter";
import { listObjects, type ObjectListPage } from "../objects/list";
import type { ObjectListRow } from "../objects/list-query";
import { objectsMatching } from "../objects/matching";
import { runPlanPass, runStateEngine } from "./engine";

// The forecast (console.state_forecast, and the object list's filters past now) against the engine
// itself: the forecast for an instant T ahead, taken now, must be what the engine records when it
// runs at T, object by object and state by state; the same for states entered and left during a
// window ahead. The engine's run at T happens in a transaction that is rolled back: a copy of the
// registry as it is now.

const DAY = 86_400_000;
const ZONE = "Europe/Prague";
/** The registry's data is built around the real present, as the list's filters read now from the clock. */
const NOW = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const at = (days: number, hours = 0) => new Date(NOW.getTime() + days * DAY + hours * 3_600_000);
const day = (days: number) => at(days).toISOString().slice(0, 10);

/** A domain expiring on each day from `first` to `last` days from NOW, kept in `ids` as `d<days>`. */
async function expiringDomains(
  tx: SqlExecutor,
  ids: Record<string, number>,
  contacts: { holder: number; ns: number },
  first: number,
  last: number,
): Promise<void> {
  for (let d = first; d <= last; d++)
    ids[`d${d}`] = await createDomain(tx, {
      name: `exp${d + 100}.cz`,
      crdate: "2020-03-10T10:00:00Z",
      exdate: day(d),
      registrant: contacts.holder,
      nsset: contacts.ns,
    });
}

type Pair = string; // "object:state"

/** What `work` reads after the engine ran at `when`, on a transaction that is then undone. */
function afterEngineAt<T>(db: Database, when: Date, work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  return rolledBack(db.sql, async (tx: SqlExecutor) => {
    await runStateEngine(tx, { at: when });
    return work(tx);
  });
}

const pairs = (rows: { object_id: number; state_id: number }[]): Pair[] => rows.map((r) => `${r.object_id}:${r.state_id}`).sort();

async function recordedAt(tx: SqlExecutor, when: Date): Promise<Pair[]> {
  return pairs(
    await tx.query(
      `SELECT object_id, state_id FROM object_state
        WHERE valid_from <= $1::timestamptz AT TIME ZONE 'UTC' AND (valid_to IS NULL OR valid_to > $1::timestamptz AT TIME ZONE 'UTC')`,
      [when],
    ),
  );
}

async function recordedChanges(tx: SqlExecutor, column: "valid_from" | "valid_to", from: Date, to: Date): Promise<Pair[]> {
  return pairs(
    await tx.query(
      `SELECT DISTINCT object_id, state_id FROM object_state
        WHERE ${column} >= $1::timestamptz AT TIME ZONE 'UTC' AND ${column} < $2::timestamptz AT TIME ZONE 'UTC'`,
      [from, to],
    ),
  );
}

/**
 * Each backend twice: the forecast from the rules for every object that changes (the stored plan not
 * written), and from the stored plan (console.state_plan, written by its pass after the registry was built).
 */
const withPlan = testBackends().flatMap((backend) => [
  { ...backend, plan: false, how: "from the rules" },
  { ...backend, plan: true, how: "from the stored plan" },
]);

describe.each(withPlan)("registry-wide forecast on $name, $how", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    ({ db, drop } = await registryAt(backend, NOW, async (tx) => {
      const holder = await createObject(tx, TYPE.contact, "HOLDER", "2020-01-01T10:00:00Z");
      const ns = await createObject(tx, TYPE.nsset, "NSS-MAIN", "2020-01-01T10:00:00Z");
      // A domain expiring on every day from 75 days ago to 35 days ahead: each day of a window
      // ahead holds some lifecycle step (warning, expiry, the zone warnings and exit, deletion).
      await expiringDomains(tx, ids, { holder, ns }, -75, 35);
      ids.noNsset = await createDomain(tx, {
        name: "no-nsset.cz",
        crdate: "2025-05-01T08:00:00Z",
        exdate: day(200),
        registrant: holder,
        nsset: null,
      });
      ids.enum = await createDomain(tx, {
        name: "4.3.2.1.0.2.4.e164.arpa",
        crdate: "2020-03-10T10:00:00Z",
        exdate: day(300),
        registrant: holder,
        nsset: ns,
        validationExdate: day(2),
      });
      // Requests that start and end inside the windows ahead.
      ids.outzone = await createDomain(tx, {
        name: "outzone-later.cz",
        crdate: "2020-03-10T10:00:00Z",
        exdate: day(300),
        registrant: holder,
        nsset: ns,
      });
      await createRequest(tx, ids.outzone, "serverOutzoneManual", at(1, 5).toISOString(), at(2, 7).toISOString());
      ids.blocked = await createDomain(tx, {
        name: "blocked-until.cz",
        crdate: "2020-03-10T10:00:00Z",
        exdate: day(300),
        registrant: holder,
        nsset: ns,
      });
      await createRequest(tx, ids.blocked, "serverBlocked", at(-10).toISOString(), at(2, 3).toISOString());
      await createRequest(tx, ids.blocked, "serverUpdateProhibited", at(3).toISOString());
      ids.inzone = ids["d-40"];
      await createRequest(tx, ids.inzone, "serverInzoneManual", at(1).toISOString(), at(3).toISOString());
      ids.canceled = await createDomain(tx, {
        name: "canceled.cz",
        crdate: "2020-03-10T10:00:00Z",
        exdate: day(300),
        registrant: holder,
        nsset: ns,
      });
      await createRequest(tx, ids.canceled, "serverTransferProhibited", at(2).toISOString(), null, at(-1).toISOString());
      // Contacts left unlinked for about the protection period: deleteCandidate comes on some day ahead.
      for (let d = 0; d < 6; d++)
        await createObject(tx, TYPE.contact, `ALONE-${d}`, new Date(NOW.getTime() - (183 - d) * DAY).toISOString());
    }));
    if (backend.plan) expect(await runPlanPass(db.sql)).toMatchObject({ kind: "full", periods: expect.any(Number) });
    const [{ trusted }] = await db.sql.query<{ trusted: boolean }>("SELECT console.state_plan_trusted() AS trusted");
    expect(trusted).toBe(backend.plan);
  });
  afterAll(() => drop());

  /** (object, state) pairs of the forecast periods that pass `when`, over the window [from, to]. */
  async function foreseen(from: Date, to: Date, when: string): Promise<Pair[]> {
    return pairs(await db.sql.query(`SELECT DISTINCT object_id, state_id FROM console.state_forecast($1, $2) f WHERE ${when}`, [from, to]));
  }

  it("asks once per object whether the stored plan holds for it (the lists call state_forecast_of for every object they pass)", async () => {
    const calls = await rolledBack(db.sql, async (tx: SqlExecutor) => {
      await tx.query("SET LOCAL track_functions = 'all'");
      const [{ objects }] = await tx.query<{ objects: number }>(
        `SELECT count(DISTINCT o.id)::int AS objects
           FROM object_registry o LEFT JOIN LATERAL console.state_forecast_of(o.id) f ON true`,
      );
      const [{ holds }] = await tx.query<{ holds: number }>(
        "SELECT pg_stat_get_xact_function_calls('console.state_plan_holds(integer)'::regprocedure)::int AS holds",
      );
      return { objects, holds };
    });
    expect(calls.objects).toBeGreaterThan(10);
    expect(calls.holds).toBe(calls.objects);
  });

  it("foresees for an instant three days ahead exactly what the engine records when it runs then", async () => {
    const T = at(3, 2);
    const forecast = await foreseen(T, T, "f.valid_from <= $1 AND (f.valid_to IS NULL OR f.valid_to > $1)");
    const engine = await afterEngineAt(db, T, (tx) => recordedAt(tx, T));
    expect(forecast).toEqual(engine);
    // Not the present again: the instant ahead differs from now in many (object, state) pairs.
    const present = await recordedAt(db.sql, NOW);
    const changed = engine.filter((pair) => !present.includes(pair)).length + present.filter((pair) => !engine.includes(pair)).length;
    expect(changed).toBeGreaterThan(10);
  });

  it("foresees the states entered and left during a window ahead as the engine records them", async () => {
    const [from, to] = [at(1), at(5)];
    const entered = await foreseen(from, to, "f.valid_from >= $1 AND f.valid_from < $2");
    const left = await foreseen(from, to, "f.valid_to >= $1 AND f.valid_to < $2");
    const engine = await afterEngineAt(db, to, async (tx) => ({
      entered: await recordedChanges(tx, "valid_from", from, to),
      left: await recordedChanges(tx, "valid_to", from, to),
    }));
    expect(entered).toEqual(engine.entered);
    expect(left).toEqual(engine.left);
    expect(entered.length).toBeGreaterThan(5);
    expect(left.length).toBeGreaterThan(5);
    // The requests' own periods are among them.
    expect(entered).toContain(`${ids.outzone}:5`);
    expect(left).toContain(`${ids.blocked}:7`);
    expect(entered.some((pair) => pair.startsWith(`${ids.canceled}:`))).toBe(false);
  });

  it("lists, on the object list's filters, the objects the engine gives the state at T and those that enter it during a window", async () => {
    const T = at(3, 2);
    const states = await db.sql.query<{ id: number; name: string }>("SELECT id, name FROM enum_object_states");
    const name = (id: number) => states.find((s) => s.id === id)?.name as string;
    const wall = (instant: Date) => wallTime(instant.getTime(), ZONE);
    const engine = await afterEngineAt(db, at(5), async (tx) => ({
      atT: await recordedAt(tx, T),
      entered: await recordedChanges(tx, "valid_from", at(1), at(5)),
    }));
    let listedEntries = 0;
    for (const state of ["outzone", "expired", "deleteCandidate", "serverBlocked", "serverUpdateProhibited"]) {
      const id = states.find((s) => s.name === state)?.id as number;
      const expected = (list: Pair[]) =>
        list
          .filter((pair) => pair.endsWith(`:${id}`))
          .map((pair) => Number(pair.split(":")[0]))
          .sort((a, b) => a - b);
      const listed = async (params: Record<string, string>) =>
        (await objectsMatching(db.sql, { states: name(id), ...params }, 10_000)).objects.map((o) => o.id).sort((a, b) => a - b);
      expect(await listed({ mode: "at", at: wall(T) }), state).toEqual(expected(engine.atT));
      const entered = await listed({ mode: "entered", from: wall(at(1)), to: wall(at(5)) });
      expect(entered, state).toEqual(expected(engine.entered));
      listedEntries += entered.length;
    }
    // Entries that exist only ahead: the recorded history has none of them yet.
    expect(listedEntries).toBeGreaterThan(3);
  });
});

// The object list's "when" columns (issue 41, item 5) against the engine: the instant the list says a
// state enters, for each object a filter by a window ahead lists, is the instant the engine records
// when it runs past it; the states the list says an object holds at T ahead are those the engine
// records at T; a change ahead names its cause.
describe.each(withPlan)("the object list says when, on $name, $how", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let list: (params: Record<string, string>) => Promise<ObjectListPage>;
  const ids: Record<string, number> = {};
  const wall = (instant: Date) => wallTime(instant.getTime(), ZONE);

  beforeAll(async () => {
    ({ db, drop } = await registryAt(backend, NOW, async (tx) => {
      const holder = await createObject(tx, TYPE.contact, "HOLDER", "2020-01-01T10:00:00Z");
      const ns = await createObject(tx, TYPE.nsset, "NSS-MAIN", "2020-01-01T10:00:00Z");
      await expiringDomains(tx, ids, { holder, ns }, -75, -25);
      // Out of the zone 40 days after expiry, kept in it by serverInzoneManual until two days ahead.
      ids.kept = ids["d-40"];
      const kept = await createRequest(tx, ids.kept, "serverInzoneManual", at(-5).toISOString(), at(2, 3).toISOString());
      await tx.query(
        "INSERT INTO object_state_request_reason (object_state_request_id, reason_creation) VALUES ($1, 'court order 12/2026')",
        [kept],
      );
      ids.blocked = await createDomain(tx, {
        name: "blocked.cz",
        crdate: "2020-03-10T10:00:00Z",
        exdate: day(300),
        registrant: holder,
        nsset: ns,
      });
      await createRequest(tx, ids.blocked, "serverBlocked", at(-20).toISOString(), at(-10).toISOString());
      await createRequest(tx, ids.blocked, "serverBlocked", at(-3).toISOString(), at(4).toISOString());
      // Three locks in force since two days ago, each ending on another day ahead.
      for (const [name, end] of [
        ["d-30", 5],
        ["d-31", 3],
        ["d-32", 6],
      ] as const)
        await createRequest(tx, ids[name], "serverTransferProhibited", at(-2).toISOString(), at(end).toISOString());
    }));
    if (backend.plan) await runPlanPass(db.sql);
    const support = await signedInAs(db, "support");
    list = (params) => actAs(support, () => listObjects({ size: "500", ...params }));
  });
  afterAll(() => drop());

  it("gives, for states entered in a window ahead, the instant the engine records and the cause of each entry", async () => {
    const engine = await afterEngineAt(db, at(8), (tx) =>
      tx.query<{ object_id: number; valid_from: Date }>(
        `SELECT os.object_id, os.valid_from AT TIME ZONE 'UTC' AS valid_from FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
          WHERE s.name = 'outzone' AND os.valid_from >= $1::timestamptz AT TIME ZONE 'UTC' AND os.valid_from < $2::timestamptz AT TIME ZONE 'UTC'`,
        [at(0, 1), at(7)],
      ),
    );
    const page = await list({ states: "outzone", mode: "entered", from: wall(at(0, 1)), to: wall(at(7)) });
    expect(page.rows.length).toBeGreaterThan(2);
    expect(page.rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(engine.map((r) => r.object_id).sort((a, b) => a - b));
    for (const row of page.rows) {
      const recorded = engine.find((r) => r.object_id === row.id)?.valid_from as Date;
      expect(row.when, row.name).toMatchObject({ state: "outzone", from: recorded.toISOString(), fromAhead: true });
      expect(row.when).toMatchObject({ change: "from", cause: expect.any(String) });
    }
    // Kept in the zone by a request: its end is the cause, with the request's reason.
    const kept = page.rows.find((r) => r.id === ids.kept);
    expect(kept?.when?.from).toBe(at(2, 3).toISOString());
    expect(kept?.when?.cause).toMatch(
      /^its serverInzoneManual request \d+ ends: “court order 12\/2026”; out of the zone: unguarded since /,
    );
    // The others: expiry, by the rule.
    expect(page.rows.find((r) => r.id === ids["d-29"])?.when?.cause).toMatch(/unguarded/);
  });

  it("sorts by when the state enters or leaves, both ways, and pages through the order", async () => {
    const params = { states: "outzone", mode: "during", from: wall(at(-60)), to: wall(at(7)) };
    const whole = (await list({ ...params, sort: "from" })).rows;
    const froms = whole.map((r) => r.when?.from as string);
    expect(froms.length).toBeGreaterThan(5);
    expect([...froms].sort()).toEqual(froms);
    const back = (await list({ ...params, sort: "-from" })).rows.map((r) => r.when?.from);
    expect(back).toEqual([...froms].reverse());
    // Until: periods with no end foreseen come last.
    const untils = (await list({ ...params, sort: "until" })).rows.map((r) => r.when?.until ?? "~");
    expect([...untils].sort()).toEqual(untils);
    // Two rows a page, walked with Next: the same order.
    const walked: number[] = [];
    let page = await list({ ...params, sort: "from", size: "25" });
    walked.push(...page.rows.map((r) => r.id));
    while (page.next) {
      page = await list({ ...params, sort: "from", size: "25", after: page.next });
      walked.push(...page.rows.map((r) => r.id));
    }
    expect(walked).toEqual(whole.map((r) => r.id));
    expect(walked.length).toBeGreaterThan(25);
    // Without a filter by an instant or a window there is no "when" to sort by: said, and sorted by name.
    const plain = await list({ states: "outzone", sort: "from" });
    expect(plain.sort).toEqual({ key: "name", desc: false });
    expect(plain.notices.map((n) => english(n))).toEqual([expect.stringMatching(/needs a state filter by an instant or a window/)]);
    expect(plain.rows[0].when).toBeUndefined();
  });

  it("sorts a window wholly ahead or wholly past by when, with each row's own period as the key (read as one set)", async () => {
    const cases: Record<string, string>[] = [
      // Wholly past: a block that ended, one still in force (its end foreseen), entries recorded.
      { states: "serverBlocked", mode: "at", at: wall(at(-15)) },
      { states: "serverBlocked", mode: "at", at: wall(at(-1)) },
      // Locks in force yesterday and still: each period's end is the forecast's (its request's end).
      { states: "serverTransferProhibited", mode: "at", at: wall(at(-1)) },
      { states: "outzone", mode: "entered", from: wall(at(-60)), to: wall(at(-1)) },
      // Wholly ahead (as one set from the stored plan; from the rules, object by object).
      { states: "outzone", mode: "entered", from: wall(at(0, 1)), to: wall(at(7)) },
      { states: "outzone,serverBlocked", state_match: "any", mode: "at", at: wall(at(3)) },
      { states: "serverBlocked", mode: "left", from: wall(at(0, 1)), to: wall(at(7)) },
    ];
    for (const params of cases) {
      const unsorted = (await list(params)).rows;
      expect(unsorted.length, params.mode).toBeGreaterThan(0);
      // Each row's period as the unsorted list shows it (asked object by object).
      const shown = new Map(unsorted.map((r) => [r.id, r.when]));
      for (const [sort, key] of [
        ["from", (r: ObjectListRow) => r.when?.from ?? "~"],
        ["until", (r: ObjectListRow) => r.when?.until ?? "~"],
      ] as const) {
        const rows = (await list({ ...params, sort })).rows;
        expect(
          rows.map((r) => r.id).sort((a, b) => a - b),
          `${params.mode} by ${sort}`,
        ).toEqual(unsorted.map((r) => r.id).sort((a, b) => a - b));
        for (const row of rows) expect(row.when, row.name).toEqual(shown.get(row.id));
        const keys = rows.map(key);
        expect(keys, `${params.mode} by ${sort}`).toEqual([...keys].sort());
        const back = (await list({ ...params, sort: `-${sort}` })).rows.map(key);
        expect(back).toEqual([...keys].sort().reverse());
      }
    }
  });

  it("shows for 'had at T' the states held at T, not now, and when the period began and ends", async () => {
    const T = at(-15);
    const page = await list({ states: "serverBlocked", mode: "at", at: wall(T) });
    expect(page.rows.map((r) => r.id)).toEqual([ids.blocked]);
    const [row] = page.rows;
    expect(row.statesAt).toContain("serverBlocked");
    expect(row.when).toMatchObject({
      state: "serverBlocked",
      from: at(-20).toISOString(),
      until: at(-10).toISOString(),
      fromAhead: false,
      untilAhead: false,
      cause: null,
    });
    // Sorted by when the period began or ends, on the page and in the CSV (the states then are not part of the order).
    for (const sort of ["until", "-from"]) {
      const sorted = await list({ states: "serverBlocked", mode: "at", at: wall(T), sort });
      expect(sorted.rows.map((r) => r.id)).toEqual([ids.blocked]);
      const support = await signedInAs(db, "support");
      const exported = await actAs(support, () => exportObjects({ states: "serverBlocked", mode: "at", at: wall(T), sort }));
      let csv = "";
      for await (const chunk of exported.chunks) csv += chunk;
      expect(csv.trim().split("\r\n")).toHaveLength(2);
      expect(csv).toContain(`,serverBlocked,${at(-20).toISOString()},${at(-10).toISOString()},,,`);
    }
    // Behind now, in the block still in force: its end is the one foreseen (the rules are asked for it).
    const behind = await list({ states: "serverBlocked", mode: "at", at: wall(at(-1)) });
    expect(behind.rows[0].when).toMatchObject({
      from: at(-3).toISOString(),
      until: at(4).toISOString(),
      fromAhead: false,
      untilAhead: true,
    });
    expect(behind.rows[0].when).toMatchObject({ change: "until", cause: expect.stringMatching(/^its request \d+ ends$/) });
    // Ahead: the block now in force ends in four days, by its request's end.
    const ahead = await list({ states: "serverBlocked", mode: "at", at: wall(at(1)) });
    expect(ahead.rows[0].when).toMatchObject({ from: at(-3).toISOString(), until: at(4).toISOString(), untilAhead: true });
    expect(ahead.rows[0].when).toMatchObject({ change: "until", cause: expect.stringMatching(/^its request \d+ ends$/) });
    expect(ahead.rows[0].statesAt).toContain("serverBlocked");
    // Not held at T+16 days (after the end): the states then leave serverBlocked out.
    const later = await list({ states: "expired", mode: "at", at: wall(at(5)) });
    expect(later.rows.find((r) => r.id === ids.blocked)).toBeUndefined();
  });

  it("exports the when columns to CSV", async () => {
    const support = await signedInAs(db, "support");
    const exported = await actAs(support, () =>
      exportObjects({ states: "outzone", mode: "entered", from: wall(at(0, 1)), to: wall(at(7)), sort: "-from" }),
    );
    let csv = "";
    for await (const chunk of exported.chunks) csv += chunk;
    const [head, ...lines] = csv.trim().split("\r\n");
    expect(head).toBe(
      "id,name,type,sponsoring_registrar,created,expires,states,pending_requests,period_state,period_from,period_until,change_ahead,change_cause",
    );
    const kept = lines.find((line) => line.startsWith(`${ids.kept},`)) as string;
    expect(kept).toContain(`,outzone,${at(2, 3).toISOString()},`);
    expect(kept).toMatch(/,from,"?its serverInzoneManual request \d+ ends/);
    const froms = lines.map((line) => line.split(",")[9]);
    expect([...froms].sort().reverse()).toEqual(froms);
  });
});

// The stored plan (console.state_plan, migration 20261208000000_state_plan) through the changes FRED's
// commands and the console make after it was written: the forecast read from the plan and its marks
// must be, at every moment, the forecast the rules give for every object.
describe.each(testBackends())("the forecast's stored plan on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    ({ db, drop } = await registryAt(backend, NOW, async (tx) => {
      const holder = await createObject(tx, TYPE.contact, "HOLDER", "2020-01-01T10:00:00Z");
      const ns = await createObject(tx, TYPE.nsset, "NSS-MAIN", "2020-01-01T10:00:00Z");
      ids.ns = ns;
      await expiringDomains(tx, ids, { holder, ns }, -75, 35);
      // A contact linked only as one domain's holder: unlinked when the holder changes.
      ids.onlyHolder = await createObject(tx, TYPE.contact, "ONLY-HOLDER", "2020-01-01T10:00:00Z");
      ids.holder = holder;
      ids.lone = await createDomain(tx, {
        name: "lone-holder.cz",
        crdate: "2020-03-10T10:00:00Z",
        exdate: day(300),
        registrant: ids.onlyHolder,
        nsset: ns,
      });
      ids.requested = await createDomain(tx, {
        name: "requested.cz",
        crdate: "2020-03-10T10:00:00Z",
        exdate: day(300),
        registrant: holder,
        nsset: ns,
      });
      ids.outzoneRequest = await createRequest(tx, ids.requested, "serverOutzoneManual", at(1, 5).toISOString(), at(2, 7).toISOString());
    }));
    expect(await runPlanPass(db.sql)).toMatchObject({ kind: "full" });
  });
  afterAll(() => drop());

  /** Every forecast period over [from, to], and each object's own (state_forecast_of), as text. */
  async function forecastNow(tx: SqlExecutor): Promise<{ wide: string[]; own: string[] }> {
    const rows = (list: { o: number; s: number; lo: Date; hi: Date | null }[]) =>
      list.map((r) => `${r.o}:${r.s}:${r.lo.toISOString()}:${r.hi?.toISOString() ?? "-"}`).sort();
    const wide = await tx.query<{ o: number; s: number; lo: Date; hi: Date | null }>(
      `SELECT f.object_id AS o, f.state_id AS s, f.valid_from AS lo, f.valid_to AS hi FROM console.state_forecast($1, $2) f`,
      [at(0, 1), at(400)],
    );
    const own = await tx.query<{ o: number; s: number; lo: Date; hi: Date | null }>(
      `SELECT o.id AS o, f.state_id AS s, f.valid_from AS lo, f.valid_to AS hi
         FROM object_registry o CROSS JOIN LATERAL console.state_forecast_of(o.id) f
        WHERE f.valid_to IS NULL OR f.valid_to >= $1`,
      [at(0, 1)],
    );
    return { wide: rows(wide), own: rows(own) };
  }

  /** The same from the rules alone: the plan set aside, in a transaction that is undone. */
  function byRules(): Promise<{ wide: string[]; own: string[] }> {
    return rolledBack(db.sql, async (tx: SqlExecutor) => {
      await tx.query("UPDATE console.state_plan_status SET built_at = NULL");
      return forecastNow(tx);
    });
  }

  /**
   * For filters by an instant and windows ahead of several states, the objects filterSql lists with
   * each form of the forecast (as one set, tested as the list walks, object by object), which must be
   * the same; the number of matches.
   */
  async function bothForms(): Promise<number> {
    const states = await db.sql.query<{ id: number }>(
      "SELECT id FROM enum_object_states WHERE name IN ('outzone', 'expired', 'deleteCandidate', 'serverBlocked', 'linked', 'expirationWarning')",
    );
    let matches = 0;
    for (const { id } of states)
      for (const state of [
        { mode: "at" as const, at: at(3, 2) },
        { mode: "at" as const, at: at(200) },
        { mode: "during" as const, from: at(1), to: at(30) },
        { mode: "entered" as const, from: at(0, 1), to: at(30) },
        { mode: "left" as const, from: at(0, 1), to: at(30) },
      ]) {
        const filter: ObjectFilter = {
          type: null,
          name: null,
          registrar: null,
          registrarId: null,
          created: {},
          expires: {},
          deleted: "exclude",
          state: { states: [id], match: "any", ...state },
          pendingRequest: false,
          request: null,
        };
        const listed = async (forecastForm: ForecastForm) => {
          const { where, params } = filterSql(filter, new Date(), 0, { forecastForm });
          return (await db.sql.query<{ id: number }>(`SELECT o.id FROM console.object_key o WHERE ${where} ORDER BY o.id`, params)).map(
            (r) => r.id,
          );
        };
        const set = await listed("set");
        expect(await listed("walk"), `${id} ${JSON.stringify(state)}`).toEqual(set);
        expect(await listed("object"), `${id} ${JSON.stringify(state)}`).toEqual(set);
        matches += set.length;
      }
    return matches;
  }

  it("stays the rules' forecast through renewals, requests, cancelations, unlinks, deletions and new objects", async () => {
    expect(await bothForms()).toBeGreaterThan(20);
    const fromPlan = await forecastNow(db.sql);
    expect(fromPlan).toEqual(await byRules());
    expect(fromPlan.wide.length).toBeGreaterThan(100);
    const [{ n: planned }] = await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM console.state_plan");
    expect(planned).toBeGreaterThan(100);

    // FRED's commands and the console's, as they write (the state triggers apply them at once).
    await db.sql.query("UPDATE domain SET exdate = exdate + 365 WHERE id = ANY ($1::int[])", [[ids.d3, ids["d-20"], ids["d-45"]]]);
    await db.sql.query("UPDATE object_state_request SET canceled = now() AT TIME ZONE 'UTC' WHERE id = $1", [ids.outzoneRequest]);
    await db.sql.transaction(async (tx) => {
      await tx.query("SELECT console.state_change_clock()");
      await createRequest(tx, ids.d10, "serverBlocked", at(1).toISOString(), at(4).toISOString());
    });
    await db.sql.query("UPDATE domain SET registrant = $1 WHERE id = $2", [ids.holder, ids.lone]);
    await db.sql.query("UPDATE object_registry SET erdate = now() AT TIME ZONE 'UTC' WHERE id = $1", [ids.d20]);
    await db.sql.query("DELETE FROM domain WHERE id = $1", [ids.d20]);
    const fresh = await createDomain(db.sql, {
      name: "fresh.cz",
      crdate: at(0).toISOString(),
      exdate: day(10),
      registrant: ids.holder,
      nsset: ids.ns,
    });

    // Each change is in the forecast at once: read from the rules for the marked objects.
    const [{ marked }] = await db.sql.query<{ marked: number[] }>(
      "SELECT array_agg(DISTINCT object_id ORDER BY object_id) AS marked FROM console.state_plan_stale",
    );
    expect(marked).toEqual(expect.arrayContaining([ids.d3, ids.requested, ids.d10, ids.onlyHolder, ids.d20, fresh]));
    const marks = await forecastNow(db.sql);
    expect(marks).toEqual(await byRules());
    expect(marks.wide).not.toEqual(fromPlan.wide);
    expect(marks.own.some((row) => row.startsWith(`${fresh}:`))).toBe(true);

    // Without the marks the plan alone would be wrong: the test sees a stale plan.
    const stale = await rolledBack(db.sql, async (tx: SqlExecutor) => {
      await tx.query("DELETE FROM console.state_plan_stale");
      return forecastNow(tx);
    });
    expect(stale.wide).not.toEqual(marks.wide);

    // The list's three ways of asking the forecast list the same objects.
    expect(await bothForms()).toBeGreaterThan(20);

    // The next pass writes the plan again for them and takes the marks.
    expect(await runPlanPass(db.sql)).toMatchObject({ kind: "marked", objects: marked.length });
    const [{ left }] = await db.sql.query<{ left: number }>("SELECT count(*)::int AS left FROM console.state_plan_stale");
    expect(left).toBe(0);
    expect(await forecastNow(db.sql)).toEqual(marks);
  });

  it("is trusted only in charge, written since the registry moved into it, and not after a full run or a change of parameters", async () => {
    /** The statements' outcome in a transaction that is undone. */
    const undone = <T>(changes: string[], read: string) =>
      rolledBack(db.sql, async (tx: SqlExecutor) => {
        for (const change of changes) await tx.query(change);
        return (await tx.query<T>(read))[0];
      });
    const trusted = async (change: string) =>
      (await undone<{ result: boolean }>([change], "SELECT console.state_plan_trusted() AS result")).result;
    expect(await trusted("SELECT 1")).toBe(true);
    expect(await trusted("UPDATE console.registry_origin SET origin = 'adopted', mode = 'beside'")).toBe(false);
    expect(await trusted("UPDATE console.registry_origin SET mode_since = now() + interval '1 second'")).toBe(false);
    expect(await trusted("SELECT * FROM console.state_engine_run(now(), true)")).toBe(false);
    expect(await trusted("UPDATE enum_parameters SET val = val WHERE name = 'expiration_dns_protection_period'")).toBe(false);
    // Untrusted, the pass writes it whole again.
    expect(await undone(["UPDATE console.state_plan_status SET built_at = NULL"], "SELECT * FROM console.state_plan_pass()")).toMatchObject(
      {
        kind: "full",
      },
    );
    // Beside nothing marks a change: the pass leaves the plan alone.
    expect(
      await undone(["UPDATE console.registry_origin SET origin = 'adopted', mode = 'beside'"], "SELECT * FROM console.state_plan_pass()"),
    ).toMatchObject({ kind: "not in charge", objects: 0 });
  });
});
