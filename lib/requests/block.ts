import "server-only";
import type * as z from "zod";
import { InputError } from "../actions/result";
import type { Actor } from "../auth/sessions";
import { type ChangeContext, checkPolicy, formContext, metaOf, reasonIn } from "../cases/context";
import type { SqlExecutor } from "../db/driver";
import { type Message, msg } from "../i18n/message";
import { blockSchema, DEFAULT_PROHIBITIONS, insertRequest, isProhibition } from "./block-rules";
import { LOCK_OBJECT, materialise, requestChange } from "./command";
import { checkRequest } from "./rules";

// Blocking an object: serverBlocked and the chosen prohibitions, from a start (now or later).

/**
 * Blocks an object administratively: serverBlocked and the chosen prohibitions over one period
 * (now or later). A prohibition request in force when the block begins is cut at its start and
 * remembered, to be restored on unblocking; one that would start inside the block is refused.
 */
export function blockObject(input: unknown): Promise<{ message: Message; blockId: number }> {
  return requestChange(
    "block.create",
    blockSchema,
    input,
    (data) => [LOCK_OBJECT.byId, data.objectId],
    // In the case the input names (`caseId`), if any.
    async (tx, data, actor, now) => blockWork(tx, data, actor, now, null, "console", await formContext(tx, input)),
  );
}

/** Checks and writes one block inside the caller's transaction (a form's, or a bulk apply's, with `batchId`). */
export async function blockWork(
  tx: SqlExecutor,
  data: z.output<typeof blockSchema>,
  actor: Actor,
  now: Date,
  batchId: string | null = null,
  madeBy: "console" | "fred" = "console",
  context: ChangeContext = {},
): Promise<{ message: Message; summary: Message; blockId: number; objectId: number; audited: Record<string, unknown> }> {
  const prohibitions = data.prohibitions?.length ? [...new Set(data.prohibitions)] : DEFAULT_PROHIBITIONS;
  const blocked = await checkRequest(tx, { ...data, state: "serverBlocked", reason: data.reason }, now, { viaBlock: true });
  const { object, from, to } = blocked;
  await checkPolicy(tx, context, "serverBlocked", object.name);
  const reason = reasonIn(context, data.reason);
  const states = await tx.query<{ id: number; name: string; applies: boolean; manual: boolean }>(
    `SELECT s.id, s.name, s.manual, o.type = ANY (s.types) AS applies FROM enum_object_states s, object_registry o
      WHERE o.id = $1 AND s.name = ANY ($2::text[])`,
    [object.id, prohibitions],
  );
  for (const name of prohibitions) {
    // Each prohibition the block sets is a state the approval policy may hold back too.
    await checkPolicy(tx, context, name, object.name);
    const state = states.find((s) => s.name === name);
    if (!state?.manual || !isProhibition(name))
      throw new InputError(msg("block.notProhibition", { state: name.slice(0, 50) }), { prohibitions: [msg("field.unknownProhibition")] });
    if (!state.applies)
      throw new InputError(msg("request.notForType", { state: name, type: object.type }), { prohibitions: [msg("field.notForType")] });
  }

  const [{ id: blockId }] = await tx.query<{ id: number }>(
    `INSERT INTO console.blocks (object_id, blocked_request_id, created_by, created_at, made_by, case_id)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [
      object.id,
      await insertRequest(tx, object.id, blocked.state.id, from, to, now, reason),
      actor.username,
      now,
      madeBy,
      context.case?.id ?? null,
    ],
  );
  const ids: number[] = [];
  for (const state of states) {
    const overlapping = await tx.query<{ id: number; valid_from: Date; valid_to: Date | null }>(
      `SELECT r.id, r.valid_from, r.valid_to FROM object_state_request r
        WHERE r.object_id = $1 AND r.state_id = $2
          AND console.request_period(r.valid_from, r.valid_to, r.canceled) && console.request_period($3, $4, NULL) FOR UPDATE`,
      [object.id, state.id, from, to],
    );
    for (const r of overlapping) {
      if (r.valid_from >= from)
        throw new InputError(msg("block.startsInside", { id: String(r.id), state: state.name, from: r.valid_from }), {
          from: [msg("field.overlapsBlockRequest")],
        });
      // In force when the block begins: it ends there, and comes back when the block is lifted.
      await tx.query("INSERT INTO console.block_displaced (block_id, request_id, original_valid_to) VALUES ($1, $2, $3)", [
        blockId,
        r.id,
        r.valid_to,
      ]);
      await tx.query("UPDATE object_state_request SET valid_to = $2 WHERE id = $1", [r.id, from]);
    }
    ids.push(await insertRequest(tx, object.id, state.id, from, to, now, reason));
  }
  const blockRequests = [
    (await tx.query<{ id: number }>("SELECT blocked_request_id AS id FROM console.blocks WHERE id = $1", [blockId]))[0].id,
    ...ids,
  ];
  for (const [i, requestId] of blockRequests.entries())
    await tx.query(
      `INSERT INTO console.request_meta (request_id, author, author_id, block_id, idempotency_key, batch_id, case_id, approved_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [requestId, actor.username, actor.userId, blockId, i === 0 ? (data.idempotencyKey ?? null) : null, batchId, ...metaOf(context)],
    );
  await materialise(tx, object.id, from <= now);
  // What the block does (a bulk dry run says it without the id).
  const summary = msg("block.summary", {
    object: object.name,
    start: from <= now ? "now" : "later",
    from,
    end: to ? "until" : "open",
    to: to ?? "",
    prohibitions: states.map((s) => s.name).join(", "),
  });
  return {
    message: msg("block.created", { id: String(blockId), summary }),
    summary,
    blockId,
    objectId: object.id,
    audited: {
      blockId,
      from,
      to,
      prohibitions: states.map((s) => s.name),
      reason: data.reason,
      ...(batchId ? { batchId } : {}),
      ...(context.case ? { caseId: context.case.id } : {}),
      ...(context.approvedBy ? { approvedBy: context.approvedBy } : {}),
    },
  };
}

/** A block with its period and prohibitions, locked for a change; refused when there is none. */
