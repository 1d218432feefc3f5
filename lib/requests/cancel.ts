import "server-only";
import type * as z from "zod";
import { InputError } from "../actions/result";
import type { Actor } from "../auth/sessions";
import { type ChangeContext, caseOfItem, checkPolicy, reasonIn } from "../cases/context";
import type { SqlExecutor } from "../db/driver";
import { type Message, msg } from "../i18n/message";
import { LOCK_OBJECT, materialise, requestChange } from "./command";
import { cancelRequestSchema } from "./rules";

// Canceling a manual state request.

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
    (tx, data, actor, now) => cancelWork(tx, data, actor, now),
  );
}

/** Cancels a request inside the caller's transaction (a form's, or an approval's with `context`); the object is locked. */
export async function cancelWork(
  tx: SqlExecutor,
  data: z.output<typeof cancelRequestSchema>,
  actor: Actor,
  now: Date,
  context: ChangeContext = {},
) {
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
  // A request made in a case is canceled in it: the policy sees the case's kind, FRED's reason its reference.
  const inCase: ChangeContext = context.case === undefined ? { ...context, case: await caseOfItem(tx, "request", request.id) } : context;
  await checkPolicy(tx, { ...inCase, change: "lift" }, request.state, request.object);
  // Not begun: FRED's form (canceled = valid_from), the real instant in the metadata (console.fred_canceled).
  await tx.query("UPDATE object_state_request SET canceled = console.fred_canceled(valid_from, $2) WHERE id = $1", [request.id, now]);
  await tx.query(
    `INSERT INTO object_state_request_reason (object_state_request_id, reason_cancellation) VALUES ($1, $2)
       ON CONFLICT (object_state_request_id) DO UPDATE SET reason_cancellation = excluded.reason_cancellation`,
    [request.id, reasonIn(inCase, data.reason)],
  );
  await tx.query(
    `INSERT INTO console.request_meta (request_id, author, canceled_by, canceled_by_id, canceled_at)
         VALUES ($1, 'outside the console', $2, $3, $4)
       ON CONFLICT (request_id) DO UPDATE
         SET canceled_by = excluded.canceled_by, canceled_by_id = excluded.canceled_by_id, canceled_at = excluded.canceled_at`,
    [request.id, actor.username, actor.userId, now],
  );
  const started = request.valid_from <= now;
  await materialise(tx, request.object_id, started);
  return {
    message: msg(started ? "request.canceledEnded" : "request.canceledFuture", {
      id: String(request.id),
      state: request.state,
      object: request.object,
    }),
    objectId: request.object_id,
    audited: { requestId: request.id, state: request.state, wasInForce: started, canceledAt: now, reason: data.reason },
    summary: msg("request.cancelSummary", { id: String(request.id), state: request.state, object: request.object }),
    requestId: request.id,
  };
}
