import "server-only";
import { type Message, msg } from "../actions/message";
import { authorize } from "../auth/guard";
import { readConfig } from "../config";
import { type Params, readParams } from "../input/params";
import { DB_INT_MAX, parseId, parseInstant } from "../input/values";

export interface AuditRow {
  id: number;
  at: string;
  actor: string | null;
  role: string | null;
  sessionId: string | null;
  clientAddress: string | null;
  action: string;
  objectIds: number[];
  /** The objects by name (a deleted one too), in the order of objectIds; an id no object has keeps a null name. */
  objects: { id: number; name: string | null }[];
  input: Record<string, unknown>;
  result: string;
  errorCode: string | null;
}

export interface AuditPage {
  rows: AuditRow[];
  filters: { actor: string; action: string; object: string; from: string; to: string };
  /** What was wrong with the filters: messages, for the page to put into the reader's language. */
  notices: Message[];
  /** The id to continue below for the next (older) page, or null at the end. */
  nextBefore: number | null;
  actions: string[];
}

const PAGE_SIZE = 50;

/** The audit log, newest first, filtered by actor, action, object and time (registry time zone). */
export async function listAudit(params: Params): Promise<AuditPage> {
  const { db } = await authorize("audit.read", "audit.list");
  const notices: Message[] = [];
  const param = readParams(params, notices);
  const text = (key: string) => param(key)?.slice(0, 200) ?? "";
  const filters = {
    actor: text("actor"),
    action: text("action"),
    object: text("object"),
    from: text("from"),
    to: text("to"),
  };
  const where: string[] = [];
  const values: unknown[] = [];
  const add = (clause: (n: string) => string, value: unknown) => {
    values.push(value);
    where.push(clause(`$${values.length}`));
  };

  if (filters.actor) add((n) => `lower(actor) = lower(${n})`, filters.actor);
  if (filters.action) add((n) => `(action = ${n} OR action LIKE ${n} || '.%')`, filters.action);
  if (filters.object) {
    // An object id, else a name or handle (digits beyond an id's range may still be a handle).
    const id = parseId(filters.object);
    const [match] = id
      ? [{ id }]
      : await db.sql.query<{ id: number }>(
          "SELECT id FROM object_registry WHERE name IN (lower($1), upper($1)) ORDER BY erdate IS NULL DESC, id DESC LIMIT 1",
          [filters.object],
        );
    if (match) add((n) => `object_ids @> ARRAY[${n}::int]`, match.id);
    else if (/^\d+$/.test(filters.object)) notices.push(msg("audit.noObjectId", { object: filters.object.slice(0, 40), max: DB_INT_MAX }));
    else notices.push(msg("audit.noObject", { object: filters.object }));
  }
  const timeZone = readConfig().registryTimeZone;
  for (const [key, op] of [
    ["from", ">="],
    ["to", "<"],
  ] as const) {
    const value = filters[key];
    if (!value) continue;
    const instant = parseInstant(value, timeZone);
    if (!instant) {
      notices.push(msg("audit.notInstant", { value, key }));
      filters[key] = "";
      continue;
    }
    add((n) => `at ${op} ${n}`, instant);
  }
  // The page position: the last entry shown (audit entries' ids are bigint).
  const beforeText = text("before");
  if (beforeText) {
    const before = parseId(beforeText, Number.MAX_SAFE_INTEGER);
    if (before) add((n) => `id < ${n}`, before);
    else notices.push(msg("audit.position", { value: beforeText.slice(0, 40) }));
  }

  values.push(PAGE_SIZE + 1);
  const rows = await db.sql.query<{
    id: string;
    at: Date;
    actor: string | null;
    role: string | null;
    session_id: string | null;
    client_address: string | null;
    action: string;
    object_ids: number[];
    input: Record<string, unknown>;
    result: string;
    error_code: string | null;
  }>(
    `SELECT id::text AS id, at, actor, role, session_id, client_address, action, object_ids, input, result, error_code
       FROM console.audit_log ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
      ORDER BY audit_log.id DESC LIMIT $${values.length}`,
    values,
  );
  const actions = (await db.sql.query<{ action: string }>("SELECT DISTINCT action FROM console.audit_log ORDER BY action")).map(
    (r) => r.action,
  );
  const page = rows.slice(0, PAGE_SIZE);
  const ids = [...new Set(page.flatMap((r) => r.object_ids))];
  const names = new Map(
    ids.length === 0
      ? []
      : (await db.sql.query<{ id: number; name: string }>("SELECT id, name FROM object_registry WHERE id = ANY ($1::int[])", [ids])).map(
          (o) => [o.id, o.name] as const,
        ),
  );
  return {
    rows: page.map((r) => ({
      id: Number(r.id),
      at: r.at.toISOString(),
      actor: r.actor,
      role: r.role,
      sessionId: r.session_id,
      clientAddress: r.client_address,
      action: r.action,
      objectIds: r.object_ids,
      objects: r.object_ids.map((id) => ({ id, name: names.get(id) ?? null })),
      input: r.input,
      result: r.result,
      errorCode: r.error_code,
    })),
    filters,
    notices,
    nextBefore: rows.length > PAGE_SIZE ? Number(page[page.length - 1].id) : null,
    actions,
  };
}
