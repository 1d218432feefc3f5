// `npm run audit:verify [-- --anchor ID:MAC]`: verifies the audit log — its hash chain and, from the
// first keyed row on, every row's MAC recomputed with the audit key (AUDIT_KEYS, or the embedded
// console's key file) — and reports the first row that was changed, removed, inserted or
// re-chained. Without arguments it also checks the log against the signed anchor the console keeps
// outside the database (AUDIT_ANCHOR_FILE, lib/audit/anchor.ts), which shows rows cut off the end,
// and moves that anchor to the newest row when the log is intact. With --anchor, the row ID printed
// by an earlier run must still carry that MAC instead. Exit status 0 when the log is intact, 2 when
// it is not.
import { type AnchoredVerification, verifyAuditLog } from "../lib/audit/anchor";
import { auditKeyRing } from "../lib/audit/keys";
import { type AuditVerification, parseAnchor, verifyAuditChain } from "../lib/audit/verify";
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
    const result: AuditVerification & Partial<AnchoredVerification> = anchor
      ? await verifyAuditChain(db.sql, { keys, anchor })
      : await verifyAuditLog(db.sql, { keys, config });
    if (result.ok) {
      const parts = [`${result.rows.toLocaleString("en")} rows`];
      if (result.keyed > 0) parts.push(`${result.keyed.toLocaleString("en")} with a MAC verified with the audit key`);
      if (result.unkeyed > 0) parts.push(`${result.unkeyed.toLocaleString("en")} written before keyed chaining (hash chain only)`);
      console.log(`Audit log intact: ${parts.join("; ")}.`);
      if (anchor) console.log(`Anchor row ${anchor.id} is in the log with its MAC.`);
      else if (result.anchor) {
        console.log(`Row ${result.anchor.id}, anchored at ${result.anchor.writtenAt} in ${result.file}, is in the log unchanged.`);
      } else {
        console.log(
          `No anchor was kept in ${result.file} yet: this check could not show rows cut off the end of the log; the next ones can.`,
        );
      }
      if (result.written) console.log(`The anchor in ${result.file} now holds row ${result.written.id}.`);
      if (result.writeError) console.warn(`Warning: ${result.writeError} (set AUDIT_ANCHOR_FILE to a file this user may write).`);
      if (result.newest?.mac) {
        console.log(
          `Newest row ${result.newest.id} (${result.newest.at}); anchor: ${result.newest.id}:${result.newest.mac.slice(0, 32)} ` +
            "(keep it outside the database and pass it with --anchor later: that also shows rows cut off the end).",
        );
      }
    } else {
      if (result.anchorRefused) {
        console.error(
          `Audit log NOT verified against its anchor: ${result.problem?.reason} (the chain itself: ${result.rows} rows intact).`,
        );
      } else {
        console.error(
          `Audit log NOT intact: row ${result.problem?.id}: ${result.problem?.reason} (${result.rows} rows verified before it).`,
        );
      }
      process.exitCode = 2;
    }
  } finally {
    await db.close();
  }
} catch (error) {
  exitOnStartupError(error, "audit:verify");
}
