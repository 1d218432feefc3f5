import "server-only";
import { authorize } from "../auth/guard";
import { readConfig } from "../config";
import { pageReads } from "../db/client";
import { type Message, msg } from "../i18n/message";
import { type Params, readParams } from "../input/params";
import { DB_INT_MAX, parseId, parseInstant, readInstant } from "../input/values";
import { COUNT_BUDGET_MS, countWithin } from "../objects/count";
import type { MatchCount } from "../objects/count-text";

export const PHASES = ["scheduled", "in force", "ended", "canceled"] as const;
export type Phase = (typeof PHASES)[number];
const PAGE = 50;
/** The request list counts its matches up to this many; past it, "more than 10,000". */
const REQUEST_COUNT_LIMIT = 10_000;
/** The request list's orders (the URL's `sort`): by start (the period column) or by request id (creation order), "-": newest first. */
const REQUEST_SORTS = ["-start", "start", "-id", "id"] as const;
type RequestSort = (typeof REQUEST_SORTS)[number];

export interface RequestRow {
  id: number;
  objectId: number;
  object: string;
  objectType: string;
  state: string;
  phase: Phase;
  from: string;
  to: string | null;
  reason: string | null;
  author: string | null;
  created: string;
  canceled: string | null;
  canceledBy: string | null;
  cancelReason: string | null;
  batch: string | null;
}

export interface RequestList {
  rows: RequestRow[];
  /** The requests the filter matches, on every page: exact, or (atLeast) more than `total` (see countText). */
  count: MatchCount;
  /** Cursor of the next page (older requests), or null. */
  next: string | null;
  filter: {
    phase: Phase | null;
    state: string | null;
    author: string | null;
    from: string | null;
    to: string | null;
    batch: string | null;
    /** An object's name or handle, any case. */
    object: string | null;
    id: number | null;
    upcoming: boolean;
    /** The order (upcoming lists are always the soonest first). */
    sort: RequestSort;
  };
  states: string[];
  /** What was wrong with the URL: messages, for the page to put into the reader's language. */
  notices: Message[];
}

/**
 * When request `r` was canceled, as SQL (`m`: its console.request_meta row, joined): the console's
 * record of the instant, since a request canceled before it began is stored with canceled = its start.
 */
export const CANCELED_SQL = "console.request_canceled(r.canceled, m.canceled_at)";

/**
 * The phase of request `r` (with its metadata `m`) at the database's now, as SQL; canceled at or
 * before its start, it never takes effect (canceled, even before the metadata's instant is known).
 */
export const PHASE_SQL = `CASE WHEN ${CANCELED_SQL} <= (now() AT TIME ZONE 'UTC') OR r.canceled <= r.valid_from THEN 'canceled'
                        WHEN r.valid_from > (now() AT TIME ZONE 'UTC') THEN 'scheduled'
                        WHEN r.valid_to IS NULL OR r.valid_to > (now() AT TIME ZONE 'UTC') THEN 'in force'
                        ELSE 'ended' END`;

/**
 * All requests across objects, newest start first, filtered by phase, state, author, a period they
 * overlap, batch, object (name or handle) and request id; `upcoming`: those that start or end in the next 7 days, soonest first.
 */
