import type { DirectDriver } from "./driver";
import { migrate } from "./migrations";

/** Brings the schema up to date (the demo registry is prisma/demo/first-start.ts's). */
export async function prepareDatabase(db: DirectDriver, log: (line: string) => void = console.log): Promise<string[]> {
  const { applied } = await migrate(db);
  if (applied.length > 0) log(`Applied ${applied.length} migration(s) to ${db.location}: ${applied.join(", ")}`);
  // PGlite runs no autovacuum: planner statistics are brought up to date at each start instead.
  if (db.kind === "pglite") await db.exec("ANALYZE");
  return applied;
}
