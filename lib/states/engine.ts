import type { SqlExecutor } from "../db/driver";

/**
 * What one run of the state engine did. The rules and the materialiser are SQL
 * (`state_engine_run`, migrations 20261124020000_state_engine and 20261125000000_fred_write_path); this is the typed door to them.
 */
export interface EngineRun {
  /** full: every object; incremental: due and pending objects; object: one object;
   *  busy: another run holds the engine; behind: the instant is before the cursor, nothing is due. */
  kind: "full" | "incremental" | "object" | "busy" | "behind";
  objects: number;
  opened: number;
  closed: number;
  cursorBefore: Date | null;
  cursorAfter: Date | null;
  /** Wall-clock time of the call. */
  ms: number;
}

export interface EngineRunOptions {
  /**
   * The instant to bring history up to; the database's now() when left out. Only the owner role
   * may choose it (console.state_engine_run); the running console's role runs at now()
   * (console.state_engine_run_now).
   */
  at?: Date;
  full?: boolean;
  objectId?: number;
}

interface RunRow {
  kind: EngineRun["kind"];
  objects: number;
  opened: number;
  closed: number;
  cursor_before: Date | null;
  cursor_after: Date | null;
}

/** Runs the engine once; on PostgreSQL at most one full or scheduled run happens at a time. */
export async function runStateEngine(db: SqlExecutor, options: EngineRunOptions = {}): Promise<EngineRun> {
  const started = performance.now();
  const [row] =
    options.at === undefined
      ? await db.query<RunRow>("SELECT * FROM console.state_engine_run_now($1, $2)", [options.full ?? false, options.objectId ?? null])
      : await db.query<RunRow>("SELECT * FROM console.state_engine_run($1::timestamptz, $2, $3)", [
          options.at,
          options.full ?? false,
          options.objectId ?? null,
        ]);
  return {
    kind: row.kind,
    objects: row.objects,
    opened: row.opened,
    closed: row.closed,
    cursorBefore: row.cursor_before,
    cursorAfter: row.cursor_after,
    ms: performance.now() - started,
  };
}

/** What one pass of the stored plan did (console.state_plan_pass, migration 20261208000000_state_plan). */
export interface PlanPass {
  /** full: the whole plan written; marked: the objects changed since; busy: another pass runs; not in charge: FRED's engine writes the states. */
  kind: "full" | "marked" | "busy" | "not in charge";
  objects: number;
  periods: number;
  ms: number;
}

/**
 * Writes the forecast's stored plan again for the objects changed since its last pass (or as a
 * whole when it is not trusted), from the database's clock.
 */
export async function runPlanPass(db: SqlExecutor): Promise<PlanPass> {
  const started = performance.now();
  const [row] = await db.query<{ kind: PlanPass["kind"]; objects: number; periods: number }>("SELECT * FROM console.state_plan_pass()");
  return { kind: row.kind, objects: row.objects, periods: row.periods, ms: performance.now() - started };
}

export interface EngineStatus {
  cursor: Date | null;
  lastRunKind: string | null;
  lastRunAt: Date | null;
  lastRunMs: number | null;
  markedObjects: number;
  nextChangeAt: Date | null;
}

/** Where the engine stands: its cursor, its last run, and what waits for it. */
export async function stateEngineStatus(db: SqlExecutor): Promise<EngineStatus> {
  const [row] = await db.query<{
    cursor: Date | null;
    last_run_kind: string | null;
    last_run_at: Date | null;
    last_run_ms: string | null;
    marked: number;
    next_at: Date | null;
  }>(
    `SELECT e.cursor, e.last_run_kind, e.last_run_at, e.last_run_ms,
            (SELECT count(DISTINCT object_id)::int FROM console.state_pending) AS marked,
            (SELECT min(next_at) FROM console.state_next_event) AS next_at
       FROM console.state_engine e`,
  );
  return {
    cursor: row.cursor,
    lastRunKind: row.last_run_kind,
    lastRunAt: row.last_run_at,
    lastRunMs: row.last_run_ms === null ? null : Number(row.last_run_ms),
    markedObjects: row.marked,
    nextChangeAt: row.next_at,
  };
}
