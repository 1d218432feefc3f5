// The overview's registry-wide counts (lib/dashboard.ts shows them): taken in the background and
// kept per database in the server process, shared by every module instance of the process (the
// server's start-up and the pages are bundled apart), so no person's request waits for them.

import { readConfig } from "./config";
import type { SqlExecutor, SqlReader } from "./db/driver";

export interface StateCount {
  name: string;
  description: string;
  manual: boolean;
  external: boolean;
  /** Live objects that have the state now. */
  objects: number;
}

export interface DayChanges {
  /** The registry's calendar day, YYYY-MM-DD. */
  day: string;
  /** The day's start and the next day's start as wall times in the registry's zone (the list's range filter and form read them so). */
  from: string;
  to: string;
  /** Live objects that entered (left) at least one state that day. */
  entered: number;
  left: number;
}

/** One registry day ahead: the states live objects will enter, by the forecast (console.state_forecast). */
export interface DayForecast {
  /** The registry's calendar day, YYYY-MM-DD. */
  day: string;
  /** The window as the list's "entered" filter reads it: wall times in the registry's zone (today's starts at the next minute). */
  from: string;
  to: string;
  /** Live objects entering each state that day, most first; no state with none. */
  entries: { state: string; objects: number }[];
}

// The registry-wide counts take seconds at 1.5 million domains (they read every open state and a
// month of history), so no person's request waits for them (issue 41): the server counts at start
// and every minute (startOverviewCounts), a page gets the newest counts kept and, when they are
// older than a minute, starts a recount in the background; the page says as of when. Only a process
// that has never counted, or "Count again now", waits for a count. One reading serves every
// language: it keeps each state's descriptions in all of them.
export const FIGURES_TTL_MS = 60_000;
/** The least time between two takings of the figures: OVERVIEW_COUNTS_SECONDS (FIGURES_TTL_MS unless set). */
export const figuresEveryMs = (): number => readConfig().overviewCountsMs;
/**
 * The share of one database connection's time each part of the background counts may take (the
 * counts, and the forecast by day: together at most twice this): after a part that took `d` ms it
 * is not taken again before `d / BACKGROUND_SHARE` ms (nor before FIGURES_TTL_MS; for the forecast
 * by day, COMING_TTL_MS), and never later than RECOUNT_AFTER_MAX_MS (one slow count, held up by a
 * lock, does not put the next off for an hour). At 1.5 million domains the counts took 2.5-3.5 s and
 * the forecast by day 18-20 s: counted every minute they held a core of FRED's database server
 * 5 % of the time, and every page answered slower while they ran (bench:load, issue 41). There
 * they are taken every 2-3 minutes; the forecast by day, 1-2 s since its window reaches the plan's
 * index (FORECAST_BY_DAY_SQL), every 10 (COMING_TTL_MS); on the demo registry every minute.
 */
export const BACKGROUND_SHARE = 0.02;
/** How old figures that took `spentMs` to take may grow before they are taken again. */
export const RECOUNT_AFTER_MAX_MS = 30 * 60_000;
export const recountAfter = (spentMs: number, floorMs: number): number =>
  Math.min(Math.max(floorMs, RECOUNT_AFTER_MAX_MS), Math.max(floorMs, spentMs / BACKGROUND_SHARE));
interface Kept {
  /** When the kept figures were taken (Date.now()). */
  at: number;
  /** How long taking them took (ms), the forecast by day apart. */
  spent?: number;
  figures: Figures | null;
  /** The count under way, if one is. */
  counting: Promise<Figures> | null;
  /** When a page last read them (Date.now()): the server keeps counting while someone looks. */
  readAt?: number;
}
/** The background counts go on while the overview was read within this long (and once at start). */
const READ_WITHIN_MS = 10 * 60_000;
const KEPT = Symbol.for("registry-state-console.overview-counts");
const shared = globalThis as Record<symbol, Map<string, Kept> | undefined>;
shared[KEPT] ??= new Map<string, Kept>();
const kept = shared[KEPT]; // per database

/** Counts `db`'s figures again unless a count is under way (then that one's); keeps them when done. */
export function recount(db: SqlReader, timeZone: string): Promise<Figures> {
  const entry = kept.get(db.location) ?? { at: 0, figures: null, counting: null };
  kept.set(db.location, entry);
  if (entry.counting) return entry.counting;
  const counting = registryFigures(db, timeZone, entry.figures)
    .then(({ figures, spent }) => {
      entry.figures = figures;
      entry.at = Date.now();
      entry.spent = spent;
      return figures;
    })
    .finally(() => {
      entry.counting = null;
    });
  entry.counting = counting;
  counting.catch(() => {}); // a caller that waits sees the error; the next one counts again
  return counting;
}

/**
 * The newest figures kept for the database at `location`, when they were taken (Date.now()), and
 * how old they may grow before they are taken again (recountAfter: at least FIGURES_TTL_MS).
 */
