import type { SqlExecutor, SqlReader } from "../db/driver";
import { registryMode } from "../db/mode";

// Shadow's comparison (issue 40, README "Running on an existing FRED database"): in shadow mode FRED's
// engine writes object_state, and the console's rules (console.object_state_periods) are compared
// with it at an instant. Each (object, state) where they disagree is written to console.shadow_runs
// and console.shadow_differences (never object_state), explained as one of FRED's known bugs, FRED's
// procedure not yet run since the console's instant, or unexplained.

/** FRED's known bugs (README "States"): why FRED's update_object_states and the console's rules differ on an object. */
export const FRED_KNOWN_BUGS = {
  request_wrong_state: "a request for an automatic or another type's state (FRED applies it)",
  request_canceled_later: "a request canceled in the future (FRED drops it at once)",
  request_ends_at_run: "a request ending exactly at the run (FRED counts valid_to as in force)",
  late_evening_utc: "a date late in the evening UTC (FRED takes the stored UTC date)",
  session_current_date: "FRED's CURRENT_DATE: the session's date, not the registry's",
} as const;
export type FredKnownBug = keyof typeof FRED_KNOWN_BUGS;

/**
 * Which of FRED's known bugs may make FRED's procedure and the console's rules differ on an object
 * at instant `at`, from the registry's data: keys `object:state`, or `object:*` for every state of
 * the object; values name the bug. `zone`: the registry's time zone.
 */
export async function fredKnownBugs(
  db: SqlExecutor,
  at: Date | string,
  zone: string,
  options: { objectId?: number } = {},
): Promise<Map<string, FredKnownBug>> {
  const causes = new Map<string, FredKnownBug>();
  // One object's (the object page) or every object's (a shadow run).
  const only = options.objectId ?? null;
  // FRED applies requests for automatic states and for another type's states (and FRED's trigger
  // on object_state derives outzone from a requested serverOutzoneManual, on any object).
  const wrong = await db.query<{ object_id: number }>(
    `SELECT r.object_id FROM object_state_request r JOIN object_registry o ON o.id = r.object_id
       JOIN enum_object_states s ON s.id = r.state_id
      WHERE r.valid_from <= $1::timestamptz AT TIME ZONE 'UTC' AND (r.valid_to IS NULL OR r.valid_to >= $1::timestamptz AT TIME ZONE 'UTC')
        AND r.canceled IS NULL AND (NOT s.manual OR NOT o.type = ANY (s.types)) AND ($2::int IS NULL OR r.object_id = $2)`,
    [at, only],
  );
  for (const r of wrong) causes.set(`${r.object_id}:*`, "request_wrong_state");
  // FRED drops a request at once when canceled is set, even to a future instant (the object's
  // states that depend on it follow); FRED counts a request's valid_to as still in force.
  const requests = await db.query<{ object_id: number; cause: FredKnownBug }>(
    `SELECT DISTINCT r.object_id,
            CASE WHEN r.canceled > $1::timestamptz AT TIME ZONE 'UTC' THEN 'request_canceled_later' ELSE 'request_ends_at_run' END AS cause
       FROM object_state_request r
      WHERE r.valid_from <= $1::timestamptz AT TIME ZONE 'UTC'
        AND (r.canceled > $1::timestamptz AT TIME ZONE 'UTC' OR r.valid_to = $1::timestamptz AT TIME ZONE 'UTC')
        AND ($2::int IS NULL OR r.object_id = $2)`,
    [at, only],
  );
  // FRED takes an unlinked object's dates as the UTC date it stores, the console as the registry's
  // calendar date (different for instants late in the evening UTC): deleteCandidate only.
  const late = await db.query<{ object_id: number }>(
    `SELECT o.id AS object_id FROM object_registry o JOIN object ob ON ob.id = o.id
      WHERE o.type IN (1, 2, 4) AND ($2::int IS NULL OR o.id = $2) AND (o.crdate::date <> (o.crdate AT TIME ZONE 'UTC' AT TIME ZONE $1)::date
             OR ob.update::date <> (ob.update AT TIME ZONE 'UTC' AT TIME ZONE $1)::date
             OR EXISTS (SELECT FROM object_state s WHERE s.object_id = o.id AND s.state_id = 16
                          AND s.valid_to::date <> (s.valid_to AT TIME ZONE 'UTC' AT TIME ZONE $1)::date))`,
    [zone, only],
  );
  // FRED's date rules compare with CURRENT_DATE, the session's date: in a UTC session late in the
  // evening that is not yet the registry's date (expirationWarning, expired, validation warnings, deleteWarning).
  const [dates] = await db.query<{ differ: boolean }>(
    "SELECT ($1::timestamptz AT TIME ZONE 'UTC')::date <> ($1::timestamptz AT TIME ZONE $2)::date AS differ",
    [at, zone],
  );
  if (dates?.differ) {
    const domains = await db.query<{ id: number }>("SELECT id FROM domain WHERE $1::int IS NULL OR id = $1", [only]);
    for (const d of domains) for (const state of [8, 9, 11, 12, 19]) causes.set(`${d.id}:${state}`, "session_current_date");
  }
  for (const r of late) causes.set(`${r.object_id}:17`, "late_evening_utc");
  for (const r of requests) causes.set(`${r.object_id}:*`, r.cause);
  return causes;
}

