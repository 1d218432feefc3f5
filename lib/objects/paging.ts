// Sorting and keyset paging of the object list: which column orders the rows, the position a page
// starts from (a cursor in the URL), and the SQL that reads one page from there. Pure: no database.
import { type Message, msg } from "../i18n/message";
import { DB_INT_MAX, hasNul, isId, parseDate, parseTimestampText } from "../input/values";

export type SortKey = "name" | "created" | "expires" | "from" | "until";
export interface Sort {
  key: SortKey;
  desc: boolean;
}

/** Where a page starts: after or before a row (its sort value as the database prints it, and id), or the last page. */
export type Position = { kind: "first" } | { kind: "last" } | { kind: "after" | "before"; value: string; id: number };

const DEFAULT_SORT: Sort = { key: "name", desc: false };

/**
 * What the object list reads its objects from: `o`, the console's copy of each object's keys
 * (id, type, name, crdate, erdate) with the list's indexes (console.object_key, issue 40: none of
 * them on FRED's object_registry, which FRED rewrites in every command). Exact in charge; beside and
 * in shadow as of the scheduler's last pass (docs/fred.md).
 */
export const LISTED_OBJECTS = "console.object_key o";

const SORT_KEYS: SortKey[] = ["name", "created", "expires", "from", "until"];
/** The keys that order by when the filtered state's period begins or ends (issue 41): only for a filter by an instant or a window. */
export const WHEN_SORT_KEYS: SortKey[] = ["from", "until"];

/** The column of the "when" join each of `from` and `until` orders by (whenSortColumns adds them). */
export const WHEN_SORT_COLUMN = { from: "sort_from", until: "sort_until" } as const;

/** A cursor's value for `from` and `until`: a UTC wall time, or 'infinity' (a period with no end). */
function whenProblem(value: string): "date" | null {
  return value === "infinity" || parseTimestampText(value) ? null : "date";
}

/**
 * The column each sort key orders by, the type its printed value is read back as, and what a
 * cursor's value must be to be read back as it (lib/input/values.ts): "date" for a value that is
 * not a real day (and time).
 */
const SORT_COLUMNS: Record<SortKey, { sql: string; type: string; problem: (value: string) => "date" | "nul" | "other" | null }> = {
  // Case-insensitively: handles (upper case) and domain names (lower case) interleave.
  name: {
    sql: "lower(o.name)",
    type: "text",
    problem: (value) => (hasNul(value) ? "nul" : value.length < 1 || value.length > 255 ? "other" : null),
  },
  // FRED's crdate is a UTC `timestamp`: its text has no zone, and it reads back as the same instant.
  created: { sql: "o.crdate", type: "timestamp", problem: (value) => (parseTimestampText(value) ? null : "date") },
  expires: { sql: "d.exdate", type: "date", problem: (value) => (parseDate(value) ? null : "date") },
  // When the filtered state's period began or begins, and ends: columns of w, the list's "when" join
  // for its order (whenSortColumns), so that the planner can read a set already in that order.
  from: { sql: `w.${WHEN_SORT_COLUMN.from}`, type: "timestamp", problem: whenProblem },
  until: { sql: `w.${WHEN_SORT_COLUMN.until}`, type: "timestamp", problem: whenProblem },
};

/**
 * The columns the "when" join for an order by `from` or `until` adds to a period (alias `alias`,
 * with valid_from and valid_to): as UTC wall time, a period with no end (or none) last ('infinity').
 */
export const whenSortColumns = (alias: string) =>
  `(coalesce(${alias}.valid_from, 'infinity') AT TIME ZONE 'UTC') AS ${WHEN_SORT_COLUMN.from}, ` +
  `(coalesce(${alias}.valid_to, 'infinity') AT TIME ZONE 'UTC') AS ${WHEN_SORT_COLUMN.until}`;

/** Whether a page from `position` is read backwards (to the previous page, or the last). */
const readsBackwards = (position: Position) => position.kind === "before" || position.kind === "last";

/** Whether a page from `position` reads `sort`'s order downwards (DESC): the order's own, turned for a page read backwards. */
export function readsDescending(sort: Sort, position: Position): boolean {
  return sort.desc !== readsBackwards(position);
}

export const sortParam = (sort: Sort): string => `${sort.desc ? "-" : ""}${sort.key}`;

/**
 * `name`, `-created`, …; expiration orders domains only, `from` and `until` only a list filtered by an
 * instant or a window (`saysWhen`). Anything else: a notice and the default.
 */
