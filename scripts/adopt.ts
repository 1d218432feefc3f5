// `npm run db:adopt [-- --mode beside|shadow|charge] [--force] [--dry-run]`: adopts the FRED registry
// in DATABASE_OWNER_URL, else DATABASE_URL (or migrates a console database), or moves an adopted one
// to another mode (docs/fred.md). A new adoption is beside FRED
// unless --mode says otherwise; a registry adopted before keeps its mode until --mode moves it, each
// move one transaction. charge is reached from shadow, or with --force. With --dry-run it does all of
// that inside a transaction that is rolled back and prints exactly what it would change.
import { parseArgs } from "node:util";
import { ownerTarget, readConfig } from "../lib/config";
import { type AdoptionPlan, planAdoption } from "../lib/db/adopt";
import { isAdoptionMode, type ModeMove, moveMode } from "../lib/db/adoption-mode";
import { openDatabase } from "../lib/db/client";
import { exitOnStartupError, StartupError } from "../lib/db/errors";
import { migrate } from "../lib/db/migrations";
import type { AdoptionMode } from "../lib/db/mode";

function list(title: string, items: string[]): void {
  if (items.length) console.log(`${title} (${items.length}):\n  ${items.join("\n  ")}`);
}

function print(plan: AdoptionPlan, dryRun: boolean): void {
  const verb = dryRun ? "would" : "did";
  console.log(`${plan.database}: ${plan.found}.${plan.mode ? ` Adopted in mode ${plan.mode}.` : ""}`);
  if (plan.created.length + plan.replaced.length + plan.disabled.length === 0) {
    console.log("Nothing to do: the console's objects are all there.");
  }
  list(`The console ${verb} create`, plan.created);
  list(`It ${verb} replace, keeping the signature and the original for db:unadopt`, plan.replaced);
  list(`It ${verb} disable FRED's triggers that write object_state (its console_* triggers do their work)`, plan.disabled);
  list(
    `It ${verb} grant the running console's role console_app on FRED's tables (FRED's own roles keep exactly their rights)`,
    plan.granted,
  );
  if (plan.anomalies.length) {
    console.log(
      `Existing data the console's rules do not accept or FRED's programs refuse to go past (${plan.anomalies.length}); kept as it is, shown on the object pages and by db:check:`,
    );
    for (const a of plan.anomalies) console.log(`  ${a.kind}: ${a.object} (object ${a.objectId}): ${a.detail}`);
  } else console.log("Nothing in the existing data conflicts with the console's rules.");
}

function printMove(move: ModeMove, dryRun: boolean): void {
  const verb = dryRun ? "would" : "did";
  if (move.from === move.to) console.log(`${move.database}: already in ${move.to}.`);
  else console.log(`${move.database}: ${move.from} → ${move.to}${dryRun ? " (dry run)" : ""}, in one transaction.`);
  if (move.charge) console.log(`Charge: ${move.charge}`);
  list(`It ${verb} add`, move.added);
  list(`It ${verb} drop`, move.dropped);
  list(`It ${verb} give FRED its own definition back`, move.restored);
  list(`It ${verb} replace by the console's (FRED's original kept for db:unadopt)`, move.replaced);
  list(`It ${verb} enable FRED's triggers`, move.enabled);
  list(`It ${verb} disable FRED's triggers (the console's console_* triggers do their work)`, move.disabled);
  list("The console's indexes that stay on FRED's tables (its lists and pages read through them)", move.kept);
  if (move.engine)
    console.log(
      `The console's engine ${verb} compare every object with its rules at this instant: ${move.engine.objects} object(s), ` +
        `${move.engine.opened} state row(s) opened, ${move.engine.closed} closed.`,
    );
  if (
    move.added.length + move.dropped.length + move.restored.length + move.replaced.length + move.enabled.length + move.disabled.length ===
    0
  )
    console.log("Nothing on FRED's tables changes.");
}

try {
  const { values } = parseArgs({
    options: {
      "dry-run": { type: "boolean", default: false },
      mode: { type: "string" },
      force: { type: "boolean", default: false },
    },
    strict: true,
  });
  const dryRun = values["dry-run"] ?? false;
  const force = values.force ?? false;
  let mode: AdoptionMode | undefined;
  if (values.mode !== undefined) {
    if (!isAdoptionMode(values.mode)) throw new StartupError(`--mode must be beside, shadow or charge, not “${values.mode}”`);
    mode = values.mode;
  }
  const db = await openDatabase(ownerTarget(readConfig()));
  try {
    const [{ tracked }] = await db.direct.query<{ tracked: boolean }>(
      "SELECT to_regclass('console.registry_origin') IS NOT NULL AS tracked",
    );
    const [origin] = tracked ? await db.direct.query<{ origin: string }>("SELECT origin FROM console.registry_origin") : [];
    const adopted = origin !== undefined;
    if (!adopted && mode === "charge" && !force) {
      throw new StartupError(
        "a new adoption is beside FRED or in shadow: charge is reached from shadow, or with --force (`npm run db:adopt -- --mode charge --force`). Nothing was changed.",
      );
    }
    const plan = await planAdoption(db.direct, undefined, { adoptAs: mode ?? "beside" });
    if (!adopted || plan.created.length + plan.replaced.length + plan.disabled.length > 0) print(plan, dryRun);
    if (!dryRun) {
      const started = Date.now();
      const result = await migrate(db.direct, undefined, { adoptAs: mode ?? "beside" });
      console.log(`Applied ${result.applied.length} migration(s) in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    }
    // A registry adopted before (or created by the console, which is refused): --mode moves it (after its pending migrations; a dry run shows the move from its mode now).
    if (adopted && mode) printMove(await moveMode(db.direct, mode, { force, dryRun }), dryRun);
    if (dryRun) console.log("Dry run: nothing was changed.");
  } finally {
    await db.close();
  }
} catch (error) {
  if ((error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    exitOnStartupError(new StartupError((error as Error).message), "db:adopt failed");
  }
  exitOnStartupError(error, "db:adopt failed");
}
