import "server-only";
import * as z from "zod";
import { auditedChange } from "../actions/change";
import { idSchema } from "../actions/ids";
import { zodError } from "../actions/message";
import { InputError } from "../actions/result";
import type { Actor } from "../auth/sessions";
import { readConfig } from "../config";
import type { SqlExecutor } from "../db/driver";
import { type Message, msg } from "../i18n/message";
import { readInstant } from "../input/values";
import { fredEngineWrites, fredStateUpdate } from "../states/fred-engine";

import { REASON_MAX, START_GRACE_MS } from "./limits";

// What every request command shares (create, cancel, preview, the block commands, bulk): the
// input schemas, the rules a request must pass, the instant and lock of a change, and the one way a
// change runs (requestChange). Each command is a file of its own beside this one.

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
  await tx.run(LOCK_OBJECT.byId, [data.objectId]);
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
    const read = readInstant(data.from, zone, now);
    if (read.problem === "notInstant")
      throw new InputError(msg("request.startNotInstant", { value: data.from.slice(0, 40) }), { from: [msg("field.notInstant")] });
    const parsed = read.problem === "tooFar" ? read.at : read.instant;
    if (parsed.getTime() < now.getTime() - START_GRACE_MS)
      throw new InputError(msg("request.startInPast", { from: parsed }), { from: [msg("field.inPast")] });
    if (read.problem === "tooFar")
      throw new InputError(msg("request.startTooFar", { from: parsed, years: read.years, latest: read.latest }), {
        from: [msg("field.tooFar", { years: read.years })],
      });
    from = parsed.getTime() < now.getTime() ? now : parsed;
  }
  let to: Date | null = null;
  if (data.to) {
    const read = readInstant(data.to, zone, now);
    if (read.problem === "notInstant")
      throw new InputError(msg("request.endNotInstant", { value: data.to.slice(0, 40) }), { to: [msg("field.notInstant")] });
    const parsed = read.problem === "tooFar" ? read.at : read.instant;
    if (parsed.getTime() <= now.getTime()) throw new InputError(msg("request.endInPast", { to: parsed }), { to: [msg("field.inPast")] });
    if (parsed.getTime() <= from.getTime())
      throw new InputError(msg("request.endNotAfterStart", { to: parsed, from }), { to: [msg("field.beforeStart")] });
    if (read.problem === "tooFar")
      throw new InputError(msg("request.endTooFar", { to: parsed, years: read.years, latest: read.latest }), {
        to: [msg("field.tooFar", { years: read.years })],
      });
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
async function blockOver(tx: SqlExecutor, c: Pick<Checked, "object" | "from" | "to">) {
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
 *
 * When FRED's engine writes the states (beside, shadow), FRED's own update_object_states(id) is
 * called instead, as libfred's PerformObjectStateRequest after blockDomainsId or fred-admin -u, and
 * only when the change does something now (`effective`: a request or block that starts, ends or is
 * canceled at this instant); one that starts or ends later is the scheduler's (lib/states/fred-schedule.ts).
 */
export async function materialise(tx: SqlExecutor, objectId: number, effective = true): Promise<void> {
  if (await fredEngineWrites(tx)) {
    if (effective) await fredStateUpdate(tx, [objectId]);
    return;
  }
  await tx.query("SELECT * FROM console.state_engine_run_now(false, $1)", [objectId]);
}

/**
 * The instant of this change, read after the object's lock and under the engine's shared lock, and
 * made the transaction's state clock, so the state triggers and the engine date the change alike
 * (console.state_change_clock: a scheduled run can no longer commit a cursor past it unseen).
 *
 * When FRED's engine writes the states, the change is dated as libfred dates it: the transaction's
 * start (FRED's update_object_states reads requests at CURRENT_TIMESTAMP, and a request dated later
 * would not be in force for it), to the millisecond below. A change whose object another
 * transaction changed after this one began is run again (console.fred_state_update).
 */
export async function changeInstant(tx: SqlExecutor): Promise<Date> {
  if (await fredEngineWrites(tx)) {
    const [{ now }] = await tx.query<{ now: Date }>("SELECT date_trunc('milliseconds', now()) AS now");
    return now;
  }
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
    await tx.run(sql, [id]);
    const now = await changeInstant(tx);
    const result = await work(tx, data, actor, now);
    return { result, audit: { objectIds: [result.objectId], input: result.audited } };
  });
}
