import "server-only";
import { LRUCache } from "lru-cache";
import { audit } from "../audit/log";
import { authorize } from "../auth/guard";
import { readConfig } from "../config";
import { pageReads } from "../db/client";
import type { SqlExecutor, SqlReader } from "../db/driver";
import type { ConsoleFormat } from "../format/instant";
import { DEFAULT_LOCALE, descriptionLang, type Locale } from "../i18n/config";
import { type Message, msg } from "../i18n/message";
import { getLocale } from "../i18n/server";
import { readParams } from "../input/params";
import { liveObjectsNamed } from "../states/objects";
import type { MatchCount } from "./count-text";
import {
  chooseForecastForm,
  FILTER_PARAMS,
  type ForecastForm,
  filterSql,
  forecastProbeSql,
  isBareNameSearch,
  needsForecast,
  type ObjectFilter,
  type Param,
  type Params,
  parseFilter,
  ROID_SHAPE,
  reachesFuture,
  type StateFilter,
  saysWhen,
  statesAtSql,
  whenSetSql,
  whenSql,
} from "./filter";
import {
  encodeCursor,
  LISTED_OBJECTS,
  type Position,
  pageSql,
  parsePosition,
  parseSort,
  readsDescending,
  type Sort,
  WHEN_SORT_COLUMN,
  WHEN_SORT_KEYS,
  whenSortColumns,
} from "./paging";
import { reasonText } from "./reasons";

export const PAGE_SIZES = [25, 50, 100, 500] as const;
export const DEFAULT_PAGE_SIZE = 50;
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
export const COUNT_ALL_BUDGET_MS = 10_000;
/**
 * How long a counted bound is shown again for the same filter without counting, and how many
 * filters' bounds a process keeps. Measured with bench:load at 1.5 million domains (20 users, 2
 * cores): every list page spent its 25 ms budget on broad filters, and list pages missed their
 * 100 ms p95 (95-108 ms); the next page of a list repeats its filter.
 */
const BOUND_TTL_MS = 60_000;
const BOUNDS_KEPT = 500;
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
 * A name search the planner expects to match at most this many objects reads its matches first
 * (trigram index) and sorts them, instead of walking the name order: names cluster (handles
 * before domains), so a walk can pass hundreds of thousands of names before the first match.
 */
export const NAME_FIRST_LIMIT = 20_000;
/**
 * For "contains" the planner's estimate is a fixed guess, not a reading of the data (220 for every
 * fragment at 1.5 million domains: "stav" matched 19,336, and reading them all before sorting took
 * 55 ms, where walking the name order found its first page in 17). So a "contains" search counts
 * its matches up to this many, within NAME_PROBE_BUDGET_MS, through the trigram index: at most this
 * many are read first; more (or a count that ran out of time) walk the name order, without the
 * trigram index.
 */
export const NAME_WALK_FROM = 2_000;
export const NAME_PROBE_BUDGET_MS = 15;
const WALK_SQL = "SELECT set_config('enable_bitmapscan', 'off', true)";
/**
 * A page that probes each object's history (and every count within its budget) runs without
 * parallel workers: the planner picks a parallel walk of the name order for a rare filter, and
 * starting its workers took longer than the walk (at 1.5 million domains, "had serverBlocked at
 * T": 19-28 ms parallel, 8-10 ms serial; a count canceled at its 25 ms budget ended after 32-41 ms
 * instead of 27).
 */
const SERIAL_SQL = "SELECT set_config('max_parallel_workers_per_gather', '0', true)";
/** Whether the page probes each object's states or requests as it walks (the only pages planned in parallel). */
const probesHistory = (filter: ObjectFilter) => filter.state !== null || filter.request !== null || filter.pendingRequest;

/** The list's URL parameters: the filter's, paging and sorting, and `jump` (the page's: no jump to an exact match). */
const LIST_PARAMS = new Set([...FILTER_PARAMS, "sort", "after", "before", "last", "size", "page", "jump", "count"]);

