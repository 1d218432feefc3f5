import type { SqlExecutor } from "../db/driver";
import { fredEngineRuns, registryMode } from "../db/mode";

// The console's part when FRED's own engine writes object_state (modes beside and shadow, issue 40;
// docs/fred.md): FRED's update_object_states(id), called as libfred
// calls it, through the one function the running console may execute for it
// (console.fred_state_update, migration 20261203020000_fred_engine_beside), and the change feed read
// from object_state without a trigger (console.fred_feed_poll).

/** Whether FRED's own engine writes this registry's states (beside, shadow), read in `db`'s transaction. */
export async function fredEngineWrites(db: SqlExecutor): Promise<boolean> {
  return fredEngineRuns(await registryMode(db));
}

/**
 * FRED's update_object_states(id) for each object, in id order, with the objects locked, in the
 * caller's transaction; returns how many objects it ran for. Refused in charge mode; a transaction
 * that began before another one changed the objects' states is a serialization victim (run again).
 */
export async function fredStateUpdate(db: SqlExecutor, objectIds: number[]): Promise<number> {
  if (objectIds.length === 0) return 0;
  const [{ n }] = await db.query<{ n: number }>("SELECT console.fred_state_update($1::int[]) AS n", [objectIds]);
  return n;
}

/**
 * Copies into the object list's keys (console.object_key) the objects FRED created since the last
 * pass, and hourly its deletions and anything missed (no trigger on FRED's tables beside and in
 * shadow); returns how many rows it changed.
 */
export async function catchUpObjectKeys(db: SqlExecutor): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>("SELECT console.object_keys_catch_up() AS n");
  return n;
}

/** Appends to the change feed what object_state gained or closed since the last poll; returns how many changes. */
export async function pollFredFeed(db: SqlExecutor): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>("SELECT console.fred_feed_poll() AS n");
  return n;
}
