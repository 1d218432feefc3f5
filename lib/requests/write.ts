import "server-only";
import * as z from "zod";
import { auditedChange } from "../actions/change";
import { idSchema } from "../actions/ids";
import { type Message, msg, render, zodError } from "../actions/message";
import { InputError, parseInput } from "../actions/result";
import { authorize } from "../auth/guard";
import type { Actor } from "../auth/sessions";
import { readConfig } from "../config";
import { rolledBack, type SqlExecutor } from "../db/driver";
import { descriptionLang } from "../i18n/config";
import { getLocale } from "../i18n/server";
import { parseInstant } from "../objects/filter";

import { REASON_MAX, START_GRACE_MS } from "./limits";

export { REASON_MAX } from "./limits";

export const reasonSchema = z
  .string({ error: zodError("reason.missing") })
  .trim()
  .min(1, { error: zodError("reason.missing") })
  .max(REASON_MAX, { error: zodError("reason.tooLong", { max: REASON_MAX }) });
export const keySchema = z.uuid({ error: zodError("form.keyDamaged") }).optional();

export const createRequestSchema = z.object({
  objectId: idSchema("object"),
  state: z
    .string({ error: zodError("request.chooseState") })
    .trim()
    .min(1, { error: zodError("request.chooseState") })
    .max(50, { error: zodError("field.unknownState") }),
  from: z.string().trim().optional().default(""),
  to: z.string().trim().optional().default(""),
  reason: reasonSchema,
  idempotencyKey: keySchema,
});

export const cancelRequestSchema = z.object({
  requestId: idSchema("request"),
  reason: reasonSchema,
  idempotencyKey: keySchema,
});

export interface Checked {
  object: { id: number; name: string; type: string };
  state: { id: number; name: string };
  from: Date;
  to: Date | null;
}

/** An instant of a message, or "open-ended" for none. */
const when = (d: Date | null): Date | Message => d ?? msg("common.openEnded");

/** A request that would hold at the same time, for the same state or the other of in/out of zone. */
async function conflict(tx: SqlExecutor, c: Checked): Promise<Message | null> {
  const [row] = await tx.query<{ id: number; name: string; valid_from: Date; valid_to: Date | null; same: boolean }>(
    `SELECT r.id, s.name, r.valid_from, r.valid_to, r.state_id = $2 AS same
       FROM object_state_request r JOIN enum_object_states s ON s.id = r.state_id
      WHERE r.object_id = $1
        AND (r.state_id = $2 OR (r.state_id IN (5, 6) AND $2 IN (5, 6)))
        AND console.request_period(r.valid_from, r.valid_to, r.canceled) && console.request_period($3, $4, NULL)
      ORDER BY r.valid_from LIMIT 1`,
    [c.object.id, c.state.id, c.from, c.to],
  );
  if (!row) return null;
  const values = { object: c.object.name, id: String(row.id), state: row.name, from: row.valid_from, to: when(row.valid_to) };
  return msg(row.same ? "request.sameState" : "request.zoneClash", values);
}

/**
 * The rules of a new request, checked with the object locked (one request at a time per object):
 * the object exists and is not deleted; the state is manual and valid for its type; the start is
 * now or later; the end is after the start; nothing overlaps. The database's exclusion
 * constraints hold the overlap rules even for writers that skip this.
 */
