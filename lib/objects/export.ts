/**
 * The object list as CSV: its columns and fields (also for other CSV files), and the whole filtered
 * result in the list's sort order (exportObjects), audited.
 */
import "server-only";
import { audit } from "../audit/log";
import { authorize } from "../auth/guard";
import { pageReads } from "../db/client";
import type { Message } from "../i18n/message";
import { getLocale } from "../i18n/server";
import { countMatches } from "./count";
import { type Params, type StateFilter, saysWhen } from "./filter";
import { forecastFormOf } from "./list-plan";
import { type ListRecord, type ObjectListRow, rowsSql, toRow, whenParts } from "./list-query";
import { parseRequest, readCatalogue, whereOf } from "./list-request";
import { pageSql, WHEN_SORT_KEYS } from "./paging";

const CSV_COLUMNS = ["id", "name", "type", "sponsoring_registrar", "created", "expires", "states", "pending_requests"];

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
const CSV_WHEN_COLUMNS = ["period_state", "period_from", "period_until", "change_ahead", "change_cause"];

/** The CSV's columns for a filter. */
function csvColumns(state: StateFilter | null): string[] {
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