/** fredKnownBugs with each bug's description (the differential tests' tally). */
export async function fredKnownBugCauses(db: SqlExecutor, at: Date | string, zone: string): Promise<Map<string, string>> {
  return new Map([...(await fredKnownBugs(db, at, zone))].map(([key, bug]) => [key, FRED_KNOWN_BUGS[bug]]));
}

export type ShadowCause = `fred_bug:${FredKnownBug}` | "fred_not_yet_run" | "unexplained";

export interface ShadowDifference {
  objectId: number;
  stateId: number;
  /** The console's start of the state (it has it) or end (FRED has it); the run's instant when the console never had it. */
  instant: Date;
  consoleHas: boolean;
  fredHas: boolean;
  cause: ShadowCause;
}

export interface ShadowRun {
  id: number;
  at: Date;
  objects: number;
  /** The newest instant FRED wrote on an automatic state up to `at`: FRED's last regular run, at the latest. */
  fredLastRun: Date | null;
  differences: ShadowDifference[];
  unexplained: number;
}

/**
 * Why the console's rules and FRED's recorded states differ on one (object, state). In order: one of
 * FRED's known bugs on the object; FRED's procedure not yet run — the console's instant for the
 * state (its start, or its end) lies after FRED last ran: for an automatic state, after the newest
 * instant FRED wrote on any automatic state (its regular procedure stamps every change with its
 * run's instant; a later trigger write only moves that bound later, so the rule never explains too
 * much); for a manual state, after the console's last pass of FRED's update_object_states for the
 * requests (console.fred_request_cursor) —; otherwise unexplained.
 */
export function shadowCause(
  difference: { objectId: number; stateId: number; consoleInstant: Date | null; manual: boolean },
  bugs: Map<string, FredKnownBug>,
  fredLastRun: Date | null,
  requestPass: Date | null,
): ShadowCause {
  const bug = bugs.get(`${difference.objectId}:${difference.stateId}`) ?? bugs.get(`${difference.objectId}:*`);
  if (bug) return `fred_bug:${bug}`;
  const lastRun = difference.manual ? requestPass : fredLastRun;
  if (difference.consoleInstant && (lastRun === null || difference.consoleInstant > lastRun)) return "fred_not_yet_run";
  return "unexplained";
}

/**
 * The instants a comparison with FRED's recorded states is made against: `at` (the database's now()
 * when left out), the registry's zone, FRED's last regular run — the newest instant FRED wrote on an
 * automatic state up to `at` (its procedure stamps every change with its run's instant), so at the
 * latest — and the console's last pass of FRED's update_object_states for the requests.
 */
