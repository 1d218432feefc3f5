import "server-only";
import * as z from "zod";
import { idSchema } from "../actions/ids";
import { type Message, msg } from "../actions/message";
import { InputError } from "../actions/result";
import type { Actor } from "../auth/sessions";
import type { SqlExecutor } from "../db/driver";
import { checkRequest, keySchema, LOCK_OBJECT, materialise, reasonSchema, requestChange } from "./rules";

/** The states a block may set besides serverBlocked: the server*Prohibited ones. */
export const isProhibition = (name: string) => /^server\w+Prohibited$/.test(name);

/** The prohibitions a block sets when none are chosen (FRED's default). */
export const DEFAULT_PROHIBITIONS = ["serverDeleteProhibited", "serverTransferProhibited", "serverUpdateProhibited"];

export const blockSchema = z.object({
  objectId: idSchema("object"),
  from: z.string().trim().optional().default(""),
  to: z.string().trim().optional().default(""),
  prohibitions: z.array(z.string().trim().max(50)).max(10).optional(),
  reason: reasonSchema,
  idempotencyKey: keySchema,
});

/**
 * Which block a change is about: the console's block id, or the block's serverBlocked request (a
 * block FRED made has only that).
 */
const blockRef = { blockId: idSchema("block").optional(), blockRequestId: idSchema("request").optional() };

export const unblockSchema = z.object({ ...blockRef, reason: reasonSchema });

/** The object's lock for a change of the block `ref` names. */
const lockBlock = (ref: { blockId?: number; blockRequestId?: number }): [string, number] =>
  ref.blockId !== undefined ? [LOCK_OBJECT.byBlock, ref.blockId] : [LOCK_OBJECT.byRequest, ref.blockRequestId ?? 0];

/** Who made a block or request the console did not make (FRED's programs, SQL). */
const OUTSIDE = "outside the console";

async function insertRequest(tx: SqlExecutor, objectId: number, stateId: number, from: Date, to: Date | null, now: Date, reason: string) {
  const [{ id }] = await tx.query<{ id: number }>(
    "INSERT INTO object_state_request (object_id, state_id, valid_from, valid_to, crdate) VALUES ($1, $2, $3, $4, $5) RETURNING id",
    [objectId, stateId, from, to, now],
  );
  await tx.query("INSERT INTO object_state_request_reason (object_state_request_id, reason_creation) VALUES ($1, $2)", [id, reason]);
  return id;
}

/**
 * Ends a block's requests now and records it lifted by `by` at `now`. A request not begun is
 * canceled at its own start, an empty period that never takes effect: a cancellation before the
 * start (LEAST(canceled, valid_to) < valid_from) would make libfred refuse every later request for
 * that object and state (FRED.md §4.6). The real instant is in request_meta.canceled_at and console.blocks,
 * the person there and in the audit log.
 */
async function endBlock(tx: SqlExecutor, blockId: number, now: Date, by: string): Promise<void> {
  await tx.query(
    `WITH ended AS (
       UPDATE object_state_request r SET canceled = console.fred_canceled(r.valid_from, $2) FROM console.request_meta m
        WHERE m.request_id = r.id AND m.block_id = $1 AND r.canceled IS NULL AND (r.valid_to IS NULL OR r.valid_to > $2)
       RETURNING r.id)
     UPDATE console.request_meta m SET canceled_at = $2 FROM ended WHERE m.request_id = ended.id`,
    [blockId, now],
  );
  await tx.query("UPDATE console.blocks SET unblocked_at = $2, unblocked_by = $3 WHERE id = $1", [blockId, now, by]);
}

/**
 * The console's id of the block `ref` names. A block FRED made has none: it is taken over here, in
 * the change's transaction, as a block made outside the console whose lifting restores as FRED's
 * restore does (made_by 'fred'), its requests marked as its own.
 */