export async function listRequests(params: Params): Promise<RequestList> {
  const { db } = await authorize("registry.read", "requests.list");
  const reads = pageReads(db);
  const notices: Message[] = [];
  const states = (await reads.query<{ name: string }>("SELECT name FROM enum_object_states WHERE manual ORDER BY id")).map((s) => s.name);
  const param = readParams(params, notices);
  const text = (key: string) => param(key) ?? null;
  const zone = readConfig().registryTimeZone;

  const values: unknown[] = [];
  const p = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const where: string[] = [];
  const filter: RequestList["filter"] = {
    phase: null,
    state: null,
    author: null,
    from: null,
    to: null,
    batch: null,
    object: null,
    id: null,
    upcoming: text("upcoming") === "1",
    sort: "-start",
  };
  const sort = text("sort");
  if (sort && !filter.upcoming) {
    if ((REQUEST_SORTS as readonly string[]).includes(sort)) filter.sort = sort as RequestSort;
    else notices.push(msg("requestList.sort", { sort: sort.slice(0, 40), sorts: REQUEST_SORTS.join(", ") }));
  }

  const phase = text("phase");
  if (phase) {
    if ((PHASES as readonly string[]).includes(phase)) {
      filter.phase = phase as Phase;
      where.push(`${PHASE_SQL} = ${p(phase)}`);
    } else notices.push(msg("requestList.phase", { phase: phase.slice(0, 40), phases: PHASES.join(", ") }));
  }
  const state = text("state");
  if (state) {
    if (states.includes(state)) {
      filter.state = state;
      where.push(`s.name = ${p(state)}`);
    } else notices.push(msg("requestList.notManualState", { state: state.slice(0, 50) }));
  }
  const author = text("author");
  if (author) {
    filter.author = author.slice(0, 64);
    where.push(`m.author = ${p(filter.author)}`);
  }
  // Instants within INSTANT_SPAN_YEARS of now (readInstant).
  const period: { from?: Date; to?: Date } = {};
  for (const key of ["from", "to"] as const) {
    const value = text(key);
    if (!value) continue;
    const read = readInstant(value, zone);
    if (read.problem === "notInstant") notices.push(msg("requestList.notInstant", { value: value.slice(0, 40) }));
    else if (read.problem === "tooFar")
      notices.push(
        msg("requestList.instantTooFar", { value: value.slice(0, 40), years: read.years, earliest: read.earliest, latest: read.latest }),
      );
    else {
      filter[key] = value;
      period[key] = read.instant;
    }
  }
  if (period.from)
    where.push(
      `console.request_period(r.valid_from, r.valid_to, r.canceled) && tsrange(${p(period.from)}::timestamptz AT TIME ZONE 'UTC', NULL)`,
    );
  if (period.to) where.push(`r.valid_from < ${p(period.to)}`);
  const batch = text("batch");
  if (batch) {
    if (/^[0-9a-f-]{36}$/i.test(batch)) {
      filter.batch = batch;
      where.push(`m.batch_id = ${p(batch)}::uuid`);
    } else notices.push(msg("requestList.notBatch", { batch: batch.slice(0, 40) }));
  }
  const object = text("object");
  if (object) {
    filter.object = object.slice(0, 255);
    // Its requests by name or handle, in any case (deleted objects' too).
    where.push(`r.object_id IN (SELECT o.id FROM console.object_key o WHERE lower(o.name) = lower(${p(filter.object)}))`);
  }
  const id = text("id");
  if (id) {
    filter.id = parseId(id) ?? null;
    if (filter.id !== null) where.push(`r.id = ${p(filter.id)}`);
    else notices.push(msg("requestList.notRequestId", { id: id.slice(0, 40) }));
  }
  if (filter.upcoming)
    where.push(`r.canceled IS NULL AND ((r.valid_from > (now() AT TIME ZONE 'UTC') AND r.valid_from <= (now() AT TIME ZONE 'UTC') + interval '7 days')
                 OR (r.valid_to > (now() AT TIME ZONE 'UTC') AND r.valid_to <= (now() AT TIME ZONE 'UTC') + interval '7 days'))`);

  // The filter's total, before the page position narrows it: counted up to REQUEST_COUNT_LIMIT within the list's count budget.
  const countSql = `SELECT 1 FROM object_state_request r JOIN enum_object_states s ON s.id = r.state_id
                      LEFT JOIN console.request_meta m ON m.request_id = r.id
                     WHERE ${where.length ? where.join(" AND ") : "true"}`;
  const countValues = [...values];

  // Keyset: (key, id) in the chosen order; upcoming lists the soonest start or end first.
  const order = filter.upcoming || !filter.sort.startsWith("-") ? "ASC" : "DESC";
  const byId = filter.sort.endsWith("id") && !filter.upcoming;
  const sortKey = filter.upcoming
    ? "CASE WHEN r.valid_from > (now() AT TIME ZONE 'UTC') THEN r.valid_from ELSE r.valid_to END"
    : byId
      ? "r.id"
      : "r.valid_from";
  // The cursor: the last row's id, after its sort key (a UTC instant, as toISOString writes it) when that is a time.
  const after = text("after");
  if (after) {
    const match = byId ? /^()(\d+)$/.exec(after) : /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_(\d+)$/.exec(after);
    const [cursorKey, cursorId] = match ? [byId || parseInstant(match[1]), parseId(match[2])] : [];
    if (!match) notices.push(msg("requestList.position"));
    else if (!cursorKey) notices.push(msg("params.positionValue", { problem: "date", value: match[1], max: DB_INT_MAX }));
    else if (cursorId === undefined)
      notices.push(msg("params.positionValue", { problem: "id", value: match[2].slice(0, 40), max: DB_INT_MAX }));
    else if (byId) where.push(`r.id ${order === "DESC" ? "<" : ">"} ${p(cursorId)}::int`);
    else where.push(`(${sortKey}, r.id) ${order === "DESC" ? "<" : ">"} (${p(match[1])}::timestamp, ${p(cursorId)}::int)`);
  }

  const rows = await reads.query<{
    id: number;
    object_id: number;
    object: string;
    object_type: string;
    state: string;
    phase: Phase;
    valid_from: Date;
    valid_to: Date | null;
    key: Date | number;
    reason: string | null;
    author: string | null;
    crdate: Date;
    canceled: Date | null;
    canceled_by: string | null;
    cancel_reason: string | null;
    batch: string | null;
  }>(
    // The page's requests are chosen first (an index walk, or for `upcoming` the few rows of two
    // index ranges, sorted), and only those are joined with their object and reason.
    `SELECT r.id, r.object_id, o.name AS object, t.name AS object_type, r.state, r.phase,
            r.valid_from, r.valid_to, r.key, rr.reason_creation AS reason, r.author, r.crdate, r.canceled, r.canceled_by,
            rr.reason_cancellation AS cancel_reason, r.batch
       FROM (SELECT r.id, r.object_id, s.name AS state, ${PHASE_SQL} AS phase, r.valid_from, r.valid_to, r.crdate, ${CANCELED_SQL} AS canceled,
                    ${sortKey} AS key,
                    m.author, m.canceled_by, m.batch_id::text AS batch
               FROM object_state_request r
               JOIN enum_object_states s ON s.id = r.state_id
               LEFT JOIN console.request_meta m ON m.request_id = r.id
              WHERE ${where.length ? where.join(" AND ") : "true"}
              ORDER BY ${sortKey} ${order}, r.id ${order} LIMIT ${PAGE + 1}) r
       JOIN object_registry o ON o.id = r.object_id JOIN enum_object_type t ON t.id = o.type
       LEFT JOIN object_state_request_reason rr ON rr.object_state_request_id = r.id
      ORDER BY r.key ${order}, r.id ${order}`,
    values,
  );
  const counted = await countWithin(reads, countSql, countValues, COUNT_BUDGET_MS, REQUEST_COUNT_LIMIT + 1);
  const count: MatchCount =
    counted === null
      ? { total: 0, atLeast: true }
      : counted > REQUEST_COUNT_LIMIT
        ? { total: REQUEST_COUNT_LIMIT, atLeast: true }
        : { total: counted, atLeast: false };
  const page = rows.slice(0, PAGE);
  const last = page.at(-1);
  return {
    rows: page.map((r) => ({
      id: r.id,
      objectId: r.object_id,
      object: r.object,
      objectType: r.object_type,
      state: r.state,
      phase: r.phase,
      from: r.valid_from.toISOString(),
      to: r.valid_to?.toISOString() ?? null,
      reason: r.reason,
      author: r.author,
      created: r.crdate.toISOString(),
      canceled: r.canceled?.toISOString() ?? null,
      canceledBy: r.canceled_by,
      cancelReason: r.cancel_reason,
      batch: r.batch,
    })),
    count,
    next: rows.length > PAGE && last ? (last.key instanceof Date ? `${last.key.toISOString()}_${last.id}` : String(last.id)) : null,
    filter,
    states,
    notices,
  };
}