export function keptFigures(location: string): { figures: Figures; at: number; recountAfterMs: number } | null {
  const entry = kept.get(location) ?? { at: 0, figures: null, counting: null };
  kept.set(location, entry);
  entry.readAt = Date.now();
  return entry.figures ? { figures: entry.figures, at: entry.at, recountAfterMs: recountAfter(entry.spent ?? 0, figuresEveryMs()) } : null;
}

/** Forgets what is kept for the database at `location` (as a new process starts: tests). */
export function forgetOverviewCounts(location: string): void {
  kept.delete(location);
}

/** The count under way for the database at `location`, if any (tests wait for the background one). */
export function overviewCounting(location: string): Promise<Figures> | null {
  return kept.get(location)?.counting ?? null;
}

/**
 * Keeps the overview's counts current in the server process: now, and every `everyMs` while a page
 * read them in the last ten minutes (an embedded database serves one query at a time: no count
 * for no one). A failed count is logged and tried again at the next tick.
 */
export function startOverviewCounts(
  database: () => Promise<SqlReader>,
  timeZone: string,
  everyMs = figuresEveryMs(),
  log: (line: string) => void = console.warn,
): { stop(): void; tick(): Promise<void> } {
  const tick = async () => {
    try {
      const db = await database();
      const entry = kept.get(db.location);
      if (entry?.figures && (entry.readAt ?? 0) < Date.now() - READ_WITHIN_MS) return;
      // Not before their share of the time allows (BACKGROUND_SHARE), give or take half a tick: the
      // figures are dated when their count ended, so a count due every tick is a little short of
      // its age at the next one.
      if (entry?.figures && Date.now() - entry.at < recountAfter(entry.spent ?? 0, everyMs) - everyMs / 2) return;
      await recount(db, timeZone);
    } catch (error) {
      log(`overview: counting failed, the next tick tries again: ${(error as Error).message}`);
    }
  };
  void tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer), tick };
}

export interface Figures {
  /** The counts, with the state's descriptions by enum_object_states_desc.lang ('EN', 'CS'). */
  states: (Omit<StateCount, "description"> & { descriptions: Record<string, string> })[];
  days: DayChanges[];
  coming: DayForecast[];
  /** When the forecast by day was taken (at most every COMING_TTL_MS). */
  comingAsOf: string;
  /** How long the forecast by day took to take (ms). */
  comingSpent?: number;
  upcoming: number;
  asOf: string;
}

/**
 * The forecast by day ahead is taken at most this often: at 1.5 million domains it costs 1-2 s of a
 * core (console.state_forecast over 8 days, FORECAST_BY_DAY_SQL), and taken every minute in parallel with the rest it
 * held both cores for seconds each minute, which every page felt (bench:load, issue 41).
 */
export const COMING_TTL_MS = 10 * 60_000;

/**
 * The forecast by day ahead ($1: the registry's time zone): today from the next minute and 7 days
 * more, for each day the states objects enter then, each figure what the list's "entered" filter for
 * that state and day finds. The window `w` is written into each place that uses it (NOT
 * MATERIALIZED): kept apart as one row, its start could not reach into console.state_forecast, which
 * then gave all 3.9 million periods that overlap the week at 1.5 million domains, not the 53,000
 * that begin in it. The entries are taken once (MATERIALIZED), not again for each of the 8 days.
 * There: 25 s of a core of the registry's database server before, 0.65 s now.
 */
export const FORECAST_BY_DAY_SQL = `WITH w AS NOT MATERIALIZED (
         SELECT date_trunc('minute', now()) + interval '1 minute' AS start,
                ((now() AT TIME ZONE $1)::date + 8)::timestamp AT TIME ZONE $1 AS stop),
       d AS (
         SELECT g::date AS day, greatest(w.start, g::date::timestamp AT TIME ZONE $1) AS "from",
                (g::date + 1)::timestamp AT TIME ZONE $1 AS "to"
           FROM w CROSS JOIN generate_series((now() AT TIME ZONE $1)::date, (now() AT TIME ZONE $1)::date + 7, interval '1 day') g),
       entry AS MATERIALIZED (
         SELECT (f.valid_from AT TIME ZONE $1)::date AS day, s.name AS state, count(DISTINCT f.object_id)::int AS objects
           FROM w CROSS JOIN LATERAL console.state_forecast(w.start, w.stop) f
           JOIN object_registry o ON o.id = f.object_id AND o.erdate IS NULL
           JOIN enum_object_states s ON s.id = f.state_id
          WHERE f.valid_from >= w.start AND f.valid_from < w.stop
          GROUP BY 1, 2)
       SELECT to_char(d.day, 'YYYY-MM-DD') AS day, to_char(d."from" AT TIME ZONE $1, 'YYYY-MM-DD"T"HH24:MI') AS "from",
              to_char(d."to" AT TIME ZONE $1, 'YYYY-MM-DD"T"HH24:MI') AS "to",
              coalesce((SELECT jsonb_agg(jsonb_build_object('state', e.state, 'objects', e.objects) ORDER BY e.objects DESC, e.state)
                          FROM entry e WHERE e.day = d.day), '[]') AS entries
         FROM d ORDER BY d.day`;

