import "server-only";
import type * as z from "zod";
import { auditedChange } from "../actions/change";
import type { Actor } from "../auth/sessions";
import type { SqlExecutor } from "../db/driver";
import type { Message } from "../i18n/message";
import { fredEngineWrites, fredStateUpdate } from "../states/fred-engine";

// How every request command runs, in this order, in one transaction (requestChange):
//   1. authorize the caller and parse the input (auditedChange, lib/actions/change.ts);
//   2. lock the object the change is about (LOCK_OBJECT), so writers of one object never deadlock;
//   3. date the change (changeInstant), after the lock;
//   4. the command's own work: its rules (./rules.ts) and its writes (create.ts, cancel.ts, block.ts, …);
//   5. still in its work, bring the object's history up to now (materialise) when the change does something now;
//   6. write the audit row (auditedChange), which exists exactly when the change does.

/**
 * Brings the object's history up to now in this transaction: a request in force takes hold at once.
 * "Now" is the change's instant (changeInstant, the transaction's state clock), which the running
 * console may run the engine at (console.state_engine_run_now); any other instant is the owner's.
 *
 * When FRED's engine writes the states (beside, shadow), FRED's own update_object_states(id) is
 * called instead, as libfred's PerformObjectStateRequest after blockDomainsId or fred-admin -u, and
 * only when the change does something now (`effective`: a request or block that starts, ends or is
 * canceled at this instant); one that starts or ends later is the scheduler's (lib/states/fred-schedule.ts).
 */
export async function materialise(tx: SqlExecutor, objectId: number, effective = true): Promise<void> {
  if (await fredEngineWrites(tx)) {
    if (effective) await fredStateUpdate(tx, [objectId]);
    return;
  }
  await tx.query("SELECT * FROM console.state_engine_run_now(false, $1)", [objectId]);
}

/**
 * The instant of this change, read after the object's lock and under the engine's shared lock, and
 * made the transaction's state clock, so the state triggers and the engine date the change alike
 * (console.state_change_clock: a scheduled run can no longer commit a cursor past it unseen).
 *
 * When FRED's engine writes the states, the change is dated as libfred dates it: the transaction's
 * start (FRED's update_object_states reads requests at CURRENT_TIMESTAMP, and a request dated later
 * would not be in force for it), to the millisecond below. A change whose object another
 * transaction changed after this one began is run again (console.fred_state_update).
 */
export async function changeInstant(tx: SqlExecutor): Promise<Date> {
  if (await fredEngineWrites(tx)) {
    const [{ now }] = await tx.query<{ now: Date }>("SELECT date_trunc('milliseconds', now()) AS now");
    return now;
  }
  const [{ now }] = await tx.query<{ now: Date }>("SELECT console.state_change_clock() AS now");
  return now;
}

export const isCode = (error: unknown, code: string) => (error as { code?: string } | null)?.code === code;

/** The SQL that takes the lock of the object a change is about (by the input's id). */
export const LOCK_OBJECT = {
  byId: "SELECT console.lock_objects(ARRAY[$1::int])",
  byRequest: "SELECT console.lock_objects(ARRAY(SELECT object_id FROM object_state_request WHERE id = $1))",
  byBlock: "SELECT console.lock_objects(ARRAY(SELECT object_id FROM console.blocks WHERE id = $1))",
};

/**
 * A request change (see auditedChange), with the object it touched recorded in the audit row.
 * Every writer takes its object's lock first (`lock`: the SQL and the id), so writers of one object
 * never deadlock, and only then reads the change's instant: a writer that waited for another one
 * must not date its change before the other's (a cancellation "before" the request it cancels left
 * a history row that ended where it began).
 */
export function requestChange<S extends z.ZodType, T extends { message: Message }>(
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
    await tx.run(sql, [id]);
    const now = await changeInstant(tx);
    const result = await work(tx, data, actor, now);
    return { result, audit: { objectIds: [result.objectId], input: result.audited } };
  });
}
