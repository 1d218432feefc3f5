import { auditKeyRing } from "../audit/keys";
import { ensureAuthSecret, ensureFirstAdmin } from "../auth/bootstrap";
import { readConfig } from "../config";
import { syncRegistryTimeZone } from "../states/parameters";
import { startStateScheduler } from "../states/scheduler";
import { getDatabase } from "./client";
import { exitOnStartupError } from "./errors";
import { prepareDatabase } from "./prepare";

/**
 * Runs once when a console server process starts: opens the database, refuses one that is not the
 * console's or whose migrations changed, migrates, loads demo data into an empty embedded one, and
 * makes sure sessions can be signed and someone can sign in.
 */
export async function startConsole(): Promise<void> {
  try {
    const config = readConfig();
    // The audit key first: without one (PostgreSQL in production) nothing could be audited, so the
    // console does not start; the embedded console generates its key file here on first start.
    auditKeyRing(config);
    const db = await getDatabase();
    await prepareDatabase(db.sql, config);
    if (process.env.REGISTRY_TIMEZONE) {
      const zone = await syncRegistryTimeZone(db.sql, config.registryTimeZone);
      if (zone.changed) console.log(`The state rules now use the time zone ${config.registryTimeZone} (REGISTRY_TIMEZONE).`);
      else if (zone.registryZone !== config.registryTimeZone)
        console.warn(
          `REGISTRY_TIMEZONE is ${config.registryTimeZone}, but the FRED registry's state rules use ${zone.registryZone} ` +
            "(enum_parameters regular_day_procedure_zone), which the console does not change: pages show times in REGISTRY_TIMEZONE.",
        );
    }
    await ensureAuthSecret(db.sql);
    await ensureFirstAdmin(db.sql, process.env, console.log);
    console.log(`Registry State Console is using ${db.sql.location}.`);
    if (config.stateEngineIntervalSeconds > 0) {
      const scheduler = startStateScheduler(async () => (await getDatabase()).sql, config.stateEngineIntervalSeconds * 1000);
      // Catch up at once with whatever fell due while no console was running.
      void scheduler.tick();
    }
  } catch (error) {
    exitOnStartupError(error);
  }
}
