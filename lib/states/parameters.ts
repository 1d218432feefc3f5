import type { SqlExecutor } from "../db/driver";

/**
 * The state rules read their time zone from enum_parameters (FRED's regular_day_procedure_zone).
 * A REGISTRY_TIMEZONE set in the environment is written there, so the rules and the pages agree;
 * history already written stays as it is, and only thresholds from now on move.
 */
export async function syncRegistryTimeZone(db: SqlExecutor, zone: string): Promise<string | null> {
  const changed = await db.query<{ val: string }>(
    `UPDATE enum_parameters SET val = $1 WHERE name = 'regular_day_procedure_zone' AND val IS DISTINCT FROM $1 RETURNING val`,
    [zone],
  );
  return changed.length > 0 ? zone : null;
}
