import type { SqlExecutor } from "../db/driver";

/**
 * The state rules read their time zone from enum_parameters (FRED's regular_day_procedure_zone).
 * In a registry the console created, a REGISTRY_TIMEZONE set in the environment is written there,
 * so the rules and the pages agree; history already written stays as it is, and only thresholds
 * from now on move. An adopted FRED registry's parameters are FRED's and are never rewritten: there
 * the function only reports a difference.
 */
export async function syncRegistryTimeZone(
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