async function blockIdOf(tx: SqlExecutor, ref: { blockId?: number; blockRequestId?: number }): Promise<number> {
  if (ref.blockId !== undefined) return ref.blockId;
  if (ref.blockRequestId === undefined) throw new InputError(msg("block.notGiven"), { blockId: [msg("input.unknown", { what: "block" })] });
  const [block] = await tx.query<{ block_id: number | null; request_ids: number[] }>(
    "SELECT block_id, request_ids FROM console.object_blocks WHERE request_id = $1",
    [ref.blockRequestId],
  );
  if (!block)
    throw new InputError(msg("block.noBlockRequest", { id: String(ref.blockRequestId) }), {
      blockRequestId: [msg("input.unknown", { what: "block" })],
    });
  if (block.block_id !== null) return block.block_id;
  const [{ id }] = await tx.query<{ id: number }>(
    `INSERT INTO console.blocks (object_id, blocked_request_id, created_by, created_at, made_by)
     SELECT object_id, id, $2, crdate AT TIME ZONE 'UTC', 'fred' FROM object_state_request WHERE id = $1 RETURNING id`,
    [ref.blockRequestId, OUTSIDE],
  );
  await tx.query(
    `INSERT INTO console.request_meta (request_id, author, block_id) SELECT unnest($1::int[]), $2, $3
     ON CONFLICT (request_id) DO UPDATE SET block_id = excluded.block_id`,
    [[ref.blockRequestId, ...block.request_ids], OUTSIDE, id],
  );
  return id;
}

/**
 * What FRED's restore would request again if the object's block ended at `now`
 * (console.block_restore_states), with the object's history brought up to now first.
 */
async function restoreStates(tx: SqlExecutor, objectId: number, now: Date) {
  await materialise(tx, objectId);
  return tx.query<{ id: number; name: string }>(
    `SELECT s.id, s.name FROM console.block_restore_states($1, $2) f JOIN enum_object_states s ON s.id = f.state_id ORDER BY s.id`,
    [objectId, now],
  );
}

/**
 * FRED's restore: each state requested again from now with no end, unless a request already holds
 * it from now on (one the console restored when the block changed, or one made since).
 */
async function restoreAsFred(
  tx: SqlExecutor,
  objectId: number,
  states: { id: number; name: string }[],
  now: Date,
  actor: Actor,
  reason: string,
): Promise<number> {
  let restored = 0;
  for (const state of states) {
    const [held] = await tx.query(
      `SELECT 1 FROM object_state_request WHERE object_id = $1 AND state_id = $2
          AND console.request_period(valid_from, valid_to, canceled) && console.request_period($3, NULL, NULL)`,
      [objectId, state.id, now],
    );
    if (held) continue;
    await restoreDisplaced(tx, objectId, state.id, null, now, actor, reason);
    restored++;
  }
  return restored;
}

