// `npm run db:adopt [-- --dry-run]`: adopts the FRED registry in DATABASE_OWNER_URL, else DATABASE_URL (or migrates a
// console database) and says what was created, which FRED functions were replaced and triggers
// disabled, and what in the existing data the console will not accept. With --dry-run it does all of
// that inside a transaction that is rolled back, so nothing changes.
import { parseArgs } from "node:util";
import { ownerTarget, readConfig } from "../lib/config";
import { type AdoptionPlan, planAdoption } from "../lib/db/adopt";
import { openDatabase } from "../lib/db/client";
import { exitOnStartupError, StartupError } from "../lib/db/errors";
import { migrate } from "../lib/db/migrations";

function print(plan: AdoptionPlan, dryRun: boolean): void {
  const verb = dryRun ? "would" : "did";
  console.log(`${plan.database}: ${plan.found}.`);
  if (plan.created.length + plan.replaced.length + plan.disabled.length === 0) {
    console.log("Nothing to do: the console's objects are all there.");
  }
  if (plan.created.length) console.log(`The console ${verb} create (${plan.created.length}):\n  ${plan.created.join("\n  ")}`);
  if (plan.replaced.length)
    console.log(`It ${verb} replace, keeping the signature and the original for db:unadopt:\n  ${plan.replaced.join("\n  ")}`);
  if (plan.disabled.length)
    console.log(
      `It ${verb} disable FRED's triggers that write object_state (its console_* triggers do their work):\n  ${plan.disabled.join("\n  ")}`,
    );
  if (plan.granted.length)
    console.log(
      `It ${verb} grant the running console's role console_app on FRED's tables (FRED's own roles keep exactly their rights):\n  ${plan.granted.join("\n  ")}`,
    );
  if (plan.anomalies.length) {
    console.log(
      `Existing data the console's rules do not accept or FRED's programs refuse to go past (${plan.anomalies.length}); kept as it is, shown on the object pages and by db:check:`,
    );
    for (const a of plan.anomalies) console.log(`  ${a.kind}: ${a.object} (object ${a.objectId}): ${a.detail}`);
  } else console.log("Nothing in the existing data conflicts with the console's rules.");
}

try {
  const { values } = parseArgs({ options: { "dry-run": { type: "boolean", default: false } }, strict: true });
  const db = await openDatabase(ownerTarget(readConfig()));
  try {
    const plan = await planAdoption(db.direct);
    print(plan, values["dry-run"] ?? false);
    if (!values["dry-run"]) {
      const started = Date.now();
      const result = await migrate(db.direct);
      console.log(`Applied ${result.applied.length} migration(s) in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    } else console.log("Dry run: nothing was changed.");
  } finally {
    await db.close();
  }
} catch (error) {
  if ((error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    exitOnStartupError(new StartupError((error as Error).message), "db:adopt failed");
  }
  exitOnStartupError(error, "db:adopt failed");
}