export async function checkRequest(
  tx: SqlExecutor,
  data: z.output<typeof createRequestSchema>,
  now: Date,
  options: { viaBlock?: boolean } = {},
): Promise<Checked> {
  await tx.query(LOCK_OBJECT.byId, [data.objectId]);
  const [object] = await tx.query<{ id: number; name: string; type: string; type_id: number; erdate: Date | null }>(
    `SELECT o.id, o.name, t.name AS type, o.type AS type_id, o.erdate FROM object_registry o JOIN enum_object_type t ON t.id = o.type
      WHERE o.id = $1`,
    [data.objectId],
  );
  if (!object)
    throw new InputError(msg("request.noObject", { id: String(data.objectId) }), {
      objectId: [msg("input.unknown", { what: "object" })],
    });
  if (object.erdate)
    throw new InputError(msg("request.objectDeleted", { object: object.name, at: object.erdate }), {
      objectId: [msg("field.deleted")],
    });
  const [state] = await tx.query<{ id: number; name: string; manual: boolean; applies: boolean }>(
    "SELECT id, name, manual, $2 = ANY (types) AS applies FROM enum_object_states WHERE name = $1",
    [data.state, object.type_id],
  );
  if (!state) throw new InputError(msg("request.noState", { state: data.state.slice(0, 50) }), { state: [msg("field.unknownState")] });
  if (!state.manual) throw new InputError(msg("request.automatic", { state: state.name }), { state: [msg("field.automatic")] });
  if (!state.applies)
    throw new InputError(msg("request.notForType", { state: state.name, type: object.type }), { state: [msg("field.notForType")] });
  // serverBlocked is the block's: with its prohibitions, taken over and given back (./blocks).
  if (state.name === "serverBlocked" && !options.viaBlock)
    throw new InputError(msg("request.blockOnly", { object: object.name }), { state: [msg("field.blockOnly")] });

  const zone = readConfig().registryTimeZone;
  let from = now;
  if (data.from) {
    const parsed = parseInstant(data.from, zone);
    if (!parsed)
      throw new InputError(msg("request.startNotInstant", { value: data.from.slice(0, 40) }), { from: [msg("field.notInstant")] });
    if (parsed.getTime() < now.getTime() - START_GRACE_MS)
      throw new InputError(msg("request.startInPast", { from: parsed }), { from: [msg("field.inPast")] });
    from = parsed.getTime() < now.getTime() ? now : parsed;
  }
  let to: Date | null = null;
  if (data.to) {
    const parsed = parseInstant(data.to, zone);
    if (!parsed) throw new InputError(msg("request.endNotInstant", { value: data.to.slice(0, 40) }), { to: [msg("field.notInstant")] });
    if (parsed.getTime() <= now.getTime()) throw new InputError(msg("request.endInPast", { to: parsed }), { to: [msg("field.inPast")] });
    if (parsed.getTime() <= from.getTime())
      throw new InputError(msg("request.endNotAfterStart", { to: parsed, from }), { to: [msg("field.beforeStart")] });
    to = parsed;
  }
  const checked = { object: { id: object.id, name: object.name, type: object.type }, state, from, to };
  const clash = await conflict(tx, checked);
  if (clash) throw new InputError(clash, { from: [msg("field.overlapsRequest")] });
  const block = await blockOver(tx, checked);
  if (block && !options.viaBlock && state.name.startsWith("server") && state.name !== "serverBlocked")
    throw new InputError(msg("request.blocked", { object: object.name, block: String(block.id), from: block.from, to: when(block.to) }), {
      state: [msg("field.blocked")],
    });
  return checked;
}

/** A block of the object not lifted whose period meets the checked one. */
export async function blockOver(tx: SqlExecutor, c: Pick<Checked, "object" | "from" | "to">) {
  const [block] = await tx.query<{ id: number; from: Date; to: Date | null }>(
    `SELECT b.id, r.valid_from AS from, r.valid_to AS to FROM console.blocks b JOIN object_state_request r ON r.id = b.blocked_request_id
      WHERE b.object_id = $1 AND b.unblocked_at IS NULL
        AND console.request_period(r.valid_from, r.valid_to, r.canceled) && console.request_period($2, $3, NULL) LIMIT 1`,
    [c.object.id, c.from, c.to],
  );
  return block ?? null;
}

/**
 * Brings the object's history up to now in this transaction: a request in force takes hold at once.
 * "Now" is the change's instant (changeInstant, the transaction's state clock), which the running
 * console may run the engine at (console.state_engine_run_now); any other instant is the owner's.
 */
export async function materialise(tx: SqlExecutor, objectId: number): Promise<void> {
  await tx.query("SELECT * FROM console.state_engine_run_now(false, $1)", [objectId]);
}

/**
 * The instant of this change, read after the object's lock and under the engine's shared lock, and
 * made the transaction's state clock, so the state triggers and the engine date the change alike
 * (console.state_change_clock: a scheduled run can no longer commit a cursor past it unseen).
 */
export async function changeInstant(tx: SqlExecutor): Promise<Date> {
  const [{ now }] = await tx.query<{ now: Date }>("SELECT console.state_change_clock() AS now");
  return now;
}

