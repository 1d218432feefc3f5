import "server-only";
import type * as z from "zod";
import { InputError } from "../actions/result";
import type { Actor } from "../auth/sessions";
import { type ChangeContext, caseOfItem, checkPolicy, reasonIn } from "../cases/context";
import type { SqlExecutor } from "../db/driver";
import { type Message, msg } from "../i18n/message";
import { blockIdOf, endBlock, lockBlock, lockedBlock, restoreAsFred, restoreDisplaced, restoreStates, unblockSchema } from "./block-rules";
import { materialise, requestChange } from "./command";

// Lifting a block: its requests end now, or never begin; the states it displaced come back.

/**
 * Lifts a block: its requests end now (or, not begun, never take effect), and the prohibitions it
 * cut are restored as they were before it began.
 */
export function unblockObject(input: unknown): Promise<{ message: Message }> {
  return requestChange("block.unblock", unblockSchema, input, lockBlock, (tx, data, actor, now) => unblockWork(tx, data, actor, now));
}

/** Lifts a block inside the caller's transaction (a form's, or an approval's with `context`); the object is locked. */
export async function unblockWork(
  tx: SqlExecutor,
  data: z.output<typeof unblockSchema>,
  actor: Actor,
  now: Date,
  context: ChangeContext = {},
) {
  const block = await lockedBlock(tx, await blockIdOf(tx, data));
  if (block.unblocked_at) throw new InputError(msg("block.alreadyLifted", { id: String(block.id), at: block.unblocked_at }));
  if (block.ends && block.ends <= now) throw new InputError(msg("block.endedNothingToLift", { id: String(block.id), at: block.ends }));
  // A block made in a case is lifted in it: the policy sees the case's kind, FRED's reason its reference.
  const inCase: ChangeContext = context.case === undefined ? { ...context, case: await caseOfItem(tx, "block", block.id) } : context;
  await checkPolicy(tx, { ...inCase, change: "lift" }, "serverBlocked", block.name);
  // FRED's block: what was in force before it comes back, read while it still holds.
  const again = block.made_by === "fred" ? await restoreStates(tx, block.object_id, now) : [];
  await endBlock(tx, block.id, now, actor.username);
  await tx.query(
    `UPDATE object_state_request_reason rr SET reason_cancellation = $2 FROM console.request_meta m
        WHERE m.request_id = rr.object_state_request_id AND m.block_id = $1`,
    [block.id, reasonIn(inCase, data.reason)],
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
  await materialise(tx, block.object_id, begun || again.length > 0);
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
    summary: msg("block.liftSummary", { id: String(block.id), object: block.name }),
    blockId: block.id,
  };
}
