import "server-only";
import { authorize } from "./auth/guard";
import { roleAllows } from "./auth/roles";
import { readConfig } from "./config";
import { type AdoptionMode, registryMode } from "./db/mode";
import { descriptionLang } from "./i18n/config";
import { getLocale } from "./i18n/server";
import {
  COMING_TTL_MS,
  type DayChanges,
  type DayForecast,
  type Figures,
  figuresEveryMs,
  keptFigures,
  recount,
  recountAfter,
  type StateCount,
} from "./overview-counts";

import { stateEngineStatus } from "./states/engine";
import { fredEngineWrites } from "./states/fred-engine";

// The start page's figures. Each counts exactly the objects (or requests) of the list its link
// opens: live objects, as the object list shows by default.

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
  /** When the counts were taken (taken again after everyMinutes.counts); null while the first count since the start runs. */
  asOf: string | null;
  /** When the forecast by day (`coming`) was taken: at most every 10 minutes (COMING_TTL_MS), less often on a registry where it takes long. */
  comingAsOf: string;
  /** How often the counts, and the forecast by day, are taken again (whole minutes: recountAfter). */
  everyMinutes: { counts: number; coming: number };
  /** No counts yet: the first since the console started is being taken (the figures above are empty). */
  counting: boolean;
}

/**
 * How long a page waits for the first count since the start before it says the counts are coming:
 * not at all (issue 41: the overview never computes on a person's request; at 1.5 million domains
 * the first count takes seconds, and a 1 s wait made the first overview after a start take 1 s).
 */
const FIRST_COUNT_WAIT_MS = 0;
const NO_FIGURES: Figures = { states: [], days: [], coming: [], comingAsOf: "", upcoming: 0, asOf: "" };

export async function dashboard(options: { refresh?: boolean; maxAgeMs?: number; firstCountWaitMs?: number } = {}): Promise<Dashboard> {
  const { db, actor } = await authorize("registry.read", "dashboard.read");
  const timeZone = readConfig().registryTimeZone;
  const entry = keptFigures(db.sql.location);
  const age = entry ? Date.now() - entry.at : Number.POSITIVE_INFINITY;
  let counted: Promise<Figures>;
  // "Count again now" at most every 5 seconds: any reader may ask, and a count reads the registry.
  if (options.refresh && age > 5_000) counted = recount(db.sql, timeZone);
  else if (entry) {
    counted = Promise.resolve(entry.figures);
    if (age > (options.maxAgeMs ?? entry.recountAfterMs)) void recount(db.sql, timeZone).catch(() => {});
  } else {
    // None kept yet: the server's first count since the start is under way (joined, or started here).
    // The page says the counts are coming instead of keeping the person waiting for them, after
    // `firstCountWaitMs` if a caller asks for a wait (FIRST_COUNT_WAIT_MS: none).
    const first = recount(db.sql, timeZone);
    const wait = options.firstCountWaitMs ?? FIRST_COUNT_WAIT_MS;
    counted =
      wait > 0
        ? Promise.race([first, new Promise<Figures>((resolve) => setTimeout(() => resolve(NO_FIGURES), wait).unref())])
        : Promise.resolve(NO_FIGURES);
  }
  const [figures, engine, fred, recent, locale, mode] = await Promise.all([
    counted,
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
    asOf: figures === NO_FIGURES ? null : figures.asOf,
    counting: figures === NO_FIGURES,
    everyMinutes: {
      counts: Math.ceil((entry?.recountAfterMs ?? figuresEveryMs()) / 60_000),
      coming: Math.ceil(recountAfter(figures.comingSpent ?? 0, COMING_TTL_MS) / 60_000),
    },
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
