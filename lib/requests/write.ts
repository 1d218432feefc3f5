import "server-only";
import * as z from "zod";
import { auditedChange } from "../actions/change";
import { idSchema } from "../actions/ids";
import { InputError, parseInput } from "../actions/result";
import { authorize } from "../auth/guard";
import type { Actor } from "../auth/sessions";
import { readConfig } from "../config";
import type { SqlExecutor } from "../db/driver";
import { formatInstant } from "../format/datetime";
import { parseInstant } from "../objects/filter";

/** A start this close to now (in the past) is taken as now: the form took a moment to send. */
const START_GRACE_MS = 60_000;
export const REASON_MAX = 300;

export const reasonSchema = z
  .string({ error: "Give a reason." })
  .trim()
  .min(1, { error: "Give a reason." })
  .max(REASON_MAX, { error: `Reasons have at most ${REASON_MAX} characters.` });
export const keySchema = z.uuid({ error: "The form's submission key is damaged; reload the page." }).optional();

export const createRequestSchema = z.object({
  objectId: idSchema("object"),
  state: z.string({ error: "Choose a state." }).trim().min(1, { error: "Choose a state." }).max(50, { error: "Unknown state." }),
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

export const when = (d: Date | null) => (d ? formatInstant(d.toISOString()) : "open-ended");

/** A request that would hold at the same time, for the same state or the other of in/out of zone. */
async function conflict(tx: SqlExecutor, c: Checked): Promise<string | null> {
  const [row] = await tx.query<{ id: number; name: string; valid_from: Date; valid_to: Date | null; same: boolean }>(
    `SELECT r.id, s.name, r.valid_from, r.valid_to, r.state_id = $2 AS same
       FROM object_state_request r JOIN enum_object_states s ON s.id = r.state_id
      WHERE r.object_id = $1
        AND (r.state_id = $2 OR (r.state_id IN (5, 6) AND $2 IN (5, 6)))
        AND request_period(r.valid_from, r.valid_to, r.canceled) && request_period($3, $4, NULL)
      ORDER BY r.valid_from LIMIT 1`,
    [c.object.id, c.state.id, c.from, c.to],
  );
  if (!row) return null;
  const period = `${when(row.valid_from)} → ${when(row.valid_to)}`;
  return row.same
    ? `${c.object.name} already has request ${row.id} for ${row.name} (${period}); two requests for one state may not overlap.`
    : `${c.object.name} has request ${row.id} for ${row.name} (${period}); a domain cannot be kept in and out of the zone at the same time.`;
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
  const [object] = await tx.query<{ id: number; name: string; type: string; type_id: number; erdate: Date | null }>(
    `SELECT o.id, o.name, t.name AS type, o.type AS type_id, o.erdate FROM object_registry o JOIN enum_object_type t ON t.id = o.type
      WHERE o.id = $1 FOR NO KEY UPDATE OF o`,
    [data.objectId],
  );
  if (!object) throw new InputError(`There is no object with id ${data.objectId}.`, { objectId: ["Unknown object."] });
  if (object.erdate)
    throw new InputError(`${object.name} was deleted on ${when(object.erdate)}; deleted objects take no requests.`, {
      objectId: ["Deleted."],
    });
  const [state] = await tx.query<{ id: number; name: string; manual: boolean; applies: boolean }>(
    "SELECT id, name, manual, $2 = ANY (types) AS applies FROM enum_object_states WHERE name = $1",
    [data.state, object.type_id],
  );
  if (!state) throw new InputError(`There is no state “${data.state.slice(0, 50)}”.`, { state: ["Unknown state."] });
  if (!state.manual)
    throw new InputError(
      `${state.name} is automatic: the state engine sets it from the registry's data; only manual states can be requested.`,
      {
        state: ["Automatic state."],
      },
    );
  if (!state.applies) throw new InputError(`${state.name} does not apply to a ${object.type}.`, { state: ["Not for this type."] });

  const zone = readConfig().registryTimeZone;
  let from = now;
  if (data.from) {
    const parsed = parseInstant(data.from, zone);
    if (!parsed) throw new InputError(`The start “${data.from.slice(0, 40)}” is not a date and time.`, { from: ["Not a date and time."] });
    if (parsed.getTime() < now.getTime() - START_GRACE_MS)
      throw new InputError(`The start ${when(parsed)} is in the past; requests start now or later.`, { from: ["In the past."] });
    from = parsed.getTime() < now.getTime() ? now : parsed;
  }
  let to: Date | null = null;
  if (data.to) {
    const parsed = parseInstant(data.to, zone);
    if (!parsed) throw new InputError(`The end “${data.to.slice(0, 40)}” is not a date and time.`, { to: ["Not a date and time."] });
    if (parsed.getTime() <= now.getTime()) throw new InputError(`The end ${when(parsed)} is in the past.`, { to: ["In the past."] });
    if (parsed.getTime() <= from.getTime())
      throw new InputError(`The end ${when(parsed)} is not after the start ${when(from)}.`, { to: ["Before the start."] });
    to = parsed;
  }
  const checked = { object: { id: object.id, name: object.name, type: object.type }, state, from, to };
  const clash = await conflict(tx, checked);
  if (clash) throw new InputError(clash, { from: ["Overlaps another request."] });
  const block = await blockOver(tx, checked);
  if (block && !options.viaBlock && state.name.startsWith("server") && state.name !== "serverBlocked")
    throw new InputError(
      `${object.name} is administratively blocked (block ${block.id}, ${when(block.from)} → ${when(block.to)}); its server* states change only through the block: change or lift the block instead.`,
      { state: ["Blocked."] },
    );
  return checked;
}

/** A block of the object not lifted whose period meets the checked one. */
export async function blockOver(tx: SqlExecutor, c: Pick<Checked, "object" | "from" | "to">) {
  const [block] = await tx.query<{ id: number; from: Date; to: Date | null }>(
    `SELECT b.id, r.valid_from AS from, r.valid_to AS to FROM console.blocks b JOIN object_state_request r ON r.id = b.blocked_request_id
      WHERE b.object_id = $1 AND b.unblocked_at IS NULL
        AND request_period(r.valid_from, r.valid_to, r.canceled) && request_period($2, $3, NULL) LIMIT 1`,
    [c.object.id, c.from, c.to],
  );
  return block ?? null;
}

/** Brings the object's history up to now in this transaction: a request in force takes hold at once. */
export async function materialise(tx: SqlExecutor, objectId: number, now: Date): Promise<void> {
  await tx.query("SELECT * FROM state_engine_run($2, false, $1)", [objectId, now]);
}

export const isCode = (error: unknown, code: string) => (error as { code?: string } | null)?.code === code;

/** The SQL that takes the lock of the object a change is about (by the input's id). */
export const LOCK_OBJECT = {
  byId: "SELECT 1 FROM object_registry WHERE id = $1 FOR NO KEY UPDATE",
  byRequest: "SELECT 1 FROM object_registry WHERE id = (SELECT object_id FROM object_state_request WHERE id = $1) FOR NO KEY UPDATE",
  byBlock: "SELECT 1 FROM object_registry WHERE id = (SELECT object_id FROM console.blocks WHERE id = $1) FOR NO KEY UPDATE",
};

/**
 * A request change (see auditedChange), with the object it touched recorded in the audit row.
 * Every writer takes its object's lock first (`lock`: the SQL and the id), so writers of one object
 * never deadlock, and only then reads the change's instant: a writer that waited for another one
 * must not date its change before the other's (a cancellation "before" the request it cancels left
 * a history row that ended where it began).
 */
export function requestChange<S extends z.ZodType, T extends { message: string }>(
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
    const [{ now }] = await tx.query<{ now: Date }>("SELECT statement_timestamp() AS now");
    // The state triggers and the engine take the same instant as "now" for this change.
    await tx.query("SELECT set_config('registry.state_clock', $1, true)", [now.toISOString()]);
    const result = await work(tx, data, actor, now);
    return { result, audit: { objectIds: [result.objectId], input: result.audited } };
  });
}

