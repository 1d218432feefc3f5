// `npm run db:migrate`: applies pending migrations to the configured database and reports them.
import { readConfig } from "../lib/config";
import { openDatabase } from "../lib/db/client";
import { exitOnStartupError } from "../lib/db/errors";
import { migrate } from "../lib/db/migrations";

try {
  const db = await openDatabase(readConfig());
  try {
    const { applied, total } = await migrate(db.sql);
    console.log(
      applied.length === 0
        ? `${db.sql.location} is up to date (${total} migration(s)).`
        : `Applied ${applied.length} of ${total} migration(s) to ${db.sql.location}: ${applied.join(", ")}`,
    );
  } finally {
    await db.close();
  }
} catch (error) {
  exitOnStartupError(error, "db:migrate failed");
}
