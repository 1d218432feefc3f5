import { moveMode } from "../lib/db/adoption-mode";
import type { DirectDriver } from "../lib/db/driver";

/**
 * Puts an adopted FRED registry that the demo loader filled (in charge: it runs the console's
 * engine) into mode beside, by the real move (`npm run db:adopt -- --mode beside`): FRED's own
 * update_object_states(integer) and triggers back, the console's triggers on FRED's tables gone,
 * the change feed's poller and the scheduler's cursor started at that instant. One transaction.
 */
export async function putBeside(owner: DirectDriver): Promise<void> {
  await moveMode(owner, "beside");
}