/** A prohibition a block had displaced, in force again from now until its old end. */
async function restoreDisplaced(
  tx: SqlExecutor,
  objectId: number,
  stateId: number,
  originalTo: Date | null,
  now: Date,
  actor: Actor,
  reason: string,
): Promise<void> {
  const id = await insertRequest(tx, objectId, stateId, now, originalTo, now, reason.slice(0, 300));
  await tx.query("INSERT INTO console.request_meta (request_id, author, author_id) VALUES ($1, $2, $3)", [
    id,
    actor.username,
    actor.userId,
  ]);
}

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
    (tx, data, actor, now) => blockWork(tx, data, actor, now),
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
): Promise<{ message: Message; summary: Message; blockId: number; objectId: number; audited: Record<string, unknown> }> {
  const prohibitions = data.prohibitions?.length ? [...new Set(data.prohibitions)] : DEFAULT_PROHIBITIONS;
  const blocked = await checkRequest(tx, { ...data, state: "serverBlocked", reason: data.reason }, now, { viaBlock: true });
  const { object, from, to } = blocked;
  const states = await tx.query<{ id: number; name: string; applies: boolean; manual: boolean }>(
    `SELECT s.id, s.name, s.manual, o.type = ANY (s.types) AS applies FROM enum_object_states s, object_registry o
      WHERE o.id = $1 AND s.name = ANY ($2::text[])`,
    [object.id, prohibitions],
  );
  for (const name of prohibitions) {
    const state = states.find((s) => s.name === name);
    if (!state?.manual || !isProhibition(name))
      throw new InputError(msg("block.notProhibition", { state: name.slice(0, 50) }), { prohibitions: [msg("field.unknownProhibition")] });
    if (!state.applies)
      throw new InputError(msg("request.notForType", { state: name, type: object.type }), { prohibitions: [msg("field.notForType")] });
  }

  const [{ id: blockId }] = await tx.query<{ id: number }>(
    "INSERT INTO console.blocks (object_id, blocked_request_id, created_by, created_at, made_by) VALUES ($1, $2, $3, $4, $5) RETURNING id",
    [object.id, await insertRequest(tx, object.id, blocked.state.id, from, to, now, data.reason), actor.username, now, madeBy],
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
    ids.push(await insertRequest(tx, object.id, state.id, from, to, now, data.reason));
  }
  const blockRequests = [
    (await tx.query<{ id: number }>("SELECT blocked_request_id AS id FROM console.blocks WHERE id = $1", [blockId]))[0].id,
    ...ids,
  ];
  for (const [i, requestId] of blockRequests.entries())
    await tx.query(
      "INSERT INTO console.request_meta (request_id, author, author_id, block_id, idempotency_key, batch_id) VALUES ($1, $2, $3, $4, $5, $6)",
      [requestId, actor.username, actor.userId, blockId, i === 0 ? (data.idempotencyKey ?? null) : null, batchId],
    );
  await materialise(tx, object.id);
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
    audited: { blockId, from, to, prohibitions: states.map((s) => s.name), reason: data.reason, ...(batchId ? { batchId } : {}) },
  };
}

/** A block with its period and prohibitions, locked for a change; refused when there is none. */
async function lockedBlock(tx: SqlExecutor, blockId: number) {
  const [block] = await tx.query<{
    id: number;
    object_id: number;
    name: string;
    unblocked_at: Date | null;
    made_by: "console" | "fred";
    valid_from: Date;
    valid_to: Date | null;
    /** When it ends or ended: the end, or a cancellation (FRED's, say) before it. */
    ends: Date | null;
    prohibitions: string[];
  }>(
    `SELECT b.id, b.object_id, o.name, b.unblocked_at, b.made_by, r.valid_from, r.valid_to, least(r.canceled, r.valid_to) AS ends,
            ARRAY(SELECT s.name FROM console.request_meta m JOIN object_state_request x ON x.id = m.request_id
                    JOIN enum_object_states s ON s.id = x.state_id WHERE m.block_id = b.id AND x.id <> b.blocked_request_id) AS prohibitions
       FROM console.blocks b JOIN object_registry o ON o.id = b.object_id JOIN object_state_request r ON r.id = b.blocked_request_id
      WHERE b.id = $1 FOR UPDATE OF b`,
    [blockId],
  );
  if (!block) throw new InputError(msg("block.noBlock", { id: String(blockId) }), { blockId: [msg("input.unknown", { what: "block" })] });
  return block;
}

/**
 * Lifts a block: its requests end now (or, not begun, never take effect), and the prohibitions it
 * cut are restored as they were before it began.
 */
