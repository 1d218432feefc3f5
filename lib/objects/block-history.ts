import type { SqlExecutor } from "../db/driver";

// The history of an object's blocks: each block made, changed and lifted, with who did it, when and
// why. A change replaces a block by a new one in one transaction (lib/requests/change-block.ts): the
// old one is ended at the change's instant by "<person> (changed)", the new one made at that instant
// by that person, with the change's reason as its requests' reason.

export interface BlockEvent {
  kind: "blocked" | "changed" | "lifted";
  /** The console's block this event made or lifted. */
  blockId: number;
  at: string;
  /** Who did it ("outside the console" for a block FRED made that the console took over). */
  by: string | null;
  reason: string | null;
  /** The block as made or changed (for "lifted": the block lifted). */
  from: string;
  to: string | null;
  prohibitions: string[];
}

/** One console.blocks row as blockHistory reads it. */
export interface BlockRow {
  id: number;
  created_at: Date;
  created_by: string;
  unblocked_at: Date | null;
  unblocked_by: string | null;
  valid_from: Date;
  valid_to: Date | null;
  reason: string | null;
  cancel_reason: string | null;
  prohibitions: string[];
  /** Whether it replaced a block (one ended at its making by "<its maker> (changed)"). */
  replaces: boolean;
}

/** How a change marks the block it replaced as ended (console.blocks.unblocked_by). */
export const CHANGED_MARK = " (changed)";

/**
 * The events of `rows`, oldest first (at one instant, a block's lifting before another's making):
 * its making or change, and its lifting unless a change ended it (the change is the next block's event).
 */
export function blockEvents(rows: BlockRow[]): BlockEvent[] {
  const events: BlockEvent[] = [];
  for (const r of rows) {
    const shape = {
      blockId: r.id,
      from: r.valid_from.toISOString(),
      to: r.valid_to?.toISOString() ?? null,
      prohibitions: r.prohibitions,
    };
    events.push({ kind: r.replaces ? "changed" : "blocked", at: r.created_at.toISOString(), by: r.created_by, reason: r.reason, ...shape });
    if (r.unblocked_at && !r.unblocked_by?.endsWith(CHANGED_MARK))
      events.push({ kind: "lifted", at: r.unblocked_at.toISOString(), by: r.unblocked_by, reason: r.cancel_reason, ...shape });
  }
  const order = { lifted: 0, blocked: 1, changed: 1 };
  return events.sort((a, b) => a.at.localeCompare(b.at) || order[a.kind] - order[b.kind] || a.blockId - b.blockId);
}

/** How many of an object's newest blocks its page tells the history of. */
export const BLOCK_HISTORY_ROWS = 50;

/** The history of the object's newest blocks the console keeps (BLOCK_HISTORY_ROWS of them), oldest event first. */
export async function blockHistory(sql: SqlExecutor, objectId: number): Promise<{ events: BlockEvent[]; blocks: number }> {
  const rows = await sql.query<BlockRow & { total: number }>(
    `SELECT b.id, b.created_at, b.created_by, b.unblocked_at, b.unblocked_by, r.valid_from, r.valid_to,
            rr.reason_creation AS reason, rr.reason_cancellation AS cancel_reason,
            ARRAY(SELECT s.name FROM console.request_meta m JOIN object_state_request x ON x.id = m.request_id
                    JOIN enum_object_states s ON s.id = x.state_id
                   WHERE m.block_id = b.id AND x.id <> b.blocked_request_id ORDER BY s.id) AS prohibitions,
            EXISTS (SELECT FROM console.blocks p WHERE p.object_id = b.object_id AND p.id <> b.id
                       AND p.unblocked_at = b.created_at AND p.unblocked_by = b.created_by || $2) AS replaces,
            count(*) OVER ()::int AS total
       FROM console.blocks b JOIN object_state_request r ON r.id = b.blocked_request_id
       LEFT JOIN object_state_request_reason rr ON rr.object_state_request_id = r.id
      WHERE b.object_id = $1 ORDER BY b.id DESC LIMIT ${BLOCK_HISTORY_ROWS}`,
    [objectId, CHANGED_MARK],
  );
  return { events: blockEvents(rows), blocks: rows[0]?.total ?? 0 };
}
