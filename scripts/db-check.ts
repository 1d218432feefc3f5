// `npm run db:check`: checks the database's promises (lib/check.ts) — no overlapping requests,
// sound state history that agrees with the rules up to the engine's cursor, an intact audit chain —
// and prints each with its violations, then what an adopted registry inherited (kept, not violations). Exit status 0 when all hold, 2 when any is violated.
import { auditKeyRing } from "../lib/audit/keys";
import { checkDatabase } from "../lib/check";
import { readConfig } from "../lib/config";
import { openDatabase } from "../lib/db/client";
import { exitOnStartupError } from "../lib/db/errors";

try {
  const config = readConfig();
  // The audit key (which the audit chain's check needs) before the database: a missing one is said at once.
  auditKeyRing(config, { create: false });
  const db = await openDatabase(config);
  try {
    const started = Date.now();
    const result = await checkDatabase(db.sql, undefined, { auditAnchor: config });
    console.log(`Checked ${db.sql.location} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    for (const note of result.notes) console.log(note);
    for (const check of result.checks) {
      const mark = check.violations === 0 ? "ok  " : "FAIL";
      console.log(
        `${mark} ${check.name}: ${check.promise}${check.violations ? ` — ${check.violations.toLocaleString("en")} violation(s)` : ""}`,
      );
      for (const example of check.examples) console.log(`       ${example}`);
    }
    if (result.inherited.length > 0) {
      console.log(
        `Inherited: ${result.inherited.length.toLocaleString("en")} thing(s) the registry held before the console adopted it, which the ` +
          "console's rules would refuse today or that FRED's programs refuse to go past. They are kept as they are (the rules apply to new " +
          "requests) and are not violations:",
      );
      for (const a of result.inherited) console.log(`  inherited ${a.kind}: ${a.object} (object ${a.objectId}): ${a.detail}`);
    }
    if (!result.ok) {
      console.error("The database does not keep all its promises (see FAIL above).");
      process.exitCode = 2;
    } else console.log("All checks hold.");
  } finally {
    await db.close();
  }
} catch (error) {
  exitOnStartupError(error, "db:check");
}
