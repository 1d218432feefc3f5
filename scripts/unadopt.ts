// `npm run db:unadopt -- --yes | --dry-run`: removes the console from an adopted FRED registry —
// FRED's update_object_states and state triggers back as they were, the console's triggers,
// indexes and schema gone — and keeps FRED's tables and rows, the state history included.
import { parseArgs } from "node:util";
import { ownerTarget, readConfig } from "../lib/config";
import { unadopt } from "../lib/db/adopt";
import { openDatabase } from "../lib/db/client";
import { exitOnStartupError, StartupError } from "../lib/db/errors";

try {
  const { values } = parseArgs({
    options: { "dry-run": { type: "boolean", default: false }, yes: { type: "boolean", default: false } },
    strict: true,
  });
  const dryRun = values["dry-run"] ?? false;
  if (!dryRun && !values.yes) {
    throw new StartupError(
      "db:unadopt removes the console's users, audit log and state feed with schema console; run it with --dry-run to see what, and with --yes to do it",
    );
  }
  const db = await openDatabase(ownerTarget(readConfig()));
  try {
    const result = await unadopt(db.direct, { dryRun });
    const verb = dryRun ? "Would" : "Did";
    console.log(`${verb} restore: ${result.restored.join(", ") || "nothing"}`);
    console.log(`${verb} enable again: ${result.enabled.join(", ") || "nothing"}`);
    console.log(`${verb} drop:\n  ${result.dropped.join("\n  ")}`);
    console.log(
      dryRun ? "Dry run: nothing was changed." : `The console is removed from ${db.sql.location}; FRED's tables and rows are as they were.`,
    );
  } finally {
    await db.close();
  }
} catch (error) {
  if ((error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    exitOnStartupError(new StartupError((error as Error).message), "db:unadopt failed");
  }
  exitOnStartupError(error, "db:unadopt failed");
}
