import type { SqlExecutor, SqlReader } from "../db/driver";
import { registryMode } from "../db/mode";

// Shadow's comparison (issue 40, docs/fred.md): in shadow mode FRED's
// engine writes object_state, and the console's rules (console.object_state_periods) are compared
// with it at an instant. Each (object, state) where they disagree is written to console.shadow_runs
// and console.shadow_differences (never object_state), explained as one of FRED's known bugs, FRED's
// procedure not yet run since the console's instant, or unexplained.

/** FRED's known bugs (docs/fred.md "The state rules"): why FRED's update_object_states and the console's rules differ on an object. */
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

interface ShadowDifference {
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
/** The days of runs without an unexplained difference that make a registry ready to hand over, unless told otherwise. */
export const SHADOW_READY_DAYS = 7;

/** Why the registry is or is not ready to hand over (shadowReadiness), for a page to put into words. */
export type ShadowVerdict =
  | { kind: "no_runs" }
  | { kind: "unexplained"; at: Date }
  | { kind: "gap"; from: Date; to: Date }
  | { kind: "short"; days: number; since: Date; needed: number }
  | { kind: "ready"; days: number; since: Date; needed: number };

/** A verdict in the report's English. */
function verdictReason(verdict: ShadowVerdict): string {
  switch (verdict.kind) {
    case "no_runs":
      return "no shadow run yet";
    case "unexplained":
      return `the newest run (${verdict.at.toISOString()}) has unexplained differences`;
    case "gap":
      return `no run between ${verdict.from.toISOString()} and ${verdict.to.toISOString()} (more than a day)`;
    case "short":
      return `${verdict.days.toFixed(1)} day(s) of runs without an unexplained difference (since ${verdict.since.toISOString()}), ${verdict.needed} needed`;
    case "ready":
      return `${verdict.days.toFixed(1)} day(s) of runs without an unexplained difference (since ${verdict.since.toISOString()})`;
  }
}

/**
 * Whether the registry is ready to hand over, from the runs: the clean runs since the last run
 * with an unexplained difference (all runs if none) span at least `days` days, with no more than
 * a day between two of them.
 */
export function shadowReadiness(
  runs: { at: Date; unexplained: number }[],
  days: number,
): { ready: boolean; reason: string; verdict: ShadowVerdict } {
  const verdict = readinessVerdict(runs, days);
  return { ready: verdict.kind === "ready", reason: verdictReason(verdict), verdict };
}

function readinessVerdict(runs: { at: Date; unexplained: number }[], days: number): ShadowVerdict {
  if (runs.length === 0) return { kind: "no_runs" };
  const sorted = [...runs].sort((a, b) => a.at.getTime() - b.at.getTime());
  const lastBad = sorted.findLastIndex((r) => r.unexplained > 0);
  const clean = sorted.slice(lastBad + 1);
  if (clean.length === 0) return { kind: "unexplained", at: (sorted.at(-1) as { at: Date }).at };
  for (let i = 1; i < clean.length; i++)
    if (clean[i].at.getTime() - clean[i - 1].at.getTime() > DAY_MS) return { kind: "gap", from: clean[i - 1].at, to: clean[i].at };
  const span = (clean[clean.length - 1].at.getTime() - clean[0].at.getTime()) / DAY_MS;
  return { kind: span < days ? "short" : "ready", days: span, since: clean[0].at, needed: days };
}

/** Counts of differences by cause (ShadowCause, or a cause a later version wrote), causes in alphabetical order. */
export type CauseCounts = [cause: string, count: number][];

const causeCounts = (counts: Record<string, number> | null): CauseCounts =>
  Object.entries(counts ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

export interface ShadowRunRow {
  id: number;
  at: Date;
  /** When the run was made (its transaction's start). */
  madeAt: Date;
  /** How long the comparison took; null for a run written before the duration was recorded. */
  durationMs: number | null;
  fredLastRun: Date | null;
  objects: number;
  differences: number;
  unexplained: number;
  causes: CauseCounts;
}

/** The newest `limit` runs, newest first, each with its differences by cause; or the run `id` alone (none when there is no such run). */
export async function shadowRuns(db: SqlExecutor, options: { limit?: number; id?: number } = {}): Promise<ShadowRunRow[]> {
  const rows = await db.query<Omit<ShadowRunRow, "causes"> & { causes: Record<string, number> | null }>(
    `SELECT r.id::int AS id, r.at, r.made_at AS "madeAt",
            (extract(epoch FROM r.finished_at - r.made_at) * 1000)::float8 AS "durationMs",
            r.fred_last_run AS "fredLastRun", r.objects, r.differences, r.unexplained,
            (SELECT jsonb_object_agg(c.cause, c.n) FROM (SELECT d.cause, count(*)::int AS n FROM console.shadow_differences d
                                                        WHERE d.run_id = r.id GROUP BY d.cause) c) AS causes
       FROM console.shadow_runs r
      WHERE $2::bigint IS NULL OR r.id = $2
      ORDER BY r.at DESC, r.id DESC LIMIT $1`,
    [options.limit ?? 10, options.id ?? null],
  );
  return rows.map((r) => ({ ...r, durationMs: r.durationMs === null ? null : Math.max(0, r.durationMs), causes: causeCounts(r.causes) }));
}

export interface ShadowDay {
  /** The registry's calendar day, YYYY-MM-DD. */
  day: string;
  runs: number;
  differences: number;
  unexplained: number;
  causes: CauseCounts;
}

/** Per day of the registry's calendar, the newest `limit` days with runs: runs, and differences by cause. */
export async function shadowDays(db: SqlExecutor, options: { limit?: number } = {}): Promise<ShadowDay[]> {
  const rows = await db.query<Omit<ShadowDay, "causes"> & { causes: Record<string, number> | null }>(
    `WITH r AS (SELECT id, differences, unexplained,
                       to_char(at AT TIME ZONE (SELECT zone FROM console.state_parameters()), 'YYYY-MM-DD') AS day
                  FROM console.shadow_runs),
          days AS (SELECT day, count(*)::int AS runs, sum(differences)::int AS differences, sum(unexplained)::int AS unexplained
                     FROM r GROUP BY day ORDER BY day DESC LIMIT $1)
     SELECT days.*,
            (SELECT jsonb_object_agg(c.cause, c.n) FROM (SELECT d.cause, count(*)::int AS n FROM console.shadow_differences d
                                                        JOIN r ON r.id = d.run_id WHERE r.day = days.day GROUP BY d.cause) c) AS causes
       FROM days ORDER BY day DESC`,
    [options.limit ?? 31],
  );
  return rows.map((r) => ({ ...r, causes: causeCounts(r.causes) }));
}

export interface ShadowDifferenceRow {
  objectId: number;
  /** The object's name (handle or domain name); null when object_registry no longer has it. */
  name: string | null;
  /** FRED's object type: 1 contact, 2 nsset, 3 domain, 4 keyset. */
  type: number | null;
  stateId: number;
  state: string;
  instant: Date;
  consoleHas: boolean;
  fredHas: boolean;
  cause: string;
}

/**
 * The differences of run `runId` (of `cause` alone when given), unexplained first, then by object
 * and state: `limit` from `offset`. Their count is the run's own (ShadowRunRow differences, causes).
 */
export async function shadowRunDifferences(
  db: SqlExecutor,
  runId: number,
  options: { offset?: number; limit?: number; cause?: string } = {},
): Promise<ShadowDifferenceRow[]> {
  const cause = options.cause ?? null;
  return db.query<ShadowDifferenceRow>(
    `SELECT d.object_id AS "objectId", o.name, o.type::int AS type, d.state_id AS "stateId", coalesce(s.name, d.state_id::text) AS state,
            d.instant, d.console_has AS "consoleHas", d.fred_has AS "fredHas", d.cause
       FROM console.shadow_differences d
       LEFT JOIN object_registry o ON o.id = d.object_id
       LEFT JOIN enum_object_states s ON s.id = d.state_id
      WHERE d.run_id = $1 AND ($2::text IS NULL OR d.cause = $2)
      ORDER BY d.cause <> 'unexplained', d.object_id, d.state_id
      OFFSET $3 LIMIT $4`,
    [runId, cause, options.offset ?? 0, options.limit ?? 100],
  );
}

/** Whether the registry is ready to hand over (shadowReadiness) from all its runs, and how many there are. */
export async function shadowRegistryReadiness(
  db: SqlExecutor,
  days: number = SHADOW_READY_DAYS,
): Promise<ReturnType<typeof shadowReadiness> & { runs: number }> {
  const all = await db.query<{ at: Date; unexplained: number }>("SELECT at, unexplained FROM console.shadow_runs ORDER BY at, id");
  return { ...shadowReadiness(all, days), runs: all.length };
}

/** The report's "n × cause, …". */
const byCause = (counts: CauseCounts) => counts.map(([cause, n]) => `${n} × ${cause}`).join(", ");

/** The shadow report: per run (the newest `runs`) and per day, counts by cause, examples, and readiness. */
export async function shadowSummary(db: SqlExecutor, options: { days?: number; runs?: number } = {}): Promise<ShadowSummary> {
  const days = options.days ?? SHADOW_READY_DAYS;
  const readiness = await shadowRegistryReadiness(db, days);
  const lines: string[] = [];
  lines.push(`Shadow runs: ${readiness.runs}.`);
  for (const r of (await shadowRuns(db, { limit: options.runs ?? 10 })).reverse())
    lines.push(
      `  run ${r.id} at ${r.at.toISOString()}: ${r.objects} object(s), ${r.differences} difference(s), ${r.unexplained} unexplained` +
        (r.differences ? ` (${byCause(r.causes)})` : ""),
    );
  const perDay = await shadowDays(db);
  if (perDay.length > 0) lines.push("Per day (the registry's calendar):");
  for (const day of perDay) lines.push(`  ${day.day}: ${day.causes.length ? byCause(day.causes) : "no difference"}`);
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
