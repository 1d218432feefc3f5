/**
 * What a list's filter matches, for a bulk change: how many objects (countMatching) and which
 * (objectsMatching), read from the list's URL parameters.
 */
import "server-only";
import type { SqlExecutor } from "../db/driver";
import type { Message } from "../i18n/message";
import type { Params } from "./filter";
import { parseRequest, readCatalogue, whereOf } from "./list-request";
import { LISTED_OBJECTS, pageSql } from "./paging";

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

/**
 * The live objects (id, name) a list filter matches, in list order, at most `cap`; `more` when there
 * are more. For callers that have authorized a change on them (bulk requests).
 */
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
