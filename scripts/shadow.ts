// `npm run db:shadow [-- --days N] [--report-only]`: in shadow mode, compares the console's rules with
// the states FRED's engine recorded, now, and prints shadow's report (docs/fred.md
// "Running on an existing FRED database"): per run and per day the differences by cause, examples, and whether the registry
// is ready to hand over (N days, 7 by default, of runs without an unexplained difference). It runs as
// the running console's role (DATABASE_URL): a run only reads the registry and adds to the console's
// shadow tables. Exit status 0 when ready, 3 when not yet.
import { parseArgs } from "node:util";
import { readConfig } from "../lib/config";
import { openDatabase } from "../lib/db/client";
import { exitOnStartupError, StartupError } from "../lib/db/errors";
import { registryMode } from "../lib/db/mode";
import { runShadow, shadowSummary } from "../lib/states/shadow";

try {
  const { values } = parseArgs({ options: { days: { type: "string", default: "7" }, "report-only": { type: "boolean", default: false } } });
  const days = Number(values.days);
  if (!Number.isInteger(days) || days < 1 || days > 365) throw new StartupError("--days must be a whole number of days from 1 to 365");
  const db = await openDatabase(readConfig());
  try {
    const mode = await registryMode(db.sql);
    if (!values["report-only"]) {
      if (mode.origin !== "adopted" || mode.mode !== "shadow")
        console.log(
          `${db.sql.location} is ${mode.origin === "adopted" ? `in mode ${mode.mode}` : "not an adopted FRED registry"}: no comparison is run (only in shadow: npm run db:adopt -- --mode shadow).`,
        );
      else {
        const started = Date.now();
        const run = await runShadow(db.sql);
        if (run)
          console.log(
            `Compared ${run.objects} object(s) at ${run.at.toISOString()} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${run.differences.length} difference(s), ${run.unexplained} unexplained (FRED's last regular run: ${run.fredLastRun?.toISOString() ?? "none recorded"}).`,
          );
      }
    }
    const summary = await shadowSummary(db.sql, { days });
    console.log(summary.text);
    if (!summary.ready) process.exitCode = 3;
  } finally {
    await db.close();
  }
} catch (error) {
  exitOnStartupError(error, "db:shadow");
}
