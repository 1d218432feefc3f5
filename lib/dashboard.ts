import "server-only";
import { authorize } from "./auth/guard";
import { roleAllows } from "./auth/roles";
import { readConfig } from "./config";
import type { SqlExecutor } from "./db/driver";
import { type AdoptionMode, registryMode } from "./db/mode";
import { descriptionLang } from "./i18n/config";
import { getLocale } from "./i18n/server";
import { stateEngineStatus } from "./states/engine";
import { fredEngineWrites } from "./states/fred-engine";

// The start page's figures. Each counts exactly the objects (or requests) of the list its link
// opens: live objects, as the object list shows by default.

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

export interface Dashboard {
  states: StateCount[];
  days: DayChanges[];
  /** Today (from the next minute) and the 7 days after it, each with its foreseen state entries. */
  coming: DayForecast[];
  /** Requests starting or ending in the next 7 days (/requests?upcoming=1). */
  upcoming: number;
  engine: {
    cursor: string | null;
    lastRunAt: string | null;
    lastRunKind: string | null;
    lagSeconds: number | null;
    waiting: number;
    fred: boolean;
  };
  /** Which engine writes the state history (issue 40): an adopted registry's mode, "created" for the console's own registry. */
  mode: { mode: AdoptionMode | "created"; since: string } | null;
  /** The newest audited actions, for those who may read the audit log; null for others. */
  recent: { at: string; actor: string | null; action: string; result: string }[] | null;
  timeZone: string;
  /** When the counts were taken (they are kept for a minute). */
  asOf: string;
}

// The registry-wide counts take seconds at 1.5 million domains (they read every open state and a
// month of history), so each process keeps them for a while; the page says as of when. One
// reading serves every language: it keeps each state's descriptions in all of them.
const FIGURES_TTL_MS = 60_000;
const cache = new Map<string, { at: number; figures: Promise<Figures> }>(); // per database

interface Figures {
  /** The counts, with the state's descriptions by enum_object_states_desc.lang ('EN', 'CS'). */
  states: (Omit<StateCount, "description"> & { descriptions: Record<string, string> })[];
  days: DayChanges[];
  coming: DayForecast[];
  upcoming: number;
  asOf: string;
}

export async function dashboard(options: { refresh?: boolean } = {}): Promise<Dashboard> {
  const { db, actor } = await authorize("registry.read", "dashboard.read");
  const timeZone = readConfig().registryTimeZone;
  const key = db.sql.location;
  let cached = cache.get(key);
  // "Count again now" at most every 5 seconds: any reader may ask, and a count reads the registry.
  const age = cached ? Date.now() - cached.at : Number.POSITIVE_INFINITY;
  if (!cached || age > FIGURES_TTL_MS || (options.refresh && age > 5_000)) {
    const figures = registryFigures(db.sql, timeZone);
    cached = { at: Date.now(), figures };
    cache.set(key, cached);
    figures.catch(() => {
      if (cache.get(key)?.figures === figures) cache.delete(key);
    });
  }
  const [figures, engine, fred, recent, locale, mode] = await Promise.all([
    cached.figures,
    stateEngineStatus(db.sql),
    fredEngineWrites(db.sql),
    roleAllows(actor.role, "audit.read")
      ? db.prisma.auditEntry.findMany({ select: { at: true, actor: true, action: true, result: true }, orderBy: { id: "desc" }, take: 8 })
      : Promise.resolve(null),
    getLocale(),
    registryMode(db.sql).catch(() => null),
  ]);
  const lang = descriptionLang(locale);
  return {
    ...figures,
    // In the reader's language, else English, else the state's name.
    states: figures.states.map(({ descriptions, ...s }) => ({ ...s, description: descriptions[lang] ?? descriptions.EN ?? s.name })),
    engine: {
      cursor: engine.cursor?.toISOString() ?? null,
      lastRunAt: engine.lastRunAt?.toISOString() ?? null,
      lastRunKind: engine.lastRunKind,
      lagSeconds: engine.cursor ? Math.max(0, Math.round((Date.now() - engine.cursor.getTime()) / 1000)) : null,
      waiting: engine.markedObjects,
      // FRED's engine writes the states (beside, shadow): date-driven ones at its procedure's next run.
      fred,
    },
    mode: mode && { mode: mode.origin === "created" ? "created" : mode.mode, since: mode.since.toISOString() },
    recent: recent?.map((r) => ({ ...r, at: r.at.toISOString() })) ?? null,
    timeZone,
  };
}

