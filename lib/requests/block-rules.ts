import "server-only";
import * as z from "zod";
import { idSchema } from "../actions/ids";
import { InputError } from "../actions/result";
import type { Actor } from "../auth/sessions";
import type { SqlExecutor } from "../db/driver";
import { msg } from "../i18n/message";
import { LOCK_OBJECT, materialise } from "./command";
import { keySchema, reasonSchema } from "./rules";

// What the block commands share (block.ts, unblock.ts, change-block.ts, and bulk): the schemas,
// the prohibitions, the block's requests and how a block is found, locked, ended and undone.

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
export const lockBlock = (ref: { blockId?: number; blockRequestId?: number }): [string, number] =>
  ref.blockId !== undefined ? [LOCK_OBJECT.byBlock, ref.blockId] : [LOCK_OBJECT.byRequest, ref.blockRequestId ?? 0];

/** Who made a block or request the console did not make (FRED's programs, SQL). */
const OUTSIDE = "outside the console";

export async function insertRequest(
  tx: SqlExecutor,
  objectId: number,
  stateId: number,
  from: Date,
  to: Date | null,
  now: Date,
  reason: string,
) {
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
export async function endBlock(tx: SqlExecutor, blockId: number, now: Date, by: string): Promise<void> {
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
export async function blockIdOf(tx: SqlExecutor, ref: { blockId?: number; blockRequestId?: number }): Promise<number> {
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
export async function restoreStates(tx: SqlExecutor, objectId: number, now: Date) {
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
export async function restoreAsFred(
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
export async function restoreDisplaced(
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

export async function lockedBlock(tx: SqlExecutor, blockId: number) {
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
  /** The new end: not given keeps the block's, "" removes it. */
  to: z.string().trim().optional(),
  prohibitions: z.array(z.string().trim().max(50)).max(10).optional(),
  reason: reasonSchema,
});