export interface ObjectListRow {
  id: number;
  name: string;
  type: string;
  sponsoringRegistrar: string | null;
  created: string;
  /** Expiration date (domains), YYYY-MM-DD. */
  expires: string | null;
  /** Current states, catalogue names, most important first. */
  states: string[];
  /** Requests not canceled that start in the future. */
  pendingRequests: number;
  /** For a filter by an instant or a window: when the matched state's period began and ends, and why (see ObjectWhen). */
  when?: ObjectWhen | null;
  /** For a filter by an instant ("had at"): the states held then, most important first (recorded, or foreseen past now). */
  statesAt?: string[];
}

/**
 * The period of a filtered state that a filter by an instant or a window matched (issue 41, item 5):
 * from the recorded history up to now and the forecast after.
 */
export interface ObjectWhen {
  /** The state (a catalogue name). */
  state: string;
  /** When the period began or begins (ISO). */
  from: string;
  /** When it ends (ISO); null: no end recorded or foreseen. */
  until: string | null;
  /** Whether `from` / `until` lie ahead of now: the forecast's, not recorded. */
  fromAhead: boolean;
  untilAhead: boolean;
  /** The change the list is about when it lies ahead (its start or its end), else null. */
  change: "from" | "until" | null;
  /** Why that change comes, in the reader's language; null when no cause is known (or no change lies ahead). */
  cause: string | null;
}

export interface StateInfo {
  name: string;
  description: string;
  manual: boolean;
  external: boolean;
  /** Object type names the state applies to. */
  types: string[];
}

export interface ObjectListPage {
  rows: ObjectListRow[];
  pageSize: number;
  /** Matching objects: exact, or (atLeast) more than `total` when counting them all would take too long. */
  total: number;
  atLeast: boolean;
  sort: Sort;
  /** Cursors of the neighbouring pages; null where there is none. */
  next: string | null;
  previous: string | null;
  /** The page is the first / the last of the result. */
  atStart: boolean;
  atEnd: boolean;
  type: string | null;
  types: string[];
  registrars: string[];
  states: StateInfo[];
  filter: ObjectFilter;
  /** The names of the state filter's states (catalogue names), in the catalogue's order. */
  filterStates: string[];
  /**
   * For a filter by an instant or a window, the table's "when" columns (issue 41, item 5): "period"
   * (From, Until) or "at" (also States then); `several`: the filter has several states. Else null.
   */
  when: { columns: "period" | "at"; several: boolean } | null;
  /**
   * A bare name search (nothing else chosen, nothing to notice) names one object exactly: by its
   * name or handle, id or ROID. The caller may go straight to it.
   */
  exactMatch: number | null;
  /** What was wrong with the URL and what was used instead: messages, for the page to put into the reader's language. */
  notices: Message[];
}

interface ListRecord {
  id: number;
  name: string;
  type: string;
  registrar: string | null;
  crdate: Date;
  exdate: string | null;
  states: string[];
  pending: number;
  sort_value: string;
  when_state?: string | null;
  when_from?: Date | null;
  when_to?: Date | null;
  when_event?: "from" | "until" | null;
  when_causes?: { code: string; args: Record<string, unknown> }[] | null;
  states_at?: string[] | null;
}

interface ListRequest {
  filter: ObjectFilter;
  sort: Sort;
  notices: Message[];
  /** Filter first, then sort (see NAME_FIRST_LIMIT). */
  nameFirst: boolean;
  /** Walk the name order without the trigram index: a common fragment (see NAME_WALK_FROM). */
  nameWalk?: boolean;
  /**
   * A search by name alone: what the probe counted is the list's count ("more than NAME_WALK_FROM"
   * when it found more), so the list is not counted again.
   */
  nameCount?: MatchCount;
  /** The list's copy of the keys may be behind FRED's (filterSql). */
  keysBehind: boolean;
  /** How the forecast is asked (filterSql, forecastFormOf). */
  forecastForm?: ForecastForm;
  /** The stored plan is trusted (console.state_plan_trusted): sorting by when may read the periods ahead, and the ends of those holding now, as one set (whenSetSql). */
  planTrusted?: boolean;
}

type ListCatalogue = Awaited<ReturnType<typeof readCatalogue>>;

/**
 * The catalogues the list reads its URL with; state descriptions in `locale` (else English). One
 * statement, not four: every list page and export reads them, and each round trip costs the
 * console's one Node thread and the database more than these small tables do.
 */
