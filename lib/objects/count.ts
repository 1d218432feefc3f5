/**
 * Counting a list's matches within a time budget: exactly when that is quick, else a bound that was
 * counted (countMatches), with the bounds kept a minute per filter; the budgeted count itself
 * (countWithin) and the planner's estimate (estimateRows), which other reads use too.
 */
import "server-only";
import { LRUCache } from "lru-cache";
import type { SqlExecutor, SqlReader } from "../db/driver";
import type { MatchCount } from "./count-text";
import { type ListRequest, whereOf } from "./list-request";
import { LISTED_OBJECTS } from "./paging";

/**
 * A total is counted exactly when the planner expects at most COUNT_LIMIT matches and the count
 * takes at most COUNT_BUDGET_MS. Otherwise what is shown is a bound that was counted, never the
 * planner's estimate (which was off by a third for "name contains .cz": 13,321 against 19,400):
 * "more than COUNT_LIMIT" when that many were counted within the budget, else "more than
 * COUNT_FLOOR", else no number at all (all attempts share the one budget). A person can then ask for the whole count (`count=all`),
 * which may take up to COUNT_ALL_BUDGET_MS.
 */
export const COUNT_LIMIT = 100_000;
export const COUNT_BUDGET_MS = 25;
export const COUNT_FLOOR = 1_000;
const COUNT_ALL_BUDGET_MS = 10_000;
/**
 * How long a counted bound is shown again for the same filter without counting, and how many
 * filters' bounds a process keeps. Measured with bench:load at 1.5 million domains (20 users, 2
 * cores): every list page spent its 25 ms budget on broad filters, and list pages missed their
 * 100 ms p95 (95-108 ms); the next page of a list repeats its filter.
 */
export const BOUND_TTL_MS = 60_000;
export const BOUNDS_KEPT = 500;
const keptBounds = new LRUCache<string, MatchCount>({ max: BOUNDS_KEPT, ttl: BOUND_TTL_MS });
/**
 * Filters whose count ran out of its budget before even COUNT_FLOOR was counted ("many": a page
 * that says no number), kept by their shape (shapeOf) for BOUND_TTL_MS: a filter by an instant
 * measured from now ("deleteCandidate in 30 days") is a new filter each second, and at 1.5 million
 * domains every such page spent the whole 25 ms budget again to say "many" (bench:load). "Many"
 * claims nothing, so the same shape a few seconds later says it without counting.
 */
const keptUncounted = new LRUCache<string, true>({ max: BOUNDS_KEPT, ttl: BOUND_TTL_MS });

/**
 * A value's shape as a cache key: its instants as whole minutes from `now`, so "30 days ahead"
 * asked again a few seconds later is the same shape.
 */
export function shapeOf(value: unknown, now: Date): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key, json) {
    const raw = this[key];
    return raw instanceof Date ? { minutesFromNow: Math.round((raw.getTime() - now.getTime()) / 60_000) } : json;
  });
}
/**
 * A name search by "contains" is counted through the trigram index, which must recheck every
 * match in the table: about a microsecond each, so beyond this many the count would spend its
 * whole budget and then give the estimate anyway (at 1.5 million domains, "praha": 20,332 matches,
 * 23 ms alone and always over the budget under load, while the page itself took 6-9 ms).
 */
export const NAME_COUNT_LIMIT = 10_000;
/**
 * A page that probes each object's history (and every count within its budget) runs without
 * parallel workers: the planner picks a parallel walk of the name order for a rare filter, and
 * starting its workers took longer than the walk (at 1.5 million domains, "had serverBlocked at
 * T": 19-28 ms parallel, 8-10 ms serial; a count canceled at its 25 ms budget ended after 32-41 ms
 * instead of 27).
 */
export const SERIAL_SQL = "SELECT set_config('max_parallel_workers_per_gather', '0', true)";

/** A node of a plan as EXPLAIN (FORMAT JSON) gives it: "Plan Rows", "Relation Name", its "Plans", … */
export type PlanNode = Record<string, unknown> & { "Plan Rows": number; Plans?: PlanNode[] };