export interface CreatedRequest {
  message: string;
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
): Promise<CreatedRequest & { objectId: number; audited: Record<string, unknown> }> {
  const c = await checkRequest(tx, data, now);
  let requestId: number;
  try {
    [{ id: requestId }] = await tx.query<{ id: number }>(
      "INSERT INTO object_state_request (object_id, state_id, valid_from, valid_to, crdate) VALUES ($1, $2, $3, $4, $5) RETURNING id",
      [c.object.id, c.state.id, c.from, c.to, now],
    );
  } catch (error) {
    // Another request got in between the check and the insert: the constraint has the last word.
    if (isCode(error, "23P01"))
      throw new InputError(`${c.object.name} already has an overlapping request for ${c.state.name}; reload and look.`);
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
  await materialise(tx, c.object.id, now);
  return {
    message: `Request ${requestId}: ${c.state.name} on ${c.object.name} from ${when(c.from)} ${c.to ? `until ${when(c.to)}` : "with no end"}.`,
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
              message: `This form was already sent: request ${earlier.request_id} exists; nothing new was created.`,
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
    if (isCode(error, "23P01"))
      throw new InputError("Another request for this state was made at the same moment and overlaps; reload and look.");
    throw error;
  }
}

/**
 * Cancels a request that has not ended: a future one never takes effect, one in force ends now and
 * its state closes in the same transaction.
 */
export function cancelStateRequest(input: unknown): Promise<{ message: string }> {
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
        `SELECT r.id, r.object_id, o.name AS object, s.name AS state, r.valid_from, r.valid_to, r.canceled
         FROM object_state_request r JOIN object_registry o ON o.id = r.object_id JOIN enum_object_states s ON s.id = r.state_id
        WHERE r.id = $1 FOR UPDATE OF r`,
        [data.requestId],
      );
      if (!request) throw new InputError(`There is no request ${data.requestId}.`, { requestId: ["Unknown request."] });
      if (request.canceled) throw new InputError(`Request ${request.id} was already canceled on ${when(request.canceled)}.`);
      const [meta] = await tx.query<{ block_id: number | null }>("SELECT block_id FROM console.request_meta WHERE request_id = $1", [
        request.id,
      ]);
      if (meta?.block_id)
        throw new InputError(`Request ${request.id} is part of block ${meta.block_id}; lift the block to end it.`, {
          requestId: ["Part of a block."],
        });
      if (request.valid_to && request.valid_to <= now)
        throw new InputError(
          `Request ${request.id} ended on ${when(request.valid_to)}; only requests that have not ended can be canceled.`,
        );
      await tx.query("UPDATE object_state_request SET canceled = $2 WHERE id = $1", [request.id, now]);
      await tx.query(
        `INSERT INTO object_state_request_reason (object_state_request_id, reason_cancellation) VALUES ($1, $2)
       ON CONFLICT (object_state_request_id) DO UPDATE SET reason_cancellation = excluded.reason_cancellation`,
        [request.id, data.reason],
      );
      await tx.query(
        `INSERT INTO console.request_meta (request_id, author, canceled_by, canceled_by_id) VALUES ($1, 'outside the console', $2, $3)
       ON CONFLICT (request_id) DO UPDATE SET canceled_by = excluded.canceled_by, canceled_by_id = excluded.canceled_by_id`,
        [request.id, actor.username, actor.userId],
      );
      await materialise(tx, request.object_id, now);
      const started = request.valid_from <= now;
      return {
        message: started
          ? `Request ${request.id} canceled: ${request.state} on ${request.object} ended now.`
          : `Request ${request.id} canceled: ${request.state} on ${request.object} will not take effect.`,
        objectId: request.object_id,
        audited: { requestId: request.id, state: request.state, wasInForce: started, reason: data.reason },
      };
    },
  );
}