export function parseSort(text: string | undefined, domainsOnly: boolean, notices: Message[], saysWhen = false): Sort {
  if (!text) return DEFAULT_SORT;
  const desc = text.startsWith("-");
  const key = (desc ? text.slice(1) : text) as SortKey;
  if (!SORT_KEYS.includes(key)) {
    notices.push(msg("filter.sort", { sort: text.slice(0, 64), keys: SORT_KEYS.join(", ") }));
    return DEFAULT_SORT;
  }
  if (key === "expires" && !domainsOnly) {
    notices.push(msg("filter.sortExpires"));
    return DEFAULT_SORT;
  }
  if (WHEN_SORT_KEYS.includes(key) && !saysWhen) {
    notices.push(msg("filter.sortWhen", { sort: key }));
    return DEFAULT_SORT;
  }
  return { key, desc };
}

/** A cursor as it travels in the URL: base64url of [sort, value, id]. */
export function encodeCursor(sort: Sort, value: string, id: number): string {
  return Buffer.from(JSON.stringify([sortParam(sort), value, id])).toString("base64url");
}

/**
 * Reads `after`, `before` or `last`. A cursor made for another sort order or not one at all, or
 * one whose row cannot exist (a day not on the calendar, an id out of range, a NUL character): a
 * notice saying which, and the first page. What reaches the SQL is always a value of the column.
 */
export function parsePosition(params: { after?: string; before?: string; last?: string }, sort: Sort, notices: Message[]): Position {
  if (params.last !== undefined && params.last !== "") return { kind: "last" };
  const kind = params.after ? "after" : params.before ? "before" : null;
  if (!kind) return { kind: "first" };
  const text = (kind === "after" ? params.after : params.before) as string;
  let decoded: unknown;
  try {
    // A cursor is short: anything longer is not one (and is not decoded).
    if (text.length <= 2048) decoded = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    // not base64 JSON: reported below
  }
  if (Array.isArray(decoded) && decoded.length === 3 && decoded[0] === sortParam(sort) && typeof decoded[1] === "string") {
    const [, value, id] = decoded as [string, string, unknown];
    const problem = SORT_COLUMNS[sort.key].problem(value);
    const shown = value.replaceAll("\u0000", "").slice(0, 40);
    if (problem) notices.push(msg("params.positionValue", { problem, value: shown, max: DB_INT_MAX }));
    else if (!isId(id))
      notices.push(msg("params.positionValue", { problem: "id", value: String(JSON.stringify(id)).slice(0, 40), max: DB_INT_MAX }));
    else return { kind, value, id };
    return { kind: "first" };
  }
  notices.push(msg("filter.position"));
  return { kind: "first" };
}

/**
 * The parts of a page query for `sort` from `position`, parameters numbered from `offset + 1`.
 * `reversed`: the query reads backwards (to the previous page, or the last) and the rows it returns
 * must be turned around. `selectedOrderBy`: the same order over a subquery that selected the sort
 * column as `sort_column`.
 */
export function pageSql(
  sort: Sort,
  position: Position,
  offset: number,
  /** The "when" join (`fc` and `w`, whenSql) the list adds for a filter by an instant or a window; needed by `from` and `until`. */
  whenJoin?: string,
): {
  from: string;
  condition: string;
  orderBy: string;
  selectedOrderBy: string;
  sortValue: string;
  sortColumn: string;
  params: unknown[];
  reversed: boolean;
} {
  const column = SORT_COLUMNS[sort.key];
  const reversed = readsBackwards(position);
  const desc = readsDescending(sort, position);
  const direction = desc ? "DESC" : "ASC";
  const params: unknown[] = [];
  let condition = "true";
  if (position.kind === "after" || position.kind === "before") {
    params.push(position.value, position.id);
    // (column, id) beyond the cursor, written so an index on the column alone can start there.
    const [value, id] = [`$${offset + 1}::${column.type}`, `$${offset + 2}::int`];
    const [beyondOrAt, beyond] = desc ? ["<=", "<"] : [">=", ">"];
    condition = `${column.sql} ${beyondOrAt} ${value} AND (${column.sql} ${beyond} ${value} OR o.id ${beyond} ${id})`;
  }
  return {
    from:
      sort.key === "expires"
        ? `${LISTED_OBJECTS} JOIN domain d ON d.id = o.id`
        : WHEN_SORT_KEYS.includes(sort.key)
          ? `${LISTED_OBJECTS} ${whenJoin ?? ""}`
          : LISTED_OBJECTS,
    condition,
    orderBy: `${column.sql} ${direction}, o.id ${direction}`,
    selectedOrderBy: `o.sort_column ${direction}, o.id ${direction}`,
    sortValue: `${column.sql}::text`,
    sortColumn: column.sql,
    params,
    reversed,
  };
}