export async function fredRunInstants(
  db: SqlExecutor,
  at?: Date,
): Promise<{ at: Date; zone: string; fred_last_run: Date | null; request_pass: Date | null }> {
  const [t] = await db.query<{ at: Date; zone: string; fred_last_run: Date | null; request_pass: Date | null }>(
    `WITH t AS (SELECT coalesce($1::timestamptz, now()) AS at)
     SELECT t.at, (SELECT zone FROM console.state_parameters()) AS zone,
            -- Each bound read backwards on its index (object_state_valid_from_idx, _valid_to_idx): the
            -- object page asks on every view.
            greatest((SELECT max(os.valid_from) FROM object_state os
                       WHERE os.state_id = ANY (console.engine_automatic_states()) AND os.valid_from <= t.at AT TIME ZONE 'UTC'),
                     (SELECT max(os.valid_to) FROM object_state os
                       WHERE os.state_id = ANY (console.engine_automatic_states()) AND os.valid_to <= t.at AT TIME ZONE 'UTC'))
              AT TIME ZONE 'UTC' AS fred_last_run,
            (SELECT coalesce(c.at, o.mode_since) FROM console.fred_request_cursor c, console.registry_origin o) AS request_pass
       FROM t`,
    [at ?? null],
  );
  return t;
}

/**
 * Compares, at instant `at` (the database's now() when left out), the states the console's rules
 * give every live object with the rows of FRED's object_state in force then, over the states the
 * console's engine decides (its automatic states and the manual ones), and writes the run and its
 * differences, each explained. Only in shadow mode: returns null in any other.
 */
