// A console process doing one piece of work, for the crash tests to SIGKILL in the middle of it:
// `bulk` applies CRASH_NAMES (one per line) as one bulk request; `tick` runs one scheduler tick
// at CRASH_AT. It prints STARTED when the work begins and DONE when it is over.
import { readConfig } from "../lib/config";
import { openDatabase } from "../lib/db/client";
import { bulkStateChange } from "../lib/requests/bulk";
import { startStateScheduler } from "../lib/states/scheduler";
import { actAs, signedInAs } from "./sessions";

const db = await openDatabase(readConfig());
const what = process.argv[2];
if (what === "bulk") {
  const operator = await signedInAs(db, "operator");
  console.log("STARTED");
  const result = await actAs(operator, () =>
    bulkStateChange({
      names: process.env.CRASH_NAMES,
      kind: "request",
      state: "serverRenewProhibited",
      from: process.env.CRASH_FROM,
      to: process.env.CRASH_TO,
      reason: "crash test",
      apply: true,
      batchId: process.env.CRASH_BATCH,
    }),
  );
  console.log(`DONE ${result.applied}`);
} else {
  const scheduler = startStateScheduler(
    async () => db.sql,
    86_400_000,
    console.log,
    () => new Date(process.env.CRASH_AT as string),
  );
  scheduler.stop();
  console.log("STARTED");
  const run = await scheduler.tick();
  console.log(`DONE ${run?.kind}`);
}
await db.close();