export function unblockObject(input: unknown): Promise<{ message: Message }> {
  return requestChange("block.unblock", unblockSchema, input, lockBlock, async (tx, data, actor, now) => {
    const block = await lockedBlock(tx, await blockIdOf(tx, data));
    if (block.unblocked_at) throw new InputError(msg("block.alreadyLifted", { id: String(block.id), at: block.unblocked_at }));
    if (block.ends && block.ends <= now) throw new InputError(msg("block.endedNothingToLift", { id: String(block.id), at: block.ends }));
    // FRED's block: what was in force before it comes back, read while it still holds.
    const again = block.made_by === "fred" ? await restoreStates(tx, block.object_id, now) : [];
    await endBlock(tx, block.id, now, actor.username);
    await tx.query(
      `UPDATE object_state_request_reason rr SET reason_cancellation = $2 FROM console.request_meta m
        WHERE m.request_id = rr.object_state_request_id AND m.block_id = $1`,
      [block.id, data.reason],
    );
    await tx.query("UPDATE console.request_meta SET canceled_by = $2, canceled_by_id = $3 WHERE block_id = $1", [
      block.id,
      actor.username,
      actor.userId,
    ]);
    const begun = block.valid_from <= now;
    const displaced = await tx.query<{ request_id: number; state_id: number; original_valid_to: Date | null; reason: string | null }>(
      `SELECT d.request_id, r.state_id, d.original_valid_to, rr.reason_creation AS reason
         FROM console.block_displaced d JOIN object_state_request r ON r.id = d.request_id
         LEFT JOIN object_state_request_reason rr ON rr.object_state_request_id = r.id WHERE d.block_id = $1`,
      [block.id],
    );
    let restored = 0;
    for (const d of displaced) {
      if (d.original_valid_to && d.original_valid_to <= now) continue;
      if (!begun) {
        // The block never began: the request simply keeps its old end.
        await tx.query("UPDATE object_state_request SET valid_to = $2 WHERE id = $1", [d.request_id, d.original_valid_to]);
      } else {
        await restoreDisplaced(
          tx,
          block.object_id,
          d.state_id,
          d.original_valid_to,
          now,
          actor,
          `restored after block ${block.id}: ${d.reason ?? "no reason recorded"}`,
        );
      }
      restored++;
    }
    restored += await restoreAsFred(tx, block.object_id, again, now, actor, `restored after block ${block.id}: in force before it`);
    await materialise(tx, block.object_id);
    return {
      message: msg("block.lifted", { id: String(block.id), object: block.name, restored }),
      objectId: block.object_id,
      audited: {
        blockId: block.id,
        ...(block.made_by === "fred"
          ? { madeBy: "fred", blockRequestId: data.blockRequestId, restoredStates: again.map((s) => s.name) }
          : {}),
        restored,
        begun,
        reason: data.reason,
      },
    };
  });
}

/**
 * The object's block that is in force or scheduled, if any, whoever made it (console.object_blocks):
 * `id` is null and `by` is null for one FRED made (`requestId` names it).
 */
export async function currentBlock(tx: SqlExecutor, objectId: number) {
  const [block] = await tx.query<{
    block_id: number | null;
    request_id: number;
    from: Date;
    to: Date | null;
    created_by: string | null;
    reason: string | null;
    prohibitions: string[];
  }>(
    `SELECT b.block_id, b.request_id, b.valid_from AS from, upper(b.period) AS to, b.created_by, b.reason, b.prohibitions
       FROM console.object_blocks b
      WHERE b.object_id = $1 AND b.unblocked_at IS NULL AND NOT isempty(b.period)
        AND (upper(b.period) IS NULL OR upper(b.period) > (now() AT TIME ZONE 'UTC'))
      ORDER BY b.valid_from LIMIT 1`,
    [objectId],
  );
  return block
    ? {
        id: block.block_id,
        requestId: block.request_id,
        from: block.from.toISOString(),
        to: block.to?.toISOString() ?? null,
        by: block.block_id === null ? null : block.created_by,
        reason: block.reason,
        prohibitions: block.prohibitions,
      }
    : null;
}

export const changeBlockSchema = z.object({
  ...blockRef,
  from: z.string().trim().optional().default(""),
  to: z.string().trim().optional().default(""),
  prohibitions: z.array(z.string().trim().max(50)).max(10).optional(),
  reason: reasonSchema,
});