async function readCatalogue(db: SqlExecutor, locale: Locale = DEFAULT_LOCALE) {
  const [row] = await db.query<{
    types: { id: number; name: string }[];
    states: { id: number; name: string; description: string | null; manual: boolean; external: boolean; types: string[] }[];
    registrars: { id: number; handle: string }[];
    behind: boolean;
  }>(
    `SELECT (SELECT coalesce(json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY t.id), '[]') FROM enum_object_type t) AS types,
            (SELECT coalesce(json_agg(json_build_object(
                      'id', s.id, 'name', s.name, 'description', coalesce(d.description, en.description), 'manual', s.manual, 'external', s.external,
                      'types', ARRAY(SELECT t.name FROM enum_object_type t WHERE t.id = ANY (s.types) ORDER BY t.id))
                    ORDER BY s.importance DESC NULLS LAST, s.id), '[]')
               FROM enum_object_states s
               LEFT JOIN enum_object_states_desc d ON d.state_id = s.id AND d.lang = $1
               LEFT JOIN enum_object_states_desc en ON en.state_id = s.id AND en.lang = 'EN') AS states,
            (SELECT coalesce(json_agg(json_build_object('id', r.id, 'handle', r.handle) ORDER BY r.handle), '[]') FROM registrar r) AS registrars,
            -- Beside and in shadow the list's copy of the keys follows FRED's by the scheduler's passes (filterSql).
            coalesce((SELECT origin = 'adopted' AND mode <> 'charge' FROM console.registry_origin), false) AS behind`,
    [descriptionLang(locale)],
  );
  return { types: row.types, states: row.states, registrars: row.registrars, keysBehind: row.behind === true };
}

/** Reads the URL into a filter and a sort order; every bad value is a notice. */
function parseRequest(params: Params, catalogue: ListCatalogue): ListRequest {
  const { filter, notices } = parseFilter(params, catalogue, readConfig().registryTimeZone);
  const domainType = catalogue.types.find((t) => t.name === "domain")?.id;
  const sort = parseSort(readParams(params, notices)("sort"), filter.type === domainType, notices, saysWhen(filter.state));
  return { filter, sort, notices, nameFirst: false, keysBehind: catalogue.keysBehind };
}

/** The WHERE condition of a request, parameters from $1. */
function whereOf(request: Pick<ListRequest, "filter"> & Partial<Pick<ListRequest, "keysBehind" | "forecastForm">>, now: Date) {
  return filterSql(request.filter, now, 0, { keysBehind: request.keysBehind, forecastForm: request.forecastForm });
}

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

