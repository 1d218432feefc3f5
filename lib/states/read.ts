import "server-only";
import { authorize } from "../auth/guard";
import type { SqlExecutor } from "../db/driver";

/** One interval of an object's state history; `to` null = in force now. Names come from the catalogue. */
export interface StatePeriod {
  stateId: number;
  state: string;
  manual: boolean;
  external: boolean;
  from: string;
  to: string | null;
}

interface PeriodRow {
  state_id: number;
  name: string;
  manual: boolean;
  external: boolean;
  valid_from: Date;
  valid_to: Date | null;
}

const toPeriod = (r: PeriodRow): StatePeriod => ({
  stateId: r.state_id,
  state: r.name,
  manual: r.manual,
  external: r.external,
  from: r.valid_from.toISOString(),
  to: r.valid_to?.toISOString() ?? null,
});

const PERIOD_COLUMNS = "os.state_id, s.name, s.manual, s.external, os.valid_from, os.valid_to";

async function historyOf(db: SqlExecutor, objectId: number, openOnly: boolean): Promise<StatePeriod[]> {
  const rows = await db.query<PeriodRow>(
    `SELECT ${PERIOD_COLUMNS} FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
      WHERE os.object_id = $1 ${openOnly ? "AND os.valid_to IS NULL" : ""}
      ORDER BY ${openOnly ? "os.state_id" : "os.valid_from, os.state_id"}`,
    [objectId],
  );
  return rows.map(toPeriod);
}

/** The states an object has now (the open rows of its history). */
export async function currentStates(objectId: number): Promise<StatePeriod[]> {
  const { db } = await authorize("registry.read", "states.current");
  return historyOf(db.sql, objectId, true);
}

/** The object's whole state history, oldest first. */
export async function stateHistory(objectId: number): Promise<StatePeriod[]> {
  const { db } = await authorize("registry.read", "states.history");
  return historyOf(db.sql, objectId, false);
}

/**
 * Ids of the objects that had `state` at the instant `at` (history, not rules), in id order after
 * `afterId`: "blocked on 1 March" is a question about what the registry recorded.
 */
export async function objectsInStateAt(state: string, at: Date, options: { afterId?: number; limit?: number } = {}): Promise<number[]> {
  const { db } = await authorize("registry.read", "states.objects_at");
  const rows = await db.sql.query<{ object_id: number }>(
    `SELECT os.object_id FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
      WHERE s.name = $1 AND os.valid_from <= ($2::timestamptz AT TIME ZONE 'UTC')
        AND (os.valid_to IS NULL OR os.valid_to > ($2::timestamptz AT TIME ZONE 'UTC')) AND os.object_id > $3
      ORDER BY os.object_id LIMIT $4`,
    [state, at, options.afterId ?? 0, Math.min(Math.max(options.limit ?? 100, 1), 10_000)],
  );
  return rows.map((r) => r.object_id);
}