/**
 * The figures, one query after another (a background count takes one core at most: the pages keep
 * the other), the forecast by day kept from `previous` while it is younger than COMING_TTL_MS.
 */
async function registryFigures(db: SqlExecutor, timeZone: string, previous: Figures | null): Promise<{ figures: Figures; spent: number }> {
  const asOf = new Date().toISOString();
  const started = performance.now();
  const states = await db.query<Figures["states"][number]>(
    `WITH open AS (
         SELECT os.state_id, count(*)::int AS objects FROM object_state os JOIN object_registry o ON o.id = os.object_id
          WHERE os.valid_to IS NULL AND o.erdate IS NULL GROUP BY os.state_id)
       SELECT s.name, s.manual, s.external, coalesce(open.objects, 0) AS objects,
              coalesce((SELECT jsonb_object_agg(d.lang, d.description) FROM enum_object_states_desc d
                         WHERE d.state_id = s.id AND d.description IS NOT NULL), '{}') AS descriptions
         FROM enum_object_states s
         LEFT JOIN open ON open.state_id = s.id
        ORDER BY s.importance DESC NULLS LAST, s.id`,
  );
  // One pass over the history per direction, grouped by the registry's calendar day. The 30 days'
  // start is written out, not read from d: the planner then sees how few rows begin or end after it
  // and reads them by FRED's valid_from and valid_to indexes (at 1.5 million domains 0.95 s, against
  // 2.3 s for a scan of the whole history that it chose for a bound it could not see).
  const days = await db.query<{ day: string; from: string; to: string; entered: number; left: number }>(
    `WITH d AS (
         SELECT g::date AS day, (g::date::timestamp AT TIME ZONE $1) AS "from", ((g::date + 1)::timestamp AT TIME ZONE $1) AS "to"
           FROM generate_series((now() AT TIME ZONE $1)::date - 29, (now() AT TIME ZONE $1)::date, interval '1 day') g),
       entered AS (
         SELECT (os.valid_from AT TIME ZONE 'UTC' AT TIME ZONE $1)::date AS day, count(DISTINCT os.object_id)::int AS n
           FROM object_state os JOIN object_registry o ON o.id = os.object_id AND o.erdate IS NULL
          WHERE os.valid_from >= (((now() AT TIME ZONE $1)::date - 29)::timestamp AT TIME ZONE $1) AT TIME ZONE 'UTC' GROUP BY 1),
       left_ AS (
         SELECT (os.valid_to AT TIME ZONE 'UTC' AT TIME ZONE $1)::date AS day, count(DISTINCT os.object_id)::int AS n
           FROM object_state os JOIN object_registry o ON o.id = os.object_id AND o.erdate IS NULL
          WHERE os.valid_to >= (((now() AT TIME ZONE $1)::date - 29)::timestamp AT TIME ZONE $1) AT TIME ZONE 'UTC' GROUP BY 1)
       SELECT to_char(d.day, 'YYYY-MM-DD') AS day, to_char(d.day, 'YYYY-MM-DD"T00:00"') AS "from",
              to_char(d.day + 1, 'YYYY-MM-DD"T00:00"') AS "to", coalesce(e.n, 0) AS entered, coalesce(l.n, 0) AS left
         FROM d LEFT JOIN entered e ON e.day = d.day LEFT JOIN left_ l ON l.day = d.day ORDER BY d.day`,
    [timeZone],
  );
  // The forecast of the states objects enter ahead, by the registry's day: today from the next
  // minute (the list's filters read minutes) and 7 days more. Each figure is what the list's
  // "entered" filter for that state and day finds.
  const reuse =
    previous !== null && Date.now() - Date.parse(previous.comingAsOf) < recountAfter(previous.comingSpent ?? 0, COMING_TTL_MS)
      ? previous
      : null;
  const comingStarted = performance.now();
  const coming = reuse
    ? reuse.coming
    : await db.query<{ day: string; from: string; to: string; entries: { state: string; objects: number }[] }>(FORECAST_BY_DAY_SQL, [
        timeZone,
      ]);
  const comingSpent = reuse ? reuse.comingSpent : performance.now() - comingStarted;
  const [{ upcoming }] = await db.query<{ upcoming: number }>(
    `SELECT count(*)::int AS upcoming FROM object_state_request r
        WHERE r.canceled IS NULL AND ((r.valid_from > (now() AT TIME ZONE 'UTC') AND r.valid_from <= (now() AT TIME ZONE 'UTC') + interval '7 days')
           OR (r.valid_to > (now() AT TIME ZONE 'UTC') AND r.valid_to <= (now() AT TIME ZONE 'UTC') + interval '7 days'))`,
  );
  const spent = performance.now() - started - (reuse ? 0 : (comingSpent ?? 0));
  return { figures: { states, days, coming, comingAsOf: reuse ? reuse.comingAsOf : asOf, comingSpent, upcoming, asOf }, spent };
}
