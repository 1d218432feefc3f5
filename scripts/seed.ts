// `npm run db:seed -- --domains N [--seed S] [--now ISO-INSTANT]`: migrates the configured database
// and loads a deterministic demo registry into it (the registry must be empty).
import { parseArgs } from "node:util";
import { ownerTarget, readConfig } from "../lib/config";
import { openDatabase } from "../lib/db/client";
import { exitOnStartupError, StartupError } from "../lib/db/errors";
import { migrate } from "../lib/db/migrations";
import { seedDemo } from "../prisma/demo/load";

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value.replaceAll("_", ""));
  if (!Number.isSafeInteger(n) || n < 1) throw new StartupError(`--${name} must be a positive whole number, not “${value}”`);
  return n;
}

try {
  const { values } = parseArgs({
    options: { domains: { type: "string" }, seed: { type: "string" }, now: { type: "string" } },
    strict: true,
  });
  const config = readConfig();
  const domains = positiveInteger("domains", values.domains, config.demoDomains || 20_000);
  const seed = positiveInteger("seed", values.seed, 1);
  const now = values.now === undefined ? new Date() : new Date(values.now);
  if (Number.isNaN(now.getTime())) throw new StartupError(`--now must be an ISO instant such as 2026-11-22T12:00:00Z, not “${values.now}”`);

  const db = await openDatabase(ownerTarget(config));
  try {
    // The demo loader computes the states with the console's engine: an empty FRED registry seeded is adopted in charge.
    await migrate(db.direct, undefined, { adoptAs: "charge" });
    const started = Date.now();
    const interactive = process.stdout.isTTY;
    let lastLine = "";
    const counts = await seedDemo(db.direct, { domains, seed, now, timeZone: config.registryTimeZone }, (p) => {
      const line = `Loading demo data into ${db.sql.location}: ${Math.floor((p.done / p.total) * 100)}% (${p.done.toLocaleString("en")} of ${p.total.toLocaleString("en")} objects, ${p.phase})`;
      if (interactive) process.stdout.write(`\r${line}\x1b[K`);
      else if (line !== lastLine) console.log(line);
      lastLine = line;
    });
    if (interactive) process.stdout.write("\n");
    console.log(
      `Done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${counts.domains.toLocaleString("en")} domains, ` +
        `${counts.contacts.toLocaleString("en")} contacts, ${counts.nssets.toLocaleString("en")} nssets, ${counts.keysets.toLocaleString("en")} keysets (seed ${seed}).`,
    );
  } finally {
    await db.close();
  }
} catch (error) {
  if ((error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    exitOnStartupError(new StartupError((error as Error).message), "db:seed failed");
  }
  exitOnStartupError(error, "db:seed failed");
}
