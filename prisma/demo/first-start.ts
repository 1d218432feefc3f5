import type { DirectDriver } from "../../lib/db/driver";
import type { DemoCounts } from "./generate";
import { seedDemo } from "./load";

/**
 * The embedded console's first start: an empty embedded registry gets the demo registry (README
 * Quick start); a PostgreSQL database or a registry with objects is never touched.
 */
export async function loadDemoIfEmpty(
  db: DirectDriver,
  config: { demoDomains: number; registryTimeZone: string },
  log: (line: string) => void = console.log,
): Promise<DemoCounts | null> {
  if (db.kind !== "pglite" || config.demoDomains === 0) return null;
  const [{ empty }] = await db.query<{ empty: boolean }>("SELECT NOT EXISTS (SELECT 1 FROM object_registry) AS empty");
  if (!empty) return null;
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
  return seeded;
}
