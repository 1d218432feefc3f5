import "server-only";
import { authorize } from "../auth/guard";
import { readConfig } from "../config";
import { type RegistryMode, registryMode } from "../db/mode";
import { type Message, msg } from "../i18n/message";
import { type Params, readParams } from "../input/params";
import { parseId } from "../input/values";
import {
  type CauseCounts,
  SHADOW_READY_DAYS,
  type ShadowDay,
  type ShadowDifferenceRow,
  type ShadowRunRow,
  type ShadowVerdict,
  shadowDays,
  shadowRegistryReadiness,
  shadowRunDifferences,
  shadowRuns,
} from "./shadow";

// Shadow's page (app/shadow, issue 40): the report `npm run db:shadow` prints (lib/states/shadow.ts),
// for anyone who may read the registry's state: the verdict, per day, the latest runs, and the
// differences of one run, paged. Every parameter it cannot use is named in a notice and left out.

/** Differences shown per page. */
export const SHADOW_PAGE_SIZE = 100;
/** Runs listed. */
const SHADOW_RUNS_LISTED = 20;
const CAUSE = /^(unexplained|fred_not_yet_run|fred_bug:[a-z_]{1,60})$/;

export interface ShadowPageData {
  mode: RegistryMode;
  /** SHADOW_INTERVAL_MINUTES: how often the scheduler compares in shadow (0: only db:shadow). */
  intervalMinutes: number;
  ready: boolean;
  verdict: ShadowVerdict;
  /** The days of clean runs readiness needs (the `days` parameter, 7 by default). */
  readyDays: number;
  totalRuns: number;
  days: ShadowDay[];
  runs: ShadowRunRow[];
  /** The run whose differences are shown: the `run` parameter's, else the newest; null when there is none. */
  run: ShadowRunRow | null;
  differences: {
    rows: ShadowDifferenceRow[];
    /** Of the chosen cause alone when there is one. */
    total: number;
    offset: number;
    page: number;
    pages: number;
    cause: string | null;
    /** The run's differences by cause (for the cause links). */
    causes: CauseCounts;
  };
  /** The parameters used, to keep in the page's links. */
  params: { run: number | null; cause: string | null; days: number | null };
  notices: Message[];
}

/** Shadow's report for the page, from the URL's parameters: run, page, cause, days. */
export async function shadowPage(params: Params): Promise<ShadowPageData> {
  const { db } = await authorize("registry.read", "shadow.read");
  const notices: Message[] = [];
  const param = readParams(params, notices);
  const shown = (value: string) => value.slice(0, 40);

  let readyDays = SHADOW_READY_DAYS;
  let daysParam: number | null = null;
  const daysText = param("days");
  if (daysText) {
    const days = parseId(daysText, 365);
    if (days) readyDays = daysParam = days;
    else notices.push(msg("shadow.days", { value: shown(daysText), days: SHADOW_READY_DAYS }));
  }
  let cause: string | null = null;
  const causeText = param("cause");
  if (causeText) {
    if (CAUSE.test(causeText)) cause = causeText;
    else notices.push(msg("shadow.cause", { value: shown(causeText) }));
  }

  const mode = await registryMode(db.sql);
  const [readiness, days, runs] = await Promise.all([
    shadowRegistryReadiness(db.sql, readyDays),
    shadowDays(db.sql),
    shadowRuns(db.sql, { limit: SHADOW_RUNS_LISTED }),
  ]);

  let run: ShadowRunRow | null = runs[0] ?? null;
  let runParam: number | null = null;
  const runText = param("run");
  if (runText) {
    const id = parseId(runText, Number.MAX_SAFE_INTEGER);
    if (!id) notices.push(msg("shadow.notRunId", { value: shown(runText) }));
    else {
      const [chosen] = runs.some((r) => r.id === id) ? runs.filter((r) => r.id === id) : await shadowRuns(db.sql, { id });
      if (chosen) {
        run = chosen;
        runParam = id;
      } else notices.push(msg("shadow.noRun", { id: String(id) }));
    }
  }

  let page = 1;
  const pageText = param("page");
  if (pageText) {
    const n = parseId(pageText, 1_000_000);
    if (n) page = n;
    else notices.push(msg("shadow.page", { value: shown(pageText), max: 1_000_000 }));
  }
  const total = run ? (cause ? (run.causes.find(([c]) => c === cause)?.[1] ?? 0) : run.differences) : 0;
  const pages = Math.max(1, Math.ceil(total / SHADOW_PAGE_SIZE));
  if (page > pages) {
    notices.push(msg("shadow.pageBeyond", { page: String(page) }));
    page = pages;
  }
  const offset = (page - 1) * SHADOW_PAGE_SIZE;
  const rows = run ? await shadowRunDifferences(db.sql, run.id, { offset, limit: SHADOW_PAGE_SIZE, cause: cause ?? undefined }) : [];
  return {
    mode,
    intervalMinutes: readConfig().shadowIntervalMinutes,
    ready: readiness.ready,
    verdict: readiness.verdict,
    readyDays,
    totalRuns: readiness.runs,
    days,
    runs,
    run,
    differences: { rows, total, offset, page, pages, cause, causes: run?.causes ?? [] },
    params: { run: runParam, cause, days: daysParam },
    notices,
  };
}