/** Raised inside a preview's transaction to roll it back after reading what the request would do. */
class PreviewDone extends Error {
  constructor(readonly lines: string[]) {
    super("preview");
  }
}

/**
 * What a request would do, computed by the registry's own rules: the request is checked (a refusal
 * comes back as it would on creation) and inserted in a transaction that is then rolled back, and
 * the object's periods from object_state_periods with and without it are compared.
 */
export async function previewStateRequest(input: unknown): Promise<{ message: string; lines: string[] }> {
  const { db } = await authorize("requests.write", "request.preview");
  const data = parseInput(createRequestSchema, input);
  try {
    await db.sql.transaction(async (tx) => {
      const [{ now }] = await tx.query<{ now: Date }>("SELECT now() AS now");
      const c = await checkRequest(tx, data, now);
      const periods = `SELECT s.name, d.description, p.valid_from, p.valid_to,
                              ARRAY(SELECT x.command::text FROM object_state_command_refusal x WHERE x.state_id = s.id ORDER BY x.command) AS refuses
                         FROM object_state_periods(ARRAY[$1::int]) p JOIN enum_object_states s ON s.id = p.state_id
                         LEFT JOIN enum_object_states_desc d ON d.state_id = s.id AND d.lang = 'EN'
                        WHERE p.valid_to IS NULL OR p.valid_to > $2`;
      type Period = { name: string; description: string | null; valid_from: Date; valid_to: Date | null; refuses: string[] };
      const before = await tx.query<Period>(periods, [c.object.id, now]);
      await tx.query("INSERT INTO object_state_request (object_id, state_id, valid_from, valid_to, crdate) VALUES ($1, $2, $3, $4, $5)", [
        c.object.id,
        c.state.id,
        c.from,
        c.to,
        now,
      ]);
      const after = await tx.query<Period>(periods, [c.object.id, now]);
      const key = (p: Period) => `${p.name}|${p.valid_from.getTime()}|${p.valid_to?.getTime()}`;
      const had = new Set(before.map(key));
      const has = new Set(after.map(key));
      const until = (p: Period) => (p.valid_to ? ` until ${when(p.valid_to)}` : ", with no end");
      const refused = (p: Period) => (p.refuses.length ? `; EPP ${p.refuses.join(", ")} refused` : "");
      const label = (p: Period) => `${p.name} (${p.description ?? p.name})`;
      const lines = [
        ...after
          .filter((p) => !had.has(key(p)))
          .map((p) => ({
            at: p.valid_from.getTime(),
            text:
              p.valid_from < now
                ? `${c.object.name} keeps ${label(p)}${p.valid_to ? ` only until ${when(p.valid_to)}` : " with no end"}.`
                : `${c.object.name} gets ${label(p)} ${p.valid_from.getTime() === now.getTime() ? "now" : `on ${when(p.valid_from)}`}${until(p)}${refused(p)}.`,
          })),
        ...before
          .filter((p) => !has.has(key(p)) && p.valid_from > now)
          .map((p) => ({ at: p.valid_from.getTime(), text: `${c.object.name} no longer gets ${p.name} on ${when(p.valid_from)}.` })),
      ]
        .sort((a, b) => a.at - b.at)
        .map((l) => l.text);
      throw new PreviewDone(
        lines.length ? lines : [`${c.state.name} would change nothing on ${c.object.name}: the rules already give it the same states.`],
      );
    });
  } catch (error) {
    if (error instanceof PreviewDone) return { message: error.lines.join(" "), lines: error.lines };
    throw error;
  }
  throw new Error("the preview did not finish");
}
