import "server-only";
import { InputError } from "../actions/result";
import { readConfig } from "../config";
import { wallTime } from "../format/instant";
import { type Message, msg } from "../i18n/message";
import { parseInstant } from "../input/values";
import { CHANGED_MARK } from "../objects/block-history";
import { blockWork } from "./block";
import { blockChanges, changesNothing } from "./block-change";
import {
  blockIdOf,
  changeBlockSchema,
  endBlock,
  lockBlock,
  lockedBlock,
  restoreAsFred,
  restoreDisplaced,
  restoreStates,
} from "./block-rules";
import { materialise, requestChange } from "./command";

// Changing a block: its end, a start still ahead, its prohibitions. What the change does not name
// stays as it was.

/**
 * Whether `given` keeps a block's start or end `current` (null: none): not given; "" for none; the
 * same instant; or the wall time, to the minute, the change form shows for it (what a person leaves
 * as the form filled it in).
 */
function keeps(given: string | undefined, current: Date | null, zone: string): boolean {
  if (given === undefined) return true;
  if (given === "") return current === null;
  if (!current) return false;
  const parsed = parseInstant(given, zone);
  return parsed !== undefined && (parsed.getTime() === current.getTime() || given === wallTime(current.getTime(), zone).slice(0, 16));
}

/**
 * Changes a block's prohibitions or period: the block is replaced by a new one in the same
 * transaction. One that has begun keeps holding without a gap (its states' periods join) and only
 * its end and prohibitions change; prohibitions it had displaced stay displaced while still
 * chosen and come back when dropped. One not yet begun may also move its start. What the change
 * does not name is kept: no end given keeps the end ("" removes it), no start the start, no
 * prohibition the prohibitions. A change that changes nothing is refused.
 */
export function changeBlock(input: unknown): Promise<{ message: Message; blockId: number }> {
  return requestChange("block.change", changeBlockSchema, input, lockBlock, async (tx, data, actor, now) => {
    const block = await lockedBlock(tx, await blockIdOf(tx, data));
    // A block made in a case stays in it (issue 42): the new block carries the case and its reference.
    const [inCase] = await tx.query<{ id: number; kind: string; reference: string }>(
      "SELECT c.id, c.kind, c.reference FROM console.blocks b JOIN console.cases c ON c.id = b.case_id WHERE b.id = $1",
      [block.id],
    );
    if (block.unblocked_at) throw new InputError(msg("block.liftedBlockAgain", { id: String(block.id), at: block.unblocked_at }));
    if (block.ends && block.ends <= now) throw new InputError(msg("block.endedBlockAgain", { id: String(block.id), at: block.ends }));
    const begun = block.valid_from <= now;
    if (begun && data.from)
      throw new InputError(msg("block.begun", { id: String(block.id), at: block.valid_from }), { from: [msg("field.begun")] });
    const prohibitions = data.prohibitions?.length ? [...new Set(data.prohibitions)] : block.prohibitions;
    const zone = readConfig().registryTimeZone;
    const keepsEnd = keeps(data.to, block.valid_to, zone);
    const keepsStart = begun || !data.from || keeps(data.from, block.valid_from, zone);
    const before = { from: block.valid_from.toISOString(), to: block.valid_to?.toISOString() ?? null, prohibitions: block.prohibitions };
    const changes = blockChanges(before, {
      from: keepsStart ? before.from : data.from,
      to: keepsEnd ? before.to : data.to || null,
      prohibitions,
    });
    if (changesNothing(changes))
      throw new InputError(msg("block.nothingToChange", { id: String(block.id) }), { to: [msg("field.nothingToChange")] });

    // FRED's block (or one changed from it): what was in force before it, read while it holds.
    const again = begun && block.made_by === "fred" ? await restoreStates(tx, block.object_id, now) : [];
    // The old block ends now (not begun: never takes effect).
    await endBlock(tx, block.id, now, `${actor.username}${CHANGED_MARK}`);
    // Who canceled them: the person who changed the block (at the change's instant, endBlock's).
    await tx.query("UPDATE console.request_meta SET canceled_by = $2, canceled_by_id = $3 WHERE block_id = $1 AND canceled_at = $4", [
      block.id,
      actor.username,
      actor.userId,
      now,
    ]);
    // Its requests' cancellation with the change's reason, as FRED's change of a block (its restore) stores it.
    await tx.query(
      `UPDATE object_state_request_reason rr SET reason_cancellation = $2 FROM console.request_meta m
        WHERE m.request_id = rr.object_state_request_id AND m.block_id = $1 AND rr.reason_cancellation IS NULL`,
      [block.id, data.reason],
    );
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
        from: begun ? "" : keepsStart ? before.from : data.from,
        to: keepsEnd ? (before.to ?? "") : (data.to ?? ""),
        prohibitions,
        reason: data.reason,
      },
      actor,
      now,
      null,
      // Its serverBlocked goes on without a gap, so FRED's restore still finds what was before the first.
      block.made_by,
      // A change of a block, for the approval policy (issue 42).
      { change: "change", case: inCase ?? null },
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
        before,
        changes,
        ...(block.made_by === "fred" ? { madeBy: "fred", blockRequestId: data.blockRequestId } : {}),
        ...result.audited,
      },
    };
  });
}
