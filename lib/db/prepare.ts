import type { DemoCounts } from "../../prisma/demo/generate";
import { seedDemo } from "../../prisma/demo/load";
import type { ConsoleConfig } from "../config";
import type { DirectDriver } from "./driver";
import { migrate } from "./migrations";

export interface PrepareResult {
  migrated: string[];
  seeded: DemoCounts | null;
}

/** Brings the schema up to date; an empty embedded database also gets the demo registry. */
export async function prepareDatabase(
  db: DirectDriver,
  config: Pick<ConsoleConfig, "demoDomains" | "registryTimeZone">,
  log: (line: string) => void = console.log,
): Promise<PrepareResult> {
  const { applied } = await migrate(db);
  if (applied.length > 0) log(`Applied ${applied.length} migration(s) to ${db.location}: ${applied.join(", ")}`);
  if (db.kind !== "pglite" || config.demoDomains === 0) return { migrated: applied, seeded: null };
  const [{ empty }] = await db.query<{ empty: boolean }>("SELECT NOT EXISTS (SELECT 1 FROM object_registry) AS empty");
  if (!empty) {
    // PGlite runs no autovacuum: planner statistics are brought up to date at each start instead.
    await db.exec("ANALYZE");
    return { migrated: applied, seeded: null };
  }

  log(`The embedded registry is empty: loading demo data (${config.demoDomains.toLocaleString("en")} domains)…`);
  const started = Date.now();
  // A few lines, not one per step: the rows at each quarter, then one for the indexes and history
  // (the server's log is not a terminal, so a line cannot be rewritten in place).
  let lastQuarter = 0;
  let finishing = false;
  const seeded = await seedDemo(
    db,
    { domains: config.demoDomains, seed: 1, now: new Date(), timeZone: config.registryTimeZone },
    ({ done, total }) => {
      if (done < total) {
        const quarter = Math.floor((done / total) * 4);
        if (quarter > lastQuarter) {
          lastQuarter = quarter;
          log(`  demo data: ${quarter * 25}% of ${total.toLocaleString("en")} objects written`);
        }
      } else if (!finishing) {
        finishing = true;
        log(`  demo data: all ${total.toLocaleString("en")} objects written; building indexes and state history…`);
      }
    },
  );
  log(`Demo data loaded in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return { migrated: applied, seeded };
}
