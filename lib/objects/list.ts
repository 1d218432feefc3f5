/**
 * The object list's page (listObjects): its URL read into a filter, a sort and a position, one page
 * of rows read, the matches counted, and an exact match to go straight to; its rows as a page shows
 * them (shownRows).
 */
import "server-only";
import { authorize } from "../auth/guard";
import { pageReads } from "../db/client";
import type { SqlExecutor } from "../db/driver";
import type { ConsoleFormat } from "../format/instant";
import { type Message, msg } from "../i18n/message";
import { getLocale } from "../i18n/server";
import { readParams } from "../input/params";
import { liveObjectsNamed } from "../states/objects";
import { COUNT_BUDGET_MS, countMatches, SERIAL_SQL } from "./count";
import { FILTER_PARAMS, isBareNameSearch, type ObjectFilter, type Params, ROID_SHAPE, reachesFuture, saysWhen } from "./filter";
import { forecastFormOf, nameReading } from "./list-plan";
import { type ListRecord, type ObjectListRow, pageQuery, toRow } from "./list-query";
import { type ListCatalogue, parseRequest, readCatalogue } from "./list-request";
import { encodeCursor, type Position, parsePosition, type Sort } from "./paging";

export const PAGE_SIZES = [25, 50, 100, 500] as const;
const DEFAULT_PAGE_SIZE = 50;
/** Walks the name order without the trigram index: a common "contains" fragment (see NAME_WALK_FROM). */
const WALK_SQL = "SELECT set_config('enable_bitmapscan', 'off', true)";
/** Whether the page probes each object's states or requests as it walks (the only pages planned in parallel). */
const probesHistory = (filter: ObjectFilter) => filter.state !== null || filter.request !== null || filter.pendingRequest;

/** The list's URL parameters: the filter's, paging and sorting, and `jump` (the page's: no jump to an exact match). */
const LIST_PARAMS = new Set([...FILTER_PARAMS, "sort", "after", "before", "last", "size", "page", "jump", "count"]);

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

/** Rows as a page shows them: instants and days written as `fmt` writes them (the reader's language, the registry's zone). */
export function shownRows(rows: ObjectListRow[], fmt: Pick<ConsoleFormat, "instant" | "day">): ObjectListRow[] {
  return rows.map((row) => ({
    ...row,
    created: fmt.instant(row.created),
    expires: row.expires && fmt.day(row.expires),
    when: row.when && { ...row.when, from: fmt.instant(row.when.from), until: row.when.until && fmt.instant(row.when.until) },
  }));
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