async function registryFigures(db: SqlExecutor, timeZone: string): Promise<Figures> {
  const asOf = new Date().toISOString();
  const [states, days, coming, [{ upcoming }]] = await Promise.all([
    db.query<Figures["states"][number]>(
      `WITH open AS (
         SELECT os.state_id, count(*)::int AS objects FROM object_state os JOIN object_registry o ON o.id = os.object_id
          WHERE os.valid_to IS NULL AND o.erdate IS NULL GROUP BY os.state_id)
       SELECT s.name, s.manual, s.external, coalesce(open.objects, 0) AS objects,
              coalesce((SELECT jsonb_object_agg(d.lang, d.description) FROM enum_object_states_desc d
                         WHERE d.state_id = s.id AND d.description IS NOT NULL), '{}') AS descriptions
         FROM enum_object_states s
         LEFT JOIN open ON open.state_id = s.id
        ORDER BY s.importance DESC NULLS LAST, s.id`,
    ),
    // One pass over the history per direction, grouped by the registry's calendar day.
    db.query<{ day: string; from: string; to: string; entered: number; left: number }>(
      `WITH d AS (
         SELECT g::date AS day, (g::date::timestamp AT TIME ZONE $1) AS "from", ((g::date + 1)::timestamp AT TIME ZONE $1) AS "to"
           FROM generate_series((now() AT TIME ZONE $1)::date - 29, (now() AT TIME ZONE $1)::date, interval '1 day') g),
       entered AS (
         SELECT (os.valid_from AT TIME ZONE 'UTC' AT TIME ZONE $1)::date AS day, count(DISTINCT os.object_id)::int AS n
           FROM object_state os JOIN object_registry o ON o.id = os.object_id AND o.erdate IS NULL
          WHERE os.valid_from >= (SELECT min("from") FROM d) AT TIME ZONE 'UTC' GROUP BY 1),
       left_ AS (
         SELECT (os.valid_to AT TIME ZONE 'UTC' AT TIME ZONE $1)::date AS day, count(DISTINCT os.object_id)::int AS n
           FROM object_state os JOIN object_registry o ON o.id = os.object_id AND o.erdate IS NULL
          WHERE os.valid_to >= (SELECT min("from") FROM d) AT TIME ZONE 'UTC' GROUP BY 1)
       SELECT to_char(d.day, 'YYYY-MM-DD') AS day, to_char(d.day, 'YYYY-MM-DD"T00:00"') AS "from",
              to_char(d.day + 1, 'YYYY-MM-DD"T00:00"') AS "to", coalesce(e.n, 0) AS entered, coalesce(l.n, 0) AS left
         FROM d LEFT JOIN entered e ON e.day = d.day LEFT JOIN left_ l ON l.day = d.day ORDER BY d.day`,
      [timeZone],
    ),
    // The forecast of the states objects enter ahead, by the registry's day: today from the next
    // minute (the list's filters read minutes) and 7 days more. Each figure is what the list's
    // "entered" filter for that state and day finds.
    db.query<{ day: string; from: string; to: string; entries: { state: string; objects: number }[] }>(
      `WITH w AS (
         SELECT date_trunc('minute', now()) + interval '1 minute' AS start,
                ((now() AT TIME ZONE $1)::date + 8)::timestamp AT TIME ZONE $1 AS stop),
       d AS (
         SELECT g::date AS day, greatest(w.start, g::date::timestamp AT TIME ZONE $1) AS "from",
                (g::date + 1)::timestamp AT TIME ZONE $1 AS "to"
           FROM w CROSS JOIN generate_series((now() AT TIME ZONE $1)::date, (now() AT TIME ZONE $1)::date + 7, interval '1 day') g),
       entry AS (
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
         FROM d ORDER BY d.day`,
      [timeZone],
    ),
    db.query<{ upcoming: number }>(
      `SELECT count(*)::int AS upcoming FROM object_state_request r
        WHERE r.canceled IS NULL AND ((r.valid_from > (now() AT TIME ZONE 'UTC') AND r.valid_from <= (now() AT TIME ZONE 'UTC') + interval '7 days')
           OR (r.valid_to > (now() AT TIME ZONE 'UTC') AND r.valid_to <= (now() AT TIME ZONE 'UTC') + interval '7 days'))`,
    ),
  ]);
  return { states, days, coming, upcoming, asOf };
}