export const isCode = (error: unknown, code: string) => (error as { code?: string } | null)?.code === code;

/** The SQL that takes the lock of the object a change is about (by the input's id). */
export const LOCK_OBJECT = {
  byId: "SELECT console.lock_objects(ARRAY[$1::int])",
  byRequest: "SELECT console.lock_objects(ARRAY(SELECT object_id FROM object_state_request WHERE id = $1))",
  byBlock: "SELECT console.lock_objects(ARRAY(SELECT object_id FROM console.blocks WHERE id = $1))",
};

/**
 * A request change (see auditedChange), with the object it touched recorded in the audit row.
 * Every writer takes its object's lock first (`lock`: the SQL and the id), so writers of one object
 * never deadlock, and only then reads the change's instant: a writer that waited for another one
 * must not date its change before the other's (a cancellation "before" the request it cancels left
 * a history row that ended where it began).
 */
export function requestChange<S extends z.ZodType, T extends { message: Message }>(
  action: string,
  schema: S,
  input: unknown,
  lock: (data: z.output<S>) => [sql: string, id: number],
  work: (
    tx: SqlExecutor,
    data: z.output<S>,
    actor: Actor,
    now: Date,
  ) => Promise<T & { objectId: number; audited: Record<string, unknown> }>,
): Promise<T> {
  return auditedChange("requests.write", action, schema, input, async (tx, data, actor) => {
    const [sql, id] = lock(data);
    await tx.query(sql, [id]);
    const now = await changeInstant(tx);
    const result = await work(tx, data, actor, now);
    return { result, audit: { objectIds: [result.objectId], input: result.audited } };
  });
}

export interface CreatedRequest {
  message: Message;
  requestId: number;
  /** A second submission of the same form: nothing new was created. */
  repeated: boolean;
}

/**
 * Checks and writes one request inside the caller's transaction (a form's, or a bulk apply's, with
 * `batchId`); returns what the audit row and the person are told.
 */
export async function createWork(
  tx: SqlExecutor,
  data: z.output<typeof createRequestSchema>,
  actor: Actor,
  now: Date,
  batchId: string | null = null,
): Promise<CreatedRequest & { summary: Message; objectId: number; audited: Record<string, unknown> }> {
  const c = await checkRequest(tx, data, now);
  let requestId: number;
  try {
    [{ id: requestId }] = await tx.query<{ id: number }>(
      "INSERT INTO object_state_request (object_id, state_id, valid_from, valid_to, crdate) VALUES ($1, $2, $3, $4, $5) RETURNING id",
      [c.object.id, c.state.id, c.from, c.to, now],
    );
  } catch (error) {
    // Another request got in between the check and the insert: the constraint has the last word.
    if (isCode(error, "23P01")) throw new InputError(msg("request.overlapsNow", { object: c.object.name, state: c.state.name }));
    throw error;
  }
  await tx.query("INSERT INTO object_state_request_reason (object_state_request_id, reason_creation) VALUES ($1, $2)", [
    requestId,
    data.reason,
  ]);
  await tx.query(
    "INSERT INTO console.request_meta (request_id, author, author_id, idempotency_key, batch_id) VALUES ($1, $2, $3, $4, $5)",
    [requestId, actor.username, actor.userId, data.idempotencyKey ?? null, batchId],
  );
  await materialise(tx, c.object.id);
  // What the request does (a bulk dry run says it without the id).
  const summary = c.to
    ? msg("request.summary", { state: c.state.name, object: c.object.name, from: c.from, to: c.to })
    : msg("request.summaryOpen", { state: c.state.name, object: c.object.name, from: c.from });
  return {
    message: msg("request.created", { id: String(requestId), summary }),
    summary,
    requestId,
    repeated: false,
    objectId: c.object.id,
    audited: { requestId, state: c.state.name, from: c.from, to: c.to, reason: data.reason, ...(batchId ? { batchId } : {}) },
  };
}

