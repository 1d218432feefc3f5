/**
 * How a list page reads its matches, chosen before it reads them: a name search by its matches
 * first or by walking the name order (nameReading), and the forecast's form (forecastFormOf). Both
 * probe the database, and keep what they found for a while.
 */
import "server-only";
import { LRUCache } from "lru-cache";
import type { SqlReader } from "../db/driver";
import { BOUND_TTL_MS, BOUNDS_KEPT, countWithin, estimateRows, shapeOf } from "./count";
import { chooseForecastForm, filterSql, forecastProbeSql, type ObjectFilter, saysWhen } from "./filter";
import type { ListRequest } from "./list-request";
import { LISTED_OBJECTS, WHEN_SORT_KEYS } from "./paging";

/**
 * What a "contains" probe found when it was a bound (more than NAME_WALK_FROM, or not counted
 * within its budget), by the name filter, for BOUND_TTL_MS: a common fragment spent the probe's
 * whole 15 ms budget on every page (7 of bench:load's 8 words at 1.5 million domains). Exact
 * counts are always counted, as countMatches does.
 */
const keptNameProbes = new LRUCache<string, { found: number | null }>({ max: BOUNDS_KEPT, ttl: BOUND_TTL_MS });
/**
 * The stored plan's count of a forecast filter's periods (forecastProbeSql), by the filter's shape,
 * for BOUND_TTL_MS: it only chooses how the page asks (chooseForecastForm), never what it shows,
 * and it read up to 34,000 plan rows per page for "deleteCandidate in 30 days" at 1.5 million
 * domains. Whether the plan is trusted is asked on every page.
 */
const keptForecastProbes = new LRUCache<string, { k: number; m: number; n: number }>({ max: BOUNDS_KEPT, ttl: BOUND_TTL_MS });
/**
 * A name search the planner expects to match at most this many objects reads its matches first
 * (trigram index) and sorts them, instead of walking the name order: names cluster (handles
 * before domains), so a walk can pass hundreds of thousands of names before the first match.
 */
const NAME_FIRST_LIMIT = 20_000;
/**
 * For "contains" the planner's estimate is a fixed guess, not a reading of the data (220 for every
 * fragment at 1.5 million domains: "stav" matched 19,336, and reading them all before sorting took
 * 55 ms, where walking the name order found its first page in 17). So a "contains" search counts
 * its matches up to this many, within NAME_PROBE_BUDGET_MS, through the trigram index: at most this
 * many are read first; more (or a count that ran out of time) walk the name order, without the
 * trigram index.
 */
const NAME_WALK_FROM = 2_000;
const NAME_PROBE_BUDGET_MS = 15;

/**
 * How the page asks the forecast, from the stored plan's count of its matches (forecastProbeSql), and
 * whether the plan is trusted. Sorted by when, every match is read before the first page: as one set
 * (and their periods too, where whenSetSql can).
 */
export async function forecastFormOf(
  db: SqlReader,
  request: Pick<ListRequest, "filter" | "sort">,
  now: Date,
): Promise<Pick<ListRequest, "forecastForm" | "planTrusted">> {
  const probe = forecastProbeSql(request.filter.state, now);
  if (!probe) {
    // Sorted by when, a filter wholly past still reads the ends of the periods holding now from the plan, if trusted.
    if (!saysWhen(request.filter.state) || !WHEN_SORT_KEYS.includes(request.sort.key)) return { forecastForm: "set", planTrusted: false };
    const [row] = await db.query<{ trusted: boolean }>("SELECT console.state_plan_trusted() AS trusted");
    return { forecastForm: "set", planTrusted: row?.trusted === true };
  }
  const key = `${db.location}\u0000${shapeOf(request.filter.state, now)}`;
  const figures = keptForecastProbes.get(key);
  let row: { trusted: boolean; k: number; m: number; n: number | null } | undefined;
  if (figures) {
    const [trust] = await db.query<{ trusted: boolean }>("SELECT console.state_plan_trusted() AS trusted");
    row = { ...figures, trusted: trust?.trusted === true };
  } else {
    [row] = await db.query<{ trusted: boolean; k: number; m: number; n: number | null }>(probe.sql, probe.params);
    if (row?.trusted && row.n !== null) keptForecastProbes.set(key, { k: row.k, m: row.m, n: row.n });
  }
  const planTrusted = row?.trusted === true;
  return { forecastForm: WHEN_SORT_KEYS.includes(request.sort.key) ? "set" : chooseForecastForm(row), planTrusted };
}

/** How a name search is read: its matches first, then sorted (NAME_FIRST_LIMIT), or by walking the name order (NAME_WALK_FROM). */
export async function nameReading(
  db: SqlReader,
  filter: ObjectFilter,
  walkFrom = NAME_WALK_FROM,
): Promise<Pick<ListRequest, "nameFirst" | "nameWalk" | "nameCount">> {
  if (!filter.name || filter.name.text.length < 3) return { nameFirst: false };
  const nameOnly: ObjectFilter = {
    ...filter,
    state: null,
    created: {},
    expires: {},
    registrar: null,
    registrarId: null,
    pendingRequest: false,
    request: null,
  };
  const now = new Date();
  const { where, params } = filterSql(nameOnly, now);
  const sql = `SELECT 1 FROM ${LISTED_OBJECTS} WHERE ${where}`;
  if (filter.name.match === "contains") {
    const key = `${db.location}\u0000${JSON.stringify([sql, params, walkFrom])}`;
    let found = keptNameProbes.get(key)?.found;
    if (found === undefined) {
      found = await countWithin(db, sql, params, NAME_PROBE_BUDGET_MS, walkFrom + 1, false);
      if (found === null || found > walkFrom) keptNameProbes.set(key, { found });
    }
    const common = found === null || found > walkFrom;
    // Only a search by name alone (its SQL is the name-only one) walks without the trigram index
    // (other conditions keep their plans), and only its count is the probe's.
    const alone = filterSql(filter, now).where === where;
    const nameCount = alone && found !== null ? { total: Math.min(found, walkFrom), atLeast: found > walkFrom } : undefined;
    return { nameFirst: !common, nameWalk: common && alone, ...(nameCount ? { nameCount } : {}) };
  }
  return { nameFirst: (await estimateRows(db, sql, params)) <= NAME_FIRST_LIMIT };
}