export async function runShadow(db: SqlReader, options: { at?: Date } = {}): Promise<ShadowRun | null> {
  return db.transaction(async (tx) => {
    const mode = await registryMode(tx);
    if (mode.origin !== "adopted" || mode.mode !== "shadow") return null;
    const t = await fredRunInstants(tx, options.at);
    const rows = await tx.query<{
      object_id: number;
      state_id: number;
      console_has: boolean;
      fred_has: boolean;
      console_instant: Date | null;
      manual: boolean;
    }>(
      `WITH t AS (SELECT $1::timestamptz AS at, $1::timestamptz AT TIME ZONE 'UTC' AS utc),
            compared AS (SELECT unnest(console.engine_automatic_states()) AS state_id UNION SELECT id FROM enum_object_states WHERE manual),
            live AS (SELECT o.id FROM object_registry o, t WHERE o.crdate <= t.utc AND (o.erdate IS NULL OR o.erdate > t.utc)),
            fred AS (SELECT DISTINCT os.object_id, os.state_id FROM object_state os, t
                      WHERE os.valid_from <= t.utc AND (os.valid_to IS NULL OR os.valid_to > t.utc)
                        AND os.state_id IN (SELECT state_id FROM compared) AND os.object_id IN (SELECT id FROM live)),
            rules AS MATERIALIZED (SELECT p.object_id, p.state_id, p.valid_from, p.valid_to FROM console.object_state_periods() p, t
                       WHERE p.valid_from <= t.at AND p.state_id IN (SELECT state_id FROM compared) AND p.object_id IN (SELECT id FROM live)),
            console_now AS (SELECT r.object_id, r.state_id, min(r.valid_from) AS since FROM rules r, t
                             WHERE r.valid_to IS NULL OR r.valid_to > t.at GROUP BY r.object_id, r.state_id)
       SELECT coalesce(c.object_id, f.object_id) AS object_id, coalesce(c.state_id, f.state_id) AS state_id,
              c.object_id IS NOT NULL AS console_has, f.object_id IS NOT NULL AS fred_has,
              coalesce(c.since, (SELECT max(r.valid_to) FROM rules r WHERE r.object_id = f.object_id AND r.state_id = f.state_id)) AS console_instant,
              s.manual
         FROM console_now c FULL JOIN fred f ON f.object_id = c.object_id AND f.state_id = c.state_id
         JOIN enum_object_states s ON s.id = coalesce(c.state_id, f.state_id)
        WHERE c.object_id IS NULL OR f.object_id IS NULL
        ORDER BY 1, 2`,
      [t.at],
    );
    const [{ objects }] = await tx.query<{ objects: number }>(
      "SELECT count(*)::int AS objects FROM object_registry o WHERE o.crdate <= $1::timestamptz AT TIME ZONE 'UTC' AND (o.erdate IS NULL OR o.erdate > $1::timestamptz AT TIME ZONE 'UTC')",
      [t.at],
    );
    const bugs = rows.length > 0 ? await fredKnownBugs(tx, t.at, t.zone) : new Map<string, FredKnownBug>();
    const differences: ShadowDifference[] = rows.map((r) => ({
      objectId: r.object_id,
      stateId: r.state_id,
      instant: r.console_instant ?? t.at,
      consoleHas: r.console_has,
      fredHas: r.fred_has,
      cause: shadowCause(
        { objectId: r.object_id, stateId: r.state_id, consoleInstant: r.console_instant, manual: r.manual },
        bugs,
        t.fred_last_run,
        t.request_pass,
      ),
    }));
    const unexplained = differences.filter((d) => d.cause === "unexplained").length;
    const [{ id }] = await tx.query<{ id: number }>(
      `INSERT INTO console.shadow_runs (at, fred_last_run, objects, differences, unexplained)
       VALUES ($1, $2, $3, $4, $5) RETURNING id::int AS id`,
      [t.at, t.fred_last_run, objects, differences.length, unexplained],
    );
    if (differences.length > 0)
      await tx.run(
        `INSERT INTO console.shadow_differences (run_id, object_id, state_id, instant, console_has, fred_has, cause)
         SELECT $1, d.object_id, d.state_id, d.instant, d.console_has, d.fred_has, d.cause
           FROM jsonb_to_recordset($2::jsonb) AS d (object_id integer, state_id integer, instant timestamptz, console_has boolean, fred_has boolean, cause text)`,
        [
          id,
          JSON.stringify(
            differences.map((d) => ({
              object_id: d.objectId,
              state_id: d.stateId,
              instant: d.instant.toISOString(),
              console_has: d.consoleHas,
              fred_has: d.fredHas,
              cause: d.cause,
            })),
          ),
        ],
      );
    return { id, at: t.at, objects, fredLastRun: t.fred_last_run, differences, unexplained };
  });
}

export interface ShadowSummary {
  ready: boolean;
  /** The report, as db:shadow prints it and charge's dry run quotes it. */
  text: string;
}

const DAY_MS = 86_400_000;

/**
 * Whether the registry is ready to hand over, from the runs: the clean runs since the last run
 * with an unexplained difference (all runs if none) span at least `days` days, with no more than
 * a day between two of them.
 */
export function shadowReadiness(runs: { at: Date; unexplained: number }[], days: number): { ready: boolean; reason: string } {
  if (runs.length === 0) return { ready: false, reason: "no shadow run yet" };
  const sorted = [...runs].sort((a, b) => a.at.getTime() - b.at.getTime());
  const lastBad = sorted.findLastIndex((r) => r.unexplained > 0);
  const clean = sorted.slice(lastBad + 1);
  if (clean.length === 0)
    return { ready: false, reason: `the newest run (${sorted.at(-1)?.at.toISOString()}) has unexplained differences` };
  for (let i = 1; i < clean.length; i++)
    if (clean[i].at.getTime() - clean[i - 1].at.getTime() > DAY_MS)
      return {
        ready: false,
        reason: `no run between ${clean[i - 1].at.toISOString()} and ${clean[i].at.toISOString()} (more than a day)`,
      };
  const span = (clean[clean.length - 1].at.getTime() - clean[0].at.getTime()) / DAY_MS;
  if (span < days)
    return {
      ready: false,
      reason: `${span.toFixed(1)} day(s) of runs without an unexplained difference (since ${clean[0].at.toISOString()}), ${days} needed`,
    };
  return {
    ready: true,
    reason: `${span.toFixed(1)} day(s) of runs without an unexplained difference (since ${clean[0].at.toISOString()})`,
  };
}