/** Creates a manual state request (see checkRequest for the rules). */
export async function createStateRequest(input: unknown): Promise<CreatedRequest> {
  try {
    // One writer per object; a repeated submission waits for the object and then finds the first.
    return await requestChange(
      "request.create",
      createRequestSchema,
      input,
      (data) => [LOCK_OBJECT.byId, data.objectId],
      async (tx, data, actor, now) => {
        if (data.idempotencyKey) {
          const [earlier] = await tx.query<{ request_id: number; object_id: number }>(
            `SELECT m.request_id, r.object_id FROM console.request_meta m JOIN object_state_request r ON r.id = m.request_id
            WHERE m.idempotency_key = $1`,
            [data.idempotencyKey],
          );
          if (earlier)
            return {
              message: msg("request.repeated", { id: String(earlier.request_id) }),
              requestId: earlier.request_id,
              repeated: true,
              objectId: earlier.object_id,
              // Not a second "request created": the audit row says which request it repeated.
              audited: { repeatOf: earlier.request_id },
            };
        }
        return createWork(tx, data, actor, now);
      },
    );
  } catch (error) {
    // Two submissions of one form at the same instant: the second finds the first.
    if (isCode(error, "23505") && typeof (input as { idempotencyKey?: unknown })?.idempotencyKey === "string")
      return createStateRequest(input);
    if (isCode(error, "23P01")) throw new InputError(msg("request.overlapsSameMoment"));
    throw error;
  }
}

/**
 * Cancels a request that has not ended: a future one never takes effect, one in force ends now and
 * its state closes in the same transaction. A future one is stored as FRED's programs can read it
 * (canceled = its start: see console.fred_canceled); the instant and the person are the console's
 * metadata (request_meta.canceled_at, canceled_by) and the audit row's.
 */
export function cancelStateRequest(input: unknown): Promise<{ message: Message }> {
  return requestChange(
    "request.cancel",
    cancelRequestSchema,
    input,
    (data) => [LOCK_OBJECT.byRequest, data.requestId],
    async (tx, data, actor, now) => {
      const [request] = await tx.query<{
        id: number;
        object_id: number;
        object: string;
        state: string;
        valid_from: Date;
        valid_to: Date | null;
        canceled: Date | null;
      }>(
        // When it was canceled: the console's record (one canceled before its start holds its start).
        `SELECT r.id, r.object_id, o.name AS object, s.name AS state, r.valid_from, r.valid_to,
                console.request_canceled(r.canceled, m.canceled_at) AS canceled
         FROM object_state_request r JOIN object_registry o ON o.id = r.object_id JOIN enum_object_states s ON s.id = r.state_id
         LEFT JOIN console.request_meta m ON m.request_id = r.id
        WHERE r.id = $1 FOR UPDATE OF r`,
        [data.requestId],
      );
      if (!request)
        throw new InputError(msg("request.noRequest", { id: String(data.requestId) }), {
          requestId: [msg("input.unknown", { what: "request" })],
        });
      if (request.canceled) throw new InputError(msg("request.alreadyCanceled", { id: String(request.id), at: request.canceled }));
      const [meta] = await tx.query<{ block_id: number | null }>("SELECT block_id FROM console.request_meta WHERE request_id = $1", [
        request.id,
      ]);
      if (meta?.block_id)
        throw new InputError(msg("request.partOfBlock", { id: String(request.id), block: String(meta.block_id) }), {
          requestId: [msg("field.partOfBlock")],
        });
      if (request.valid_to && request.valid_to <= now)
        throw new InputError(msg("request.ended", { id: String(request.id), at: request.valid_to }));
      // Not begun: FRED's form (canceled = valid_from), the real instant in the metadata (console.fred_canceled).
      await tx.query("UPDATE object_state_request SET canceled = console.fred_canceled(valid_from, $2) WHERE id = $1", [request.id, now]);
      await tx.query(
        `INSERT INTO object_state_request_reason (object_state_request_id, reason_cancellation) VALUES ($1, $2)
       ON CONFLICT (object_state_request_id) DO UPDATE SET reason_cancellation = excluded.reason_cancellation`,
        [request.id, data.reason],
      );
      await tx.query(
        `INSERT INTO console.request_meta (request_id, author, canceled_by, canceled_by_id, canceled_at)
         VALUES ($1, 'outside the console', $2, $3, $4)
       ON CONFLICT (request_id) DO UPDATE
         SET canceled_by = excluded.canceled_by, canceled_by_id = excluded.canceled_by_id, canceled_at = excluded.canceled_at`,
        [request.id, actor.username, actor.userId, now],
      );
      await materialise(tx, request.object_id);
      const started = request.valid_from <= now;
      return {
        message: msg(started ? "request.canceledEnded" : "request.canceledFuture", {
          id: String(request.id),
          state: request.state,
          object: request.object,
        }),
        objectId: request.object_id,
        audited: { requestId: request.id, state: request.state, wasInForce: started, canceledAt: now, reason: data.reason },
      };
    },
  );
}

