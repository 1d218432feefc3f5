import type { SqlExecutor } from "../db/driver";
import { fredEngineRuns, registryMode } from "../db/mode";
import { type FredKnownBug, fredKnownBugs, fredRunInstants, shadowCause } from "./shadow";

// What FRED's regular procedure has not recorded yet on one object (issue 40, docs/fred.md
// "Running on an existing FRED database"): beside FRED and in shadow, FRED's update_object_states(0), run by FRED's
// cron, records the date-driven automatic states, so between two of its runs object_state may lag
// the rules. The object page says so, state by state, with the same comparison and causes as a shadow
// run (lib/states/shadow.ts), for the one object.

interface FredPendingState {
  state: string;
  /** true: the rules give it now and FRED has not recorded it; false: FRED has it in force and the rules end it. */
  consoleHas: boolean;
  /** The rules' start of the state (consoleHas) or end (not); null when the rules never had it. */
  instant: string | null;
  /** FRED's procedure not yet run since the rules' instant; one of FRED's known bugs (named); or neither. */
  cause: "fred_not_yet_run" | "fred_bug" | "unexplained";
  bug: FredKnownBug | null;
}

export interface FredProcedureNotice {
  mode: "beside" | "shadow";
  /** FRED's last regular run, at the latest: the newest instant it wrote on an automatic state; null: none. */
  lastRun: string | null;
  /** When FRED's procedure is next expected, from FRED_PROCEDURE_EVERY_MINUTES; null when unset or never run. */
  nextRun: string | null;
  /** The object's automatic states where FRED's recorded states and the rules differ now; empty: none. */
  states: FredPendingState[];
}

/**
 * The next run of FRED's procedure after `now` if it runs every `everyMinutes` from `lastRun`: the
 * first lastRun + k × every (k ≥ 1) after now; null when either is unknown. FRED's procedure only
 * writes when a state changes, so `lastRun` may be older than its true last run: the run found is
 * then still one of its runs when it keeps to the schedule.
 */
export function nextFredRun(lastRun: Date | null, everyMinutes: number | null, now: Date): Date | null {
  if (!lastRun || !everyMinutes) return null;
  const every = everyMinutes * 60_000;
  const k = Math.max(1, Math.floor((now.getTime() - lastRun.getTime()) / every) + 1);
  return new Date(lastRun.getTime() + k * every);
}

/**
 * For object `objectId`, in modes beside and shadow: the automatic states (those the console's
 * engine decides, console.engine_automatic_states) that the rules give now and FRED's object_state
 * does not hold in force, or the other way round, each explained as shadow explains it. null in
 * charge and on a registry the console created (its own engine writes the states as they fall due).
 * Read-only: the rules as console.object_state_periods_of, FRED's rows as they are.
 */
export async function fredProcedureNotice(
  db: SqlExecutor,
  objectId: number,
  options: { everyMinutes?: number | null; at?: Date } = {},
): Promise<FredProcedureNotice | null> {
  const mode = await registryMode(db);
  if (!fredEngineRuns(mode)) return null;
  const t = await fredRunInstants(db, options.at);
  const rows = await db.query<{ state_id: number; name: string; console_has: boolean; console_instant: Date | null }>(
    `WITH t AS (SELECT $2::timestamptz AS at, $2::timestamptz AT TIME ZONE 'UTC' AS utc),
          auto AS (SELECT unnest(console.engine_automatic_states()) AS state_id),
          live AS (SELECT o.id FROM object_registry o, t
                    WHERE o.id = $1 AND o.crdate <= t.utc AND (o.erdate IS NULL OR o.erdate > t.utc)),
          fred AS (SELECT DISTINCT os.state_id FROM object_state os, t
                    WHERE os.object_id IN (SELECT id FROM live) AND os.valid_from <= t.utc
                      AND (os.valid_to IS NULL OR os.valid_to > t.utc) AND os.state_id IN (SELECT state_id FROM auto)),
          console_now AS (SELECT p.state_id, min(p.lo) AS since FROM live, t, unnest(console.object_state_periods_of(live.id, t.at)) p
                           WHERE p.lo <= t.at AND (p.hi IS NULL OR p.hi > t.at) AND p.state_id IN (SELECT state_id FROM auto)
                           GROUP BY p.state_id),
          -- The rules' end of a state FRED still has: among the periods in force at FRED's last run.
          ended AS (SELECT p.state_id, max(p.hi) AS until
                      FROM live, t, unnest(console.object_state_periods_of(live.id, least(coalesce($3::timestamptz, t.at), t.at))) p
                     WHERE p.hi <= t.at GROUP BY p.state_id)
     SELECT coalesce(c.state_id, f.state_id) AS state_id, s.name, c.state_id IS NOT NULL AS console_has,
            -- A state FRED holds that the rules never gave (a renew moved the expiration date): the
            -- rules changed with the object's last change.
            coalesce(c.since, e.until,
                     (SELECT greatest(ob.update, ob.trdate) AT TIME ZONE 'UTC' FROM object ob WHERE c.state_id IS NULL AND ob.id = $1)) AS console_instant
       FROM console_now c FULL JOIN fred f ON f.state_id = c.state_id
       JOIN enum_object_states s ON s.id = coalesce(c.state_id, f.state_id)
       LEFT JOIN ended e ON c.state_id IS NULL AND e.state_id = f.state_id
      WHERE c.state_id IS NULL OR f.state_id IS NULL
      ORDER BY s.importance DESC NULLS LAST, s.id`,
    [objectId, t.at, t.fred_last_run],
  );
  const bugs = rows.length > 0 ? await fredKnownBugs(db, t.at, t.zone, { objectId }) : new Map<string, FredKnownBug>();
  const states = rows.map((r): FredPendingState => {
    const cause = shadowCause(
      { objectId, stateId: r.state_id, consoleInstant: r.console_instant, manual: false },
      bugs,
      t.fred_last_run,
      t.request_pass,
    );
    const bug = cause.startsWith("fred_bug:") ? (cause.slice("fred_bug:".length) as FredKnownBug) : null;
    return {
      state: r.name,
      consoleHas: r.console_has,
      instant: r.console_instant?.toISOString() ?? null,
      cause: bug ? "fred_bug" : (cause as "fred_not_yet_run" | "unexplained"),
      bug,
    };
  });
  return {
    mode: mode.mode,
    lastRun: t.fred_last_run?.toISOString() ?? null,
    nextRun: nextFredRun(t.fred_last_run, options.everyMinutes ?? null, t.at)?.toISOString() ?? null,
    states,
  };
}
