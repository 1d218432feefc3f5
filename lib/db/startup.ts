import { readConfig } from "../config";
import { getDatabase } from "./client";
import { exitOnStartupError } from "./errors";
import { prepareDatabase } from "./prepare";

/**
 * Runs once when a console server process starts: opens the database, refuses one that is not the
 * console's or whose migrations changed, migrates, and loads demo data into an empty embedded one.
 */
export async function startConsole(): Promise<void> {
  try {
    const config = readConfig();
    const db = await getDatabase();
    await prepareDatabase(db.sql, config);
    console.log(`Registry State Console is using ${db.sql.location}.`);
  } catch (error) {
    exitOnStartupError(error);
  }
}
