// `npm run audit:verify [-- --anchor ID:MAC]`: verifies the audit log — its hash chain and, from the
// first keyed row on, every row's MAC recomputed with the audit key (AUDIT_KEYS, or the embedded
// console's key file) — and reports the first row that was changed, removed, inserted or
// re-chained. With --anchor, the row ID printed by an earlier run must still carry that MAC, which
// also shows rows cut off the end. Exit status 0 when the log is intact, 2 when it is not.
import { auditKeyRing } from "../lib/audit/keys";
import { parseAnchor, verifyAuditChain } from "../lib/audit/verify";
import { readConfig } from "../lib/config";
import { openDatabase } from "../lib/db/client";
import { exitOnStartupError, StartupError } from "../lib/db/errors";

try {
  const args = process.argv.slice(2);
  let anchor: { id: number; mac: string } | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--anchor") {
      anchor = parseAnchor(args[++i] ?? "") ?? undefined;
      if (!anchor) throw new StartupError("--anchor takes ID:MAC as an earlier run printed it (the MAC's first 16 hex digits or more)");
    } else throw new StartupError(`unknown argument ${args[i]}; usage: npm run audit:verify [-- --anchor ID:MAC]`);
  }
  const config = readConfig();
  // The keys before the database: a missing or malformed key is a configuration error, said at once.
  const keys = auditKeyRing(config, { create: false });
  const db = await openDatabase(config);
  try {
    const result = await verifyAuditChain(db.sql, { keys, anchor });
    if (result.ok) {
      const parts = [`${result.rows.toLocaleString("en")} rows`];
      if (result.keyed > 0) parts.push(`${result.keyed.toLocaleString("en")} with a MAC verified with the audit key`);
      if (result.unkeyed > 0) parts.push(`${result.unkeyed.toLocaleString("en")} written before keyed chaining (hash chain only)`);
      console.log(`Audit log intact: ${parts.join("; ")}.`);
      if (anchor) console.log(`Anchor row ${anchor.id} is in the log with its MAC.`);
      if (result.newest?.mac) {
        console.log(
          `Newest row ${result.newest.id} (${result.newest.at}); anchor: ${result.newest.id}:${result.newest.mac.slice(0, 32)} ` +
            "(keep it outside the database and pass it with --anchor later: that also shows rows cut off the end).",
        );
      }
    } else {
      console.error(`Audit log NOT intact: row ${result.problem?.id}: ${result.problem?.reason} (${result.rows} rows verified before it).`);
      process.exitCode = 2;
    }
  } finally {
    await db.close();
  }
} catch (error) {
  exitOnStartupError(error, "audit:verify");
}
