// `npm run db:migrate`: applies pending migrations to the configured database, as the owner role
// (DATABASE_OWNER_URL, else DATABASE_URL), and reports them; writes REGISTRY_TIMEZONE, when set,
// into a registry the console created (as the server does at start-up).
import { ownerTarget, readConfig } from "../lib/config";
import { openDatabase } from "../lib/db/client";
import { exitOnStartupError } from "../lib/db/errors";
import { migrate } from "../lib/db/migrations";
import { applyRegistryTimeZone } from "../lib/states/parameters";

try {
  const config = readConfig();
  const db = await openDatabase(ownerTarget(config));
  try {
    const { applied, total } = await migrate(db.direct);
    console.log(
      applied.length === 0
        ? `${db.sql.location} is up to date (${total} migration(s)).`
        : `Applied ${applied.length} of ${total} migration(s) to ${db.sql.location}: ${applied.join(", ")}`,
    );
    if (process.env.REGISTRY_TIMEZONE)
      await applyRegistryTimeZone(db.sql, config.registryTimeZone, { write: true, log: console.log, warn: console.warn });
  } finally {
    await db.close();
  }
} catch (error) {
  exitOnStartupError(error, "db:migrate failed");
}
