// Which engine writes an adopted FRED registry's state history (issue 40, docs/fred.md
// "Running on an existing FRED database"): FRED's own (beside, shadow) or the console's (charge). The one place
// the rest of the console asks.
import type { SqlExecutor } from "./driver";

export const ADOPTION_MODES = ["beside", "shadow", "charge"] as const;
export type AdoptionMode = (typeof ADOPTION_MODES)[number];

export interface RegistryMode {
  /** created: the console made the registry; adopted: a FRED registry the console joined. */
  origin: "created" | "adopted";
  /** Always "charge" for a registry the console created. */
  mode: AdoptionMode;
  since: Date;
}

/** The registry's mode, read from console.registry_origin. */
export async function registryMode(db: SqlExecutor): Promise<RegistryMode> {
  const [row] = await db.query<{ origin: "created" | "adopted"; mode: AdoptionMode; since: Date }>(
    "SELECT origin, mode, mode_since AS since FROM console.registry_origin",
  );
  if (!row) throw new Error("console.registry_origin is empty: the database was not migrated");
  return row;
}

/** Whether FRED's own engine (its update_object_states and triggers) writes object_state: beside or in shadow. */
export function fredEngineRuns(mode: RegistryMode): mode is RegistryMode & { origin: "adopted"; mode: "beside" | "shadow" } {
  return mode.origin === "adopted" && mode.mode !== "charge";
}