/**
 * Changes a block's prohibitions or period: the block is replaced by a new one in the same
 * transaction. One that has begun keeps holding without a gap (its states' periods join) and only
 * its end and prohibitions change; prohibitions it had displaced stay displaced while still
 * chosen and come back when dropped. One not yet begun may also move its start.
 */
export function changeBlock(input: unknown): Promise<{ message: Message; blockId: number }> {
  return requestChange("block.change", changeBlockSchema, input, lockBlock, async (tx, data, actor, now) => {
    const block = await lockedBlock(tx, await blockIdOf(tx, data));
    if (block.unblocked_at) throw new InputError(msg("block.liftedBlockAgain", { id: String(block.id), at: block.unblocked_at }));
    if (block.ends && block.ends <= now) throw new InputError(msg("block.endedBlockAgain", { id: String(block.id), at: block.ends }));
    const begun = block.valid_from <= now;
    if (begun && data.from)
      throw new InputError(msg("block.begun", { id: String(block.id), at: block.valid_from }), { from: [msg("field.begun")] });
    const prohibitions = data.prohibitions?.length ? [...new Set(data.prohibitions)] : block.prohibitions;

    // FRED's block (or one changed from it): what was in force before it, read while it holds.
    const again = begun && block.made_by === "fred" ? await restoreStates(tx, block.object_id, now) : [];
    // The old block ends now (not begun: never takes effect).
    await endBlock(tx, block.id, now, `${actor.username} (changed)`);
    const displaced = await tx.query<{ request_id: number; state_id: number; state: string; original_valid_to: Date | null }>(
      `SELECT d.request_id, r.state_id, s.name AS state, d.original_valid_to FROM console.block_displaced d
         JOIN object_state_request r ON r.id = d.request_id JOIN enum_object_states s ON s.id = r.state_id WHERE d.block_id = $1`,
      [block.id],
    );
    // Not begun: displaced requests get their old ends back; the new block displaces them again.
    if (!begun)
      for (const d of displaced)
        await tx.query("UPDATE object_state_request SET valid_to = $2 WHERE id = $1", [d.request_id, d.original_valid_to]);

    const result = await blockWork(
      tx,
      {
        objectId: block.object_id,
        from: begun ? "" : data.from || block.valid_from.toISOString(),
        to: data.to,
        prohibitions,
        reason: data.reason,
      },
      actor,
      now,
      null,
      // Its serverBlocked goes on without a gap, so FRED's restore still finds what was before the first.
      block.made_by,
    );
    // What was in force before a FRED block and is no longer prohibited comes back now.
    await restoreAsFred(
      tx,
      block.object_id,
      again.filter((s) => !prohibitions.includes(s.name)),
      now,
      actor,
      `restored when block ${block.id} changed: in force before it`,
    );
    if (begun)
      for (const d of displaced) {
        if (prohibitions.includes(d.state)) {
          // Still prohibited by the block: still displaced, to come back when it is lifted.
          await tx.query("INSERT INTO console.block_displaced (block_id, request_id, original_valid_to) VALUES ($1, $2, $3)", [
            result.blockId,
            d.request_id,
            d.original_valid_to,
          ]);
        } else if (!d.original_valid_to || d.original_valid_to > now) {
          await restoreDisplaced(
            tx,
            block.object_id,
            d.state_id,
            d.original_valid_to,
            now,
            actor,
            `restored when block ${block.id} changed`,
          );
        }
      }
    await materialise(tx, block.object_id);
    return {
      message: msg("block.changed", { id: String(block.id), change: result.message }),
      blockId: result.blockId,
      objectId: block.object_id,
      audited: {
        replaced: block.id,
        ...(block.made_by === "fred" ? { madeBy: "fred", blockRequestId: data.blockRequestId } : {}),
        ...result.audited,
      },
    };
  });
}
