// `npm run states:update [-- --object NAME [--type TYPE]] [--full] [--at ISO-INSTANT]`: brings state
// history up to date once, for deployments that run the engine from cron (set
// STATE_ENGINE_INTERVAL_SECONDS=0 on the console then). Without options: the objects that are due.
import { parseArgs } from "node:util";
import { ownerTarget, readConfig } from "../lib/config";
import { openDatabase } from "../lib/db/client";
import { exitOnStartupError, StartupError } from "../lib/db/errors";
import { migrate } from "../lib/db/migrations";
import { runStateEngine } from "../lib/states/engine";
import { findObjectIdByName } from "../lib/states/objects";

try {
  const { values } = parseArgs({
    options: { object: { type: "string" }, type: { type: "string" }, full: { type: "boolean" }, at: { type: "string" } },
    strict: true,
  });
  if (values.full && values.object) throw new StartupError("--full and --object exclude each other: --full recomputes every object");
  const at = values.at === undefined ? undefined : new Date(values.at);
  if (at && Number.isNaN(at.getTime()))
    throw new StartupError(`--at must be an ISO instant such as 2026-12-01T00:00:00+01:00, not “${values.at}”`);

  // Only the owner role runs the engine at an instant of its choosing; without --at the running
  // console's role (DATABASE_URL) is enough.
  const config = readConfig();
  const db = await openDatabase(at ? ownerTarget(config) : config);
  try {
    await migrate(db.direct);
    const objectId = values.object ? await findObjectIdByName(db.sql, values.object, values.type) : undefined;
    const run = await runStateEngine(db.sql, { at, full: values.full, objectId }).catch((error: unknown) => {
      if (at && (error as { code?: string }).code === "42501")
        throw new StartupError(
          `--at needs the owner role, which alone may run the state engine at an instant of its choosing: set DATABASE_OWNER_URL (${(error as Error).message})`,
        );
      throw error;
    });
    switch (run.kind) {
      case "busy":
        console.log("Another run of the state engine is in progress; nothing was done.");
        break;
      case "behind":
        console.log(
          `Nothing to do: history is already final up to ${run.cursorBefore?.toISOString()}, after ${at?.toISOString() ?? "now"}.`,
        );
        break;
      default:
        console.log(
          `State engine (${run.kind}): ${run.objects} object(s) looked at, ${run.opened} state(s) opened, ${run.closed} closed, ` +
            `in ${run.ms.toFixed(0)} ms; history is exact up to ${(run.kind === "object" ? at : run.cursorAfter)?.toISOString() ?? "now"}.`,
        );
    }
  } finally {
    await db.close();
  }
} catch (error) {
  if ((error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    exitOnStartupError(new StartupError((error as Error).message), "states:update failed");
  }
  exitOnStartupError(error, "states:update failed");
}
