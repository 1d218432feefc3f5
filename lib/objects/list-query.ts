/**
 * A list's rows: the SQL that reads a page of them (pageQuery, from the request's WHERE and the
 * keyset paging), its parts shared with the CSV export (rowsSql, whenParts), and the records it
 * returns as rows (toRow).
 */
import "server-only";
import type { Locale } from "../i18n/config";
import { needsForecast, type Param, reachesFuture, type StateFilter, saysWhen, statesAtSql, whenSetSql, whenSql } from "./filter";
import { type ListRequest, whereOf } from "./list-request";
import { type Position, pageSql, readsDescending, type Sort, WHEN_SORT_COLUMN, WHEN_SORT_KEYS, whenSortColumns } from "./paging";
import { reasonText } from "./reasons";

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
interface ObjectWhen {
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

export interface ListRecord {
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
export function whenParts(
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
export function rowsSql(inner: string, orderBy: string, nowParam: number, when: WhenParts | null = null): string {
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
export function pageQuery(request: ListRequest, position: Position, limit: number, now: Date) {
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

/** A record as a row; its "when", if any, with the causes of the change ahead in `locale`'s words. */
export const toRow = (r: ListRecord, now: Date, locale: Locale): ObjectListRow => {
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