/** The shadow report: per run (the newest `runs`) and per day, counts by cause, examples, and readiness. */
export async function shadowSummary(db: SqlExecutor, options: { days?: number; runs?: number } = {}): Promise<ShadowSummary> {
  const days = options.days ?? 7;
  const all = await db.query<{ id: number; at: Date; objects: number; differences: number; unexplained: number }>(
    "SELECT id::int AS id, at, objects, differences, unexplained FROM console.shadow_runs ORDER BY at, id",
  );
  const readiness = shadowReadiness(all, days);
  const lines: string[] = [];
  const causes = await db.query<{ run_id: number; cause: string; n: number }>(
    `SELECT run_id::int AS run_id, cause, count(*)::int AS n FROM console.shadow_differences
      WHERE run_id IN (SELECT id FROM console.shadow_runs ORDER BY at DESC, id DESC LIMIT $1) GROUP BY 1, 2 ORDER BY 1, 2`,
    [options.runs ?? 10],
  );
  const byCause = (n: { cause: string; n: number }[]) => n.map((c) => `${c.n} × ${c.cause}`).join(", ");
  lines.push(`Shadow runs: ${all.length}.`);
  for (const r of all.slice(-(options.runs ?? 10)))
    lines.push(
      `  run ${r.id} at ${r.at.toISOString()}: ${r.objects} object(s), ${r.differences} difference(s), ${r.unexplained} unexplained` +
        (r.differences ? ` (${byCause(causes.filter((c) => c.run_id === r.id))})` : ""),
    );
  const perDay = await db.query<{ day: string; runs: number; cause: string | null; n: number }>(
    `SELECT to_char(r.at AT TIME ZONE (SELECT zone FROM console.state_parameters()), 'YYYY-MM-DD') AS day,
            count(DISTINCT r.id)::int AS runs, d.cause, count(d.run_id)::int AS n
       FROM console.shadow_runs r LEFT JOIN console.shadow_differences d ON d.run_id = r.id
      GROUP BY 1, 3 ORDER BY 1 DESC, 3 LIMIT 200`,
  );
  if (perDay.length > 0) lines.push("Per day (the registry's calendar):");
  for (const day of [...new Set(perDay.map((d) => d.day))].slice(0, 31)) {
    const rows = perDay.filter((d) => d.day === day);
    const counted = rows.filter((d) => d.cause !== null) as { cause: string; n: number }[];
    lines.push(`  ${day}: ${counted.length ? byCause(counted) : "no difference"}`);
  }
  const examples = await db.query<{ cause: string; example: string }>(
    `SELECT DISTINCT ON (d.cause) d.cause,
            format('%s on %s (object %s): %s %s, run %s', s.name, o.name, d.object_id,
                   CASE WHEN d.console_has THEN 'the console''s rules give it from'
                        ELSE 'FRED has it, the console''s rules do not (their end, or the run''s instant):' END, d.instant, d.run_id) AS example
       FROM console.shadow_differences d JOIN console.shadow_runs r ON r.id = d.run_id
       JOIN enum_object_states s ON s.id = d.state_id LEFT JOIN object_registry o ON o.id = d.object_id
      ORDER BY d.cause, r.at DESC, d.object_id, d.state_id`,
  );
  if (examples.length > 0) lines.push("Examples (the newest of each cause):");
  for (const e of examples) lines.push(`  ${e.cause}: ${e.example}`);
  lines.push(
    readiness.ready
      ? `Ready to hand over (${days} day(s) needed): ${readiness.reason}.`
      : `Not ready to hand over (${days} day(s) of runs without an unexplained difference needed): ${readiness.reason}.`,
  );
  return { ready: readiness.ready, text: lines.join("\n") };
}