/** The planner's row estimate for a query. */
async function estimateRows(db: SqlExecutor, sql: string, params: unknown[]): Promise<number> {
  const [plan] = await db.query<{ "QUERY PLAN": string | [{ Plan: { "Plan Rows": number } }] }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  const raw = plan["QUERY PLAN"];
  return (typeof raw === "string" ? JSON.parse(raw) : raw)[0].Plan["Plan Rows"];
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

/** The "when" parts of a list's queries (issue 41, item 5), parameters numbered from `offset + 1`; null for other filters. */
interface WhenParts {
  /** Joins `fc` (the object's forecast periods) and `w` (the matched period: whenSql) onto `o`. */
  join: string;
  /** The row columns: the state, the period, which end is the change ahead, its causes, the states at the instant. */
  columns: string;
  params: unknown[];
}

/**
 * `sortOnly`: just the join the order needs (fc and w), for the inner query of a list sorted by when;
 * every parameter it returns is used by the SQL it returns.
 */
function whenParts(
  state: StateFilter | null,
  now: Date,
  offset: number,
  /** The order the page reads by when (`sortOnly`: just the join that order needs, fc and w with its sort columns). */
  sortOnly: { sort: Sort; position: Position } | null = null,
  planTrusted = false,
): WhenParts | null {
  if (!saysWhen(state)) return null;
  const params: unknown[] = [];
  const p: Param = (value) => {
    params.push(value);
    return `$${offset + params.length}`;
  };
  const set = sortOnly ? whenSetSql(state, now, p, planTrusted) : null;
  if (set && sortOnly) {
    // An inner join: every match has its period in the set (the same conditions as the filter), and
    // the planner may start from the set instead of walking every object towards it. The set comes
    // in the page's order (OFFSET 0 keeps it so), so the page walks it and stops at its last row
    // instead of looking up every match's object before sorting ("had serverBlocked at T" by its
    // end: 11,912 lookups, 52 ms of 130 at 1.5 million domains).
    const direction = readsDescending(sortOnly.sort, sortOnly.position) ? "DESC" : "ASC";
    const key = WHEN_SORT_COLUMN[sortOnly.sort.key === "from" ? "from" : "until"];
    return {
      join: `JOIN (SELECT s.*, ${whenSortColumns("s")} FROM (${set}) s ORDER BY ${key} ${direction}, s.object_id ${direction} OFFSET 0) w
               ON w.object_id = o.id`,
      columns: "",
      params,
    };
  }
  // The object's forecast periods, once per row, for a filter that reaches past now.
  const periods = needsForecast(state, now)
    ? `LEFT JOIN LATERAL (SELECT ARRAY(SELECT ROW(f.state_id, f.valid_from, f.valid_to)::console.state_period
                                        FROM console.state_forecast_of(o.id) f) AS periods) fc ON true`
    : "";
  if (sortOnly)
    // One row for every object, with its sort columns ('infinity' for an object with no period).
    return {
      join: `${periods}
                LEFT JOIN LATERAL (SELECT m.*, ${whenSortColumns("m")} FROM (SELECT 1) one LEFT JOIN (${whenSql(state, now, p)}) m ON true) w ON true`,
      columns: "",
      params,
    };
  const join = `${periods}
                LEFT JOIN LATERAL (${whenSql(state, now, p)}) w ON true`;
  // The change the list is about, if it lies ahead: for "entered" the start, for "left" the end,
  // otherwise the start if still ahead, else the end.
  const ahead = `${p(now)}::timestamptz`;
  const event =
    state.mode === "entered"
      ? `CASE WHEN w.valid_from > ${ahead} THEN 'from' END`
      : state.mode === "left"
        ? `CASE WHEN w.valid_to > ${ahead} THEN 'until' END`
        : `CASE WHEN w.valid_from > ${ahead} THEN 'from' WHEN w.valid_to > ${ahead} THEN 'until' END`;
  const statesAt = statesAtSql(state, now, p);
  const at = "CASE ev.event WHEN 'from' THEN w.valid_from ELSE w.valid_to END";
  // A change ahead that starts a period is possible only where the filter reaches past now (and not
  // for "left"); otherwise every change ahead is an end, whose causes are the requests' alone (all
  // that console.state_change_causes gives for one), and the rules' part is not even planned: it
  // took "had serverBlocked at T" from 2 to 8.5 ms of planning at 1.5 million domains.
  const causes =
    state.mode !== "left" && reachesFuture(state, now)
      ? `console.state_change_causes(o.id, w.state_id, ${at}, ev.event = 'from')`
      : `(SELECT rc.code, rc.args, 1 AS n FROM console.state_request_causes(o.id, w.state_id, ${at}) rc)`;
  const columns = `ws.name AS when_state, w.valid_from AS when_from, w.valid_to AS when_to, ev.event AS when_event,
           (SELECT jsonb_agg(jsonb_build_object('code', c.code, 'args', c.args) ORDER BY c.n, c.code, (c.args ->> 'request')::bigint)
              FROM ${causes} c
             WHERE ev.event IS NOT NULL) AS when_causes,
           ${statesAt ?? "NULL::text[]"} AS states_at`;
  return {
    join: `${join}
      LEFT JOIN enum_object_states ws ON ws.id = w.state_id
      LEFT JOIN LATERAL (SELECT ${event} AS event) ev ON true`,
    columns,
    params,
  };
}

/**
 * The outer part of every row query: `inner` yields the rows' objects as (id, name, type, crdate,
 * sort_value, sort_column); this adds registrar, expiration, current states and pending requests,
 * and for a filter by an instant or a window, when (`when`). `$${nowParam}` is the instant
 * "pending" is measured from.
 */
function rowsSql(inner: string, orderBy: string, nowParam: number, when: WhenParts | null = null): string {
  return `
    SELECT o.id, o.name, t.name AS type, rg.handle AS registrar, o.crdate, dd.exdate::text AS exdate, o.sort_value,
           ARRAY(SELECT s.name FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
                  WHERE os.object_id = o.id AND os.valid_to IS NULL ORDER BY s.importance DESC NULLS LAST, s.id) AS states,
           (SELECT count(*)::int FROM object_state_request r
             WHERE r.object_id = o.id AND r.canceled IS NULL AND r.valid_from > $${nowParam}) AS pending
           ${when ? `, ${when.columns}` : ""}
      FROM (${inner}) o
      JOIN enum_object_type t ON t.id = o.type
      LEFT JOIN object ob ON ob.id = o.id
      LEFT JOIN registrar rg ON rg.id = ob.clid
      LEFT JOIN domain dd ON dd.id = o.id
      ${when ? when.join : ""}
     ORDER BY ${orderBy}`;
}

/** One page of rows from `position`, `limit` rows at most. */
function pageQuery(request: ListRequest, position: Position, limit: number, now: Date) {
  const { where, params } = whereOf(request, now);
  // Sorting by when: the inner query joins the period too (its own parameters, before the page's).
  const sortWhen = WHEN_SORT_KEYS.includes(request.sort.key)
    ? whenParts(request.filter.state, now, params.length, { sort: request.sort, position }, request.planTrusted)
    : null;
  const page = pageSql(request.sort, position, params.length + (sortWhen?.params.length ?? 0), sortWhen?.join);
  const before = [...params, ...(sortWhen?.params ?? []), ...page.params, limit, now];
  const when = whenParts(request.filter.state, now, before.length);
  const values = [...before, ...(when?.params ?? [])];
  const n = before.length;
  const select = `SELECT o.id, o.name, o.type, o.crdate, ${page.sortValue} AS sort_value, ${page.sortColumn} AS sort_column
                    FROM ${page.from} WHERE ${where} AND ${page.condition}`;
  // OFFSET 0 keeps the subquery whole: its matches are found first, then sorted.
  const inner = request.nameFirst
    ? `SELECT * FROM (${select} OFFSET 0) o ORDER BY ${page.selectedOrderBy} LIMIT $${n - 1}`
    : `${select} ORDER BY ${page.orderBy} LIMIT $${n - 1}`;
  return { sql: rowsSql(inner, page.selectedOrderBy, n, when), values, reversed: page.reversed };
}

/** Rows as a page shows them: instants and days written as `fmt` writes them (the reader's language, the registry's zone). */
export function shownRows(rows: ObjectListRow[], fmt: Pick<ConsoleFormat, "instant" | "day">): ObjectListRow[] {
  return rows.map((row) => ({
    ...row,
    created: fmt.instant(row.created),
    expires: row.expires && fmt.day(row.expires),
    when: row.when && { ...row.when, from: fmt.instant(row.when.from), until: row.when.until && fmt.instant(row.when.until) },
  }));
}

/** A record as a row; its "when", if any, with the causes of the change ahead in `locale`'s words. */
const toRow = (r: ListRecord, now: Date, locale: Locale): ObjectListRow => {
  const row: ObjectListRow = {
    id: r.id,
    name: r.name,
    type: r.type,
    sponsoringRegistrar: r.registrar,
    created: r.crdate.toISOString(),
    expires: r.exdate,
    states: r.states,
    pendingRequests: r.pending,
  };
  if (r.when_state === undefined) return row;
  row.when = r.when_state && r.when_from ? whenOf(r, now, locale) : null;
  if (r.states_at) row.statesAt = r.states_at;
  return row;
};

function whenOf(r: ListRecord, now: Date, locale: Locale): ObjectWhen {
  const from = r.when_from as Date;
  const until = r.when_to ?? null;
  const causes = (r.when_causes ?? []).map((cause) => reasonText(cause, locale)).filter((text): text is string => !!text);
  return {
    state: r.when_state as string,
    from: from.toISOString(),
    until: until?.toISOString() ?? null,
    fromAhead: from > now,
    untilAhead: until !== null && until > now,
    change: r.when_event ?? null,
    cause: r.when_event && causes.length > 0 ? causes.join("; ") : null,
  };
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

/**
 * The object a bare search names exactly, or null: the name or handle (any case) of one live object
 * of the filtered type; else, for a number, the object with that id, and for text shaped like a
 * ROID, the object with that ROID, live or deleted (the object page shows both, with its ROID).
 */
async function exactMatch(db: SqlExecutor, filter: ObjectFilter, catalogue: ListCatalogue): Promise<number | null> {
  const name = filter.name?.text;
  if (!name) return null;
  const rows = await liveObjectsNamed(db, name, catalogue.types.find((t) => t.id === filter.type)?.name ?? null);
  if (rows.length === 1) return rows[0].id;
  if (rows.length > 0) return null;
  // No object of that name: a number is an object's id (as the object page's address and the
  // audit log show it), of the filtered type if one is chosen.
  if (/^\d{1,9}$/.test(name)) {
    const [object] = await db.query<{ id: number }>(
      "SELECT id FROM object_registry WHERE id = $1::int AND ($2::int IS NULL OR type = $2::int)",
      [Number(name), filter.type ?? null],
    );
    return object?.id ?? null;
  }
  if (ROID_SHAPE.test(name)) {
    const [object] = await db.query<{ id: number }>(
      "SELECT id FROM object_registry WHERE roid IN ($1::varchar, upper($1)::varchar) AND ($2::int IS NULL OR type = $2::int) ORDER BY roid = $1 DESC LIMIT 1",
      [name, filter.type ?? null],
    );
    return object?.id ?? null;
  }
  return null;
}

/**
 * Lists objects one page at a time with the filters, sort order and page position of the URL (see
 * ./filter and ./paging). Bad URL values fall back to defaults with a notice.
 */
export async function listObjects(params: Params): Promise<ObjectListPage> {
  const { db } = await authorize("registry.read", "objects.list");
  const reads = pageReads(db);
  const locale = await getLocale();
  const catalogue = await readCatalogue(reads, locale);
  const request = parseRequest(params, catalogue);
  const { notices } = request;
  const param = readParams(params, notices);

  let pageSize = DEFAULT_PAGE_SIZE;
  const sizeText = param("size");
  if (sizeText) {
    const size = Number(sizeText);
    if ((PAGE_SIZES as readonly number[]).includes(size)) pageSize = size;
    else notices.push(msg("filter.pageSize", { size: sizeText.slice(0, 64), sizes: PAGE_SIZES.join(", "), pageSize }));
  }
  if ([params.page ?? []].flat().length > 0) notices.push(msg("filter.pageNumber"));
  const unknown = Object.keys(params).filter((key) => !LIST_PARAMS.has(key));
  if (unknown.length > 0)
    notices.push(
      msg("filter.unknownParameter", {
        names: unknown
          .map((key) => key.slice(0, 40))
          .slice(0, 5)
          .join(", "),
        count: unknown.length,
      }),
    );

  let position = parsePosition({ after: param("after"), before: param("before"), last: param("last") }, request.sort, notices);
  const now = new Date();
  // Past now the list is a forecast: say from when, and what it rests on.
  if (reachesFuture(request.filter.state, now)) notices.push(msg("filter.forecast", { now }));
  const [reading, form] = await Promise.all([nameReading(reads, request.filter), forecastFormOf(reads, request, now)]);
  Object.assign(request, reading, form);

  // Only a bare name search, read without a word to say about it, may go straight to its object:
  // any other filter (or a notice the person must see) keeps the list (issue 41, item 3).
  const mayJump = isBareNameSearch(request.filter) && notices.length === 0;

  const read = async (from: Position) => {
    const query = pageQuery(request, from, pageSize + 1, now);
    const records =
      probesHistory(request.filter) || request.nameWalk
        ? await reads.transaction(async (tx) => {
            await tx.query(request.nameWalk ? `${SERIAL_SQL}, (${WALK_SQL})` : SERIAL_SQL);
            return tx.query<ListRecord>(query.sql, query.values);
          })
        : await reads.query<ListRecord>(query.sql, query.values);
    const more = records.length > pageSize;
    const page = records.slice(0, pageSize);
    if (query.reversed) page.reverse();
    return { page, more, reversed: query.reversed };
  };
  // Count and page at once: on PostgreSQL they run on separate connections.
  const countAll = param("count") === "all";
  const [count, exact, firstRead] = await Promise.all([
    request.nameCount && !countAll ? request.nameCount : countMatches(reads, request, now, COUNT_BUDGET_MS, countAll),
    mayJump ? exactMatch(reads, request.filter, catalogue) : null,
    read(position),
  ]);
  let result = firstRead;
  if (result.page.length === 0 && (count.total > 0 || count.atLeast) && position.kind !== "first") {
    notices.push(msg(position.kind === "before" ? "filter.noRowsBefore" : "filter.noRowsAfter"));
    position = position.kind === "before" ? { kind: "first" } : { kind: "last" };
    result = await read(position);
  }
  const { page, more } = result;
  const atStart = position.kind === "first" || (result.reversed && !more);
  const atEnd = position.kind === "last" || (!result.reversed && !more);
  const first = page[0];
  const last = page.at(-1);

  return {
    rows: page.map((record) => toRow(record, now, locale)),
    pageSize,
    total: count.total,
    atLeast: count.atLeast,
    sort: request.sort,
    previous: !atStart && first ? encodeCursor(request.sort, first.sort_value, first.id) : null,
    next: !atEnd && last ? encodeCursor(request.sort, last.sort_value, last.id) : null,
    atStart,
    atEnd,
    type: catalogue.types.find((t) => t.id === request.filter.type)?.name ?? null,
    types: catalogue.types.map((t) => t.name),
    registrars: catalogue.registrars.map((r) => r.handle),
    states: catalogue.states.map((s) => ({
      name: s.name,
      description: s.description ?? s.name,
      manual: s.manual,
      external: s.external,
      types: s.types,
    })),
    filter: request.filter,
    filterStates: catalogue.states.filter((s) => request.filter.state?.states.includes(s.id)).map((s) => s.name),
    when: saysWhen(request.filter.state)
      ? { columns: request.filter.state.mode === "at" ? "at" : "period", several: request.filter.state.states.length > 1 }
      : null,
    exactMatch: exact,
    notices,
  };
}

/**
 * The live objects (id, name) a list filter matches, in list order, at most `cap`; `more` when there
 * are more. For callers that have authorized a change on them (bulk requests).
 */
/** A list's filter read from its URL parameters, as the WHERE clause over object_registry o it gives now. */
async function matchingWhere(db: SqlExecutor, params: Params) {
  const request = parseRequest(params, await readCatalogue(db));
  const { where, params: values } = whereOf(request, new Date());
  return { request, where, values };
}

/** How many objects a list's filter matches, up to `cap` (more: past it), without reading them: what a bulk change would touch. */
export async function countMatching(
  db: SqlExecutor,
  params: Params,
  cap: number,
): Promise<{ count: number; more: boolean; notices: Message[] }> {
  const { request, where, values } = await matchingWhere(db, params);
  const [{ n }] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${LISTED_OBJECTS} WHERE ${where} LIMIT ${cap + 1}) x`,
    values,
  );
  return { count: Math.min(n, cap), more: n > cap, notices: request.notices };
}

export async function objectsMatching(
  db: SqlExecutor,
  params: Params,
  cap: number,
): Promise<{ objects: { id: number; name: string }[]; more: boolean; notices: Message[] }> {
  const { request, where, values } = await matchingWhere(db, params);
  const page = pageSql(request.sort, { kind: "first" }, values.length);
  const rows = await db.query<{ id: number; name: string }>(
    `SELECT o.id, o.name FROM ${page.from} WHERE ${where} ORDER BY ${page.orderBy} LIMIT ${cap + 1}`,
    values,
  );
  return { objects: rows.slice(0, cap), more: rows.length > cap, notices: request.notices };
}

export const CSV_COLUMNS = ["id", "name", "type", "sponsoring_registrar", "created", "expires", "states", "pending_requests"];

/** A CSV field: quoted when needed; text a spreadsheet would run as a formula is prefixed with '. */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The CSV's further columns for a filter by an instant or a window (issue 41, item 5): the matched
 * state's period (instants in UTC, ISO), which of its ends is the change ahead and why; for "had
 * at", the states held then.
 */
export const CSV_WHEN_COLUMNS = ["period_state", "period_from", "period_until", "change_ahead", "change_cause"];

/** The CSV's columns for a filter. */
export function csvColumns(state: StateFilter | null): string[] {
  if (!saysWhen(state)) return CSV_COLUMNS;
  return [...CSV_COLUMNS, ...CSV_WHEN_COLUMNS, ...(state.mode === "at" ? ["states_at"] : [])];
}

const csvLine = (row: ObjectListRow, state: StateFilter | null) => {
  const fields: (string | number | null)[] = [
    row.id,
    row.name,
    row.type,
    row.sponsoringRegistrar,
    row.created,
    row.expires,
    row.states.join(" "),
    row.pendingRequests,
  ];
  if (saysWhen(state)) {
    const when = row.when;
    fields.push(when?.state ?? null, when?.from ?? null, when?.until ?? null, when?.change ?? null, when?.cause ?? null);
    if (state.mode === "at") fields.push((row.statesAt ?? []).join(" "));
  }
  return `${fields.map(csvField).join(",")}\r\n`;
};

export interface ObjectExport {
  total: number;
  /** More than `total` match (see countMatches); the export has them all. */
  atLeast: boolean;
  notices: Message[];
  /** CSV text, header first, then a chunk per batch of rows; reads the database as it is consumed. */
  chunks: AsyncGenerator<string>;
}

/**
 * The whole filtered result as CSV in the list's sort order. The matching ids are read in one
 * query (the planner picks the best way to find them all, which for a whole result is rarely the
 * sort order's index), then their rows in batches. The export is written to the audit log with
 * its filters.
 */
export async function exportObjects(params: Params, batch = 5_000): Promise<ObjectExport> {
  const { db, actor } = await authorize("registry.read", "objects.export");
  const reads = pageReads(db);
  const locale = await getLocale();
  const catalogue = await readCatalogue(reads, locale);
  const request = parseRequest(params, catalogue);
  const now = new Date();
  if (WHEN_SORT_KEYS.includes(request.sort.key)) Object.assign(request, await forecastFormOf(reads, request, now));
  const count = await countMatches(reads, request, now);
  await audit(db.sql, {
    action: "objects.export",
    result: "ok",
    actor,
    input: { filter: request.filter, sort: request.sort, total: count.total, atLeast: count.atLeast },
  });

  async function* chunks(): AsyncGenerator<string> {
    const state = request.filter.state;
    yield `${csvColumns(state).join(",")}\r\n`;
    const { where, params: values } = whereOf(request, now);
    const sortWhen = WHEN_SORT_KEYS.includes(request.sort.key)
      ? whenParts(state, now, values.length, { sort: request.sort, position: { kind: "first" } }, request.planTrusted)
      : null;
    const page = pageSql(request.sort, { kind: "first" }, values.length + (sortWhen?.params.length ?? 0), sortWhen?.join);
    const ids = await reads.query<{ id: number }>(`SELECT o.id FROM ${page.from} WHERE ${where} ORDER BY ${page.orderBy}`, [
      ...values,
      ...(sortWhen?.params ?? []),
    ]);
    // A batch's rows are looked up in id order (nearby rows, nearby pages), then put in list order.
    const inner = `SELECT o.id, o.name, o.type, o.crdate, NULL::text AS sort_value, k.n AS sort_column
                     FROM unnest($1::int[], $2::int[]) AS k (id, n) JOIN object_registry o ON o.id = k.id`;
    const when = whenParts(state, now, 3);
    const sql = rowsSql(inner, "o.sort_column", 3, when);
    for (let start = 0; start < ids.length; start += batch) {
      const slice = ids.slice(start, start + batch).map((r, i) => [r.id, start + i] as const);
      slice.sort((a, b) => a[0] - b[0]);
      const records = await reads.query<ListRecord>(sql, [slice.map((r) => r[0]), slice.map((r) => r[1]), now, ...(when?.params ?? [])]);
      yield records.map((r) => csvLine(toRow(r, now, locale), state)).join("");
    }
  }
  return { ...count, notices: request.notices, chunks: chunks() };
}
