import type { SqlExecutor } from "../db/driver";

/**
 * The state rules read their time zone from enum_parameters (FRED's regular_day_procedure_zone).
 * In a registry the console created, a REGISTRY_TIMEZONE set in the environment is written there,
 * so the rules and the pages agree; history already written stays as it is, and only thresholds
 * from now on move. An adopted FRED registry's parameters are FRED's and are never rewritten: there
 * the function only reports a difference.
 */
async function syncRegistryTimeZone(
  db: SqlExecutor,
  zone: string,
): Promise<{ changed: true } | { changed: false; registryZone: string | null }> {
  const [origin] = await db.query<{ origin: string; zone: string | null }>(
    "SELECT o.origin, (SELECT val FROM enum_parameters WHERE id = 10) AS zone FROM console.registry_origin o",
  );
  if (origin?.origin !== "created") return { changed: false, registryZone: origin?.zone ?? null };
  const changed = await db.query<{ val: string }>(
    "UPDATE enum_parameters SET val = $1 WHERE id = 10 AND val IS DISTINCT FROM $1 RETURNING val",
    [zone],
  );
  return changed.length > 0 ? { changed: true } : { changed: false, registryZone: zone };
}

/**
 * REGISTRY_TIMEZONE, when it is set, at start-up and after `npm run db:migrate`: written into a
 * registry the console created when `write` (the owner role's connection), otherwise compared.
 * Says what happened through `log` and a difference it leaves through `warn`.
 */
export async function applyRegistryTimeZone(
  db: SqlExecutor,
  zone: string,
  options: { write: boolean; log: (line: string) => void; warn: (line: string) => void },
): Promise<void> {
  if (options.write) {
    const result = await syncRegistryTimeZone(db, zone);
    if (result.changed) options.log(`The state rules now use the time zone ${zone} (REGISTRY_TIMEZONE).`);
    else if (result.registryZone !== zone)
      options.warn(
        `REGISTRY_TIMEZONE is ${zone}, but the FRED registry's state rules use ${result.registryZone} ` +
          "(enum_parameters regular_day_procedure_zone), which the console does not change: pages show times in REGISTRY_TIMEZONE.",
      );
    return;
  }
  const [row] = await db.query<{ zone: string | null }>("SELECT val AS zone FROM enum_parameters WHERE id = 10");
  if (row?.zone !== zone)
    options.warn(
      `REGISTRY_TIMEZONE is ${zone}, but the registry's state rules use ${row?.zone ?? "no time zone"} ` +
        "(enum_parameters regular_day_procedure_zone), and the console's runtime role does not change them: pages show times in " +
        "REGISTRY_TIMEZONE. Run `npm run db:migrate` with DATABASE_OWNER_URL and REGISTRY_TIMEZONE set to write it into a registry the console created.",
    );
}
