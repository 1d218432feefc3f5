import { ensureAuthSecret, ensureFirstAdmin } from "../auth/bootstrap";
import { readConfig } from "../config";
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
    const db = await getDatabase();
    await prepareDatabase(db.sql, config);
    await ensureAuthSecret(db.sql);
    await ensureFirstAdmin(db.sql, process.env, console.log);
    console.log(`Registry State Console is using ${db.sql.location}.`);
  } catch (error) {
    exitOnStartupError(error);
  }
}