/** The planner's plan for a query, its top node (pg gives the JSON parsed, PGlite as text). */
export async function explainPlan(db: SqlExecutor, sql: string, params: unknown[]): Promise<PlanNode> {
  const [plan] = await db.query<{ "QUERY PLAN": string | [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  const raw = plan["QUERY PLAN"];
  return (typeof raw === "string" ? JSON.parse(raw) : raw)[0].Plan;
}

/** The planner's row estimate for a query. */
export async function estimateRows(db: SqlExecutor, sql: string, params: unknown[]): Promise<number> {
  return (await explainPlan(db, sql, params))["Plan Rows"];
}

/**
 * What a count with LIMIT runs with: a plan that yields its first rows at once. The planner
 * otherwise prices the bound by the whole join (at 1.5 million domains, "has outzone now" with
 * LIMIT 1,001 merge-joined from the lowest object id through 700,000 contacts: 129-151 ms against
 * 5 ms for index probes), and JIT compiles for 8-10 ms before a 25 ms budget starts to count.
 */
const FAST_START_SQL =
  "SELECT set_config('enable_mergejoin', 'off', true), set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)";

/**
 * count(*) of `sql` (at most `limit` rows when given) within `budgetMs`; null when the budget ran out.
 * A bounded count is planned for a fast start unless `fastStart` is false.
 */
export async function countWithin(
  db: SqlReader,
  sql: string,
  params: unknown[],
  budgetMs: number,
  limit?: number,
  fastStart = true,
): Promise<number | null> {
  try {
    return await db.transaction(async (tx) => {
      await tx.query(`${SERIAL_SQL}, set_config('statement_timeout', $1, true)`, [String(Math.max(1, Math.floor(budgetMs)))]);
      if (limit !== undefined && fastStart) await tx.query(FAST_START_SQL);
      const bounded = limit === undefined ? sql : `${sql} LIMIT ${Math.floor(limit)}`;
      const [{ n }] = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${bounded}) x`, params);
      return n;
    });
  } catch (error) {
    // 57014: canceled by the statement timeout.
    if ((error as { code?: string }).code !== "57014") throw error;
    return null;
  }
}

/**
 * The number of matches: counted when the planner expects at most COUNT_LIMIT (NAME_COUNT_LIMIT
 * for a "contains" name search) and the count finishes within the budget (a statement timeout,
 * enforced by PostgreSQL; PGlite counts to the end). Otherwise a bound that was counted: more
 * than COUNT_FLOOR first, then (if time is left) more than the limit, each counted with LIMIT
 * on a fast-start plan; when not even the floor was reached, "many" (0, atLeast). All attempts
 * share the one `budgetMs`, so a filter nothing can count quickly costs the page that much, not a
 * budget per attempt. `all`: the whole count was asked for, within COUNT_ALL_BUDGET_MS.
 */
export async function countMatches(
  db: SqlReader,
  request: Pick<ListRequest, "filter"> & Partial<Pick<ListRequest, "keysBehind" | "forecastForm">>,
  now: Date,
  budgetMs = COUNT_BUDGET_MS,
  all = false,
): Promise<MatchCount> {
  // A page that walks its order testing each object against the forecast ("walk") is counted as a
  // join with the forecast's set instead: counting walked the whole name order (at 1.5 million
  // domains, "entering outzone in the coming week": 5,057 matches, 218 ms walked, 17 ms as a set).
  const form = request.forecastForm === "walk" ? "set" : request.forecastForm;
  const { where, params } = whereOf({ ...request, forecastForm: form }, now);
  const sql = `SELECT 1 FROM ${LISTED_OBJECTS} WHERE ${where}`;
  const limit = request.filter.name?.match === "contains" ? NAME_COUNT_LIMIT : COUNT_LIMIT;
  if (all) {
    const total = await countWithin(db, sql, params, Math.max(budgetMs, COUNT_ALL_BUDGET_MS));
    if (total !== null) return { total, atLeast: false };
  }
  // A bound ("more than 1,000") stands for a minute: the next page of the same list, or another
  // person's same filter, does not spend the budget on it again. Exact counts are always counted.
  // Kept by the filter, not by its SQL's parameters: those of a filter by an instant or a window
  // hold the request's own now, and each page of a forecast list spent the whole budget again.
  const asked = [request.filter, request.keysBehind ?? false];
  const key = `${db.location}\u0000${JSON.stringify(asked)}`;
  const kept = keptBounds.get(key);
  if (!all && kept) return kept;
  const shape = `${db.location}\u0000${shapeOf(asked, now)}`;
  if (!all && keptUncounted.has(shape)) return { total: 0, atLeast: true };
  const deadline = performance.now() + budgetMs;
  const left = () => deadline - performance.now();
  if (!all && Math.round(await estimateRows(db, sql, params)) <= limit) {
    const total = await countWithin(db, sql, params, left());
    if (total !== null) return { total, atLeast: false };
  }
  let counted: MatchCount = { total: 0, atLeast: true };
  for (const bound of limit > COUNT_FLOOR ? [COUNT_FLOOR, limit] : [limit]) {
    if (left() < 1) break;
    const n = await countWithin(db, sql, params, left(), bound + 1);
    if (n === null) break;
    if (n <= bound) return { total: n, atLeast: false };
    counted = { total: bound, atLeast: true };
  }
  keptBounds.set(key, counted);
  if (counted.total === 0) keptUncounted.set(shape, true);
  return counted;
}
