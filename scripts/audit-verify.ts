// `npm run audit:verify`: recomputes the audit log's hash chain and reports the first row that
// was changed or removed. Exit status 0 when the log is intact, 2 when it is not.
import { verifyAuditChain } from "../lib/audit/verify";
import { readConfig } from "../lib/config";
import { openDatabase } from "../lib/db/client";
import { exitOnStartupError } from "../lib/db/errors";

try {
  const db = await openDatabase(readConfig());
  try {
    const result = await verifyAuditChain(db.sql);
    if (result.ok) {
      console.log(`Audit log intact: ${result.rows.toLocaleString("en")} rows, hash chain verified.`);
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
