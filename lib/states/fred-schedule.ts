import type { SqlReader } from "../db/driver";
import { catchUpObjectKeys, fredStateUpdate, pollFredFeed } from "./fred-engine";

// The scheduler's work when FRED's engine writes the states (beside, shadow): manual states begin
// and end on time with FRED's own code. A request that starts, ends or is canceled later than the
// change that wrote it is handed to FRED's update_object_states(id) by the first pass after its
// instant; date-driven automatic states are left to FRED's regular procedure, as in FRED.

/**
 * How far back each pass looks again before its cursor: a request written by a transaction that
 * committed after a pass had moved past its start (FRED's function is idempotent: calling it again
 * for an object whose states are right changes nothing).
 */
const FRED_PASS_OVERLAP_MS = 5_000;

export interface FredPass {
  kind: "fred";
  /** Objects handed to FRED's update_object_states. */
  objects: number;
  /** Changes appended to the feed. */
  feed: number;
  /** Rows of the object list's keys copied from FRED's (new objects; hourly, deletions). */
  keys: number;
  cursorBefore: Date | null;
  cursorAfter: Date | null;
  /** Another process holds the cursor: nothing was done. */
  busy: boolean;
}

/**
 * One pass: the requests whose start (from its cursor, up to `at`), end (before `at`: FRED's view
 * holds a request in force at its valid_to) or cancellation passed since the last pass, their
 * objects given to FRED's function in one transaction, and the cursor moved to `at`. `at` is the
 * database's now() when left out, and never later (FRED's function reads requests at the
 * transaction's CURRENT_TIMESTAMP: a request due after it would be passed over). Then the feed is
 * polled, and the object list's keys caught up with FRED's object_registry, each in a transaction of its own.
 */
export async function fredSchedulePass(db: SqlReader, options: { at?: Date } = {}): Promise<FredPass> {
  const pass = await db.transaction(async (tx) => {
    const [cursor] = await tx.query<{ at: Date | null; since: Date; now: Date }>(
      `SELECT c.at, o.mode_since AS since, now() AS now FROM console.fred_request_cursor c, console.registry_origin o
        FOR UPDATE OF c SKIP LOCKED`,
    );
    if (!cursor) return { objects: 0, cursorBefore: null, cursorAfter: null, busy: true };
    const upTo = options.at && options.at < cursor.now ? options.at : cursor.now;
    const from = cursor.at ?? cursor.since;
    if (upTo <= from) return { objects: 0, cursorBefore: from, cursorAfter: from, busy: false };
    const lookFrom = new Date(from.getTime() - FRED_PASS_OVERLAP_MS);
    const due = await tx.query<{ object_id: number }>(
      `SELECT DISTINCT object_id FROM object_state_request
        WHERE (valid_from > ($1::timestamptz AT TIME ZONE 'UTC') AND valid_from <= ($2::timestamptz AT TIME ZONE 'UTC'))
           OR (valid_to >= ($1::timestamptz AT TIME ZONE 'UTC') AND valid_to < ($2::timestamptz AT TIME ZONE 'UTC'))
           OR (canceled > ($1::timestamptz AT TIME ZONE 'UTC') AND canceled <= ($2::timestamptz AT TIME ZONE 'UTC'))
        ORDER BY object_id`,
      [lookFrom, upTo],
    );
    const objects = await fredStateUpdate(
      tx,
      due.map((d) => d.object_id),
    );
    await tx.query("UPDATE console.fred_request_cursor SET at = $1, last_run_at = now(), last_objects = $2", [upTo, objects]);
    return { objects, cursorBefore: from, cursorAfter: upTo, busy: false };
  });
  const feed = await pollFredFeed(db);
  const keys = await catchUpObjectKeys(db);
  return { kind: "fred", feed, keys, ...pass };
}