/** Raised inside a preview's transaction to roll it back after reading what the request would do. */
/**
 * What a request would do, computed by the registry's own rules: the request is checked (a refusal
 * comes back as it would on creation) and inserted in a transaction that is then rolled back, and
 * the object's periods from object_state_periods with and without it are compared.
 */
export async function previewStateRequest(input: unknown): Promise<{ message: string; lines: string[] }> {
  const { db } = await authorize("requests.write", "request.preview");
  const data = parseInput(createRequestSchema, input);
  // The lines are said here, in the request's language; the states' descriptions are in it too.
  const locale = await getLocale();
  const lines = await rolledBack(db.sql, async (tx) => {
    const [{ now }] = await tx.query<{ now: Date }>("SELECT now() AS now");
    const c = await checkRequest(tx, data, now);
    const periods = `SELECT s.name, coalesce(d.description, e.description) AS description, p.valid_from, p.valid_to,
                              ARRAY(SELECT x.command::text FROM console.object_state_command_refusal x WHERE x.state_id = s.id ORDER BY x.command) AS refuses
                         FROM console.object_state_periods(ARRAY[$1::int]) p JOIN enum_object_states s ON s.id = p.state_id
                         LEFT JOIN enum_object_states_desc d ON d.state_id = s.id AND d.lang = $3
                         LEFT JOIN enum_object_states_desc e ON e.state_id = s.id AND e.lang = 'EN'
                        WHERE p.valid_to IS NULL OR p.valid_to > $2`;
    type Period = { name: string; description: string | null; valid_from: Date; valid_to: Date | null; refuses: string[] };
    const lang = descriptionLang(locale);
    const before = await tx.query<Period>(periods, [c.object.id, now, lang]);
    await tx.query("INSERT INTO object_state_request (object_id, state_id, valid_from, valid_to, crdate) VALUES ($1, $2, $3, $4, $5)", [
      c.object.id,
      c.state.id,
      c.from,
      c.to,
      now,
    ]);
    const after = await tx.query<Period>(periods, [c.object.id, now, lang]);
    const key = (p: Period) => `${p.name}|${p.valid_from.getTime()}|${p.valid_to?.getTime()}`;
    const had = new Set(before.map(key));
    const has = new Set(after.map(key));
    const label = (p: Period) => `${p.name} (${p.description ?? p.name})`;
    const object = c.object.name;
    const line = (p: Period): Message => {
      if (p.valid_from < now)
        return p.valid_to
          ? msg("preview.keepsUntil", { object, state: label(p), to: p.valid_to })
          : msg("preview.keepsOpen", { object, state: label(p) });
      return msg("preview.gets", {
        object,
        state: label(p),
        start: p.valid_from.getTime() === now.getTime() ? "now" : "later",
        from: p.valid_from,
        end: p.valid_to ? "until" : "open",
        to: p.valid_to ?? "",
        refused: p.refuses.length ? p.refuses.join(", ") : "none",
      });
    };
    const changes = [
      ...after.filter((p) => !had.has(key(p))).map((p) => ({ at: p.valid_from.getTime(), text: line(p) })),
      ...before
        .filter((p) => !has.has(key(p)) && p.valid_from > now)
        .map((p) => ({ at: p.valid_from.getTime(), text: msg("preview.noLongerGets", { object, state: p.name, from: p.valid_from }) })),
    ]
      .sort((a, b) => a.at - b.at)
      .map((l) => render(l.text, locale));
    return changes.length ? changes : [render(msg("preview.nothing", { state: c.state.name, object }), locale)];
  });
  return { message: lines.join(" "), lines };
}
