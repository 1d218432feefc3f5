import "server-only";
import type * as z from "zod";
import { InputError } from "../actions/result";
import type { Actor } from "../auth/sessions";
import { type ChangeContext, checkPolicy, formContext, metaOf, reasonIn } from "../cases/context";
import type { SqlExecutor } from "../db/driver";
import { type Message, msg } from "../i18n/message";
import { isCode, LOCK_OBJECT, materialise, requestChange } from "./command";
import { checkRequest, createRequestSchema } from "./rules";

// Creating a manual state request (from the object page's form, or for each object of a bulk change).

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
  context: ChangeContext = {},
): Promise<CreatedRequest & { summary: Message; objectId: number; audited: Record<string, unknown> }> {
  const c = await checkRequest(tx, data, now);
  await checkPolicy(tx, context, c.state.name, c.object.name);
  const reason = reasonIn(context, data.reason);
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
  await tx.query("INSERT INTO object_state_request_reason (object_state_request_id, reason_creation) VALUES ($1, $2)", [requestId, reason]);
  await tx.query(
    `INSERT INTO console.request_meta (request_id, author, author_id, idempotency_key, batch_id, case_id, approved_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [requestId, actor.username, actor.userId, data.idempotencyKey ?? null, batchId, ...metaOf(context)],
  );
  // A request that starts later is applied by the scheduler when FRED's engine writes the states.
  await materialise(tx, c.object.id, c.from <= now);
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
    audited: {
      requestId,
      state: c.state.name,
      from: c.from,
      to: c.to,
      reason: data.reason,
      ...(batchId ? { batchId } : {}),
      ...(context.case ? { caseId: context.case.id } : {}),
      ...(context.approvedBy ? { approvedBy: context.approvedBy } : {}),
    },
  };
}

/** Creates a manual state request (see checkRequest for the rules), in the case the input names (`caseId`), if any. */
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
        return createWork(tx, data, actor, now, null, await formContext(tx, input));
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
