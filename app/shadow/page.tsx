import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { Notices } from "@/components/notices";
import { SimpleTable } from "@/components/simple-table";
import { render } from "@/lib/actions/message";
import { forPage } from "@/lib/auth/page";
import { getFormat, getLocale, getTranslations } from "@/lib/i18n/server";
import { type CauseCounts, FRED_KNOWN_BUGS, type FredKnownBug, type ShadowDifferenceRow, type ShadowRunRow } from "@/lib/states/shadow";
import { shadowPage } from "@/lib/states/shadow-page";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("shadow");
  return { title: t("title") };
}

const isBug = (name: string): name is FredKnownBug => Object.hasOwn(FRED_KNOWN_BUGS, name);

/** Shadow's report (issue 40): where the console's engine and FRED's recorded states disagree, and whether to hand over. */
export default async function ShadowPage(props: PageProps<"/shadow">) {
  const data = await forPage(async () => shadowPage(await props.searchParams));
  const t = await getTranslations("shadow");
  const fmt = await getFormat();
  const locale = await getLocale();
  const code = (chunks: ReactNode) => <code>{chunks}</code>;
  const { mode, verdict, run, differences: diff } = data;

  /** A cause in words: one of FRED's known bugs by name and description, FRED's procedure not yet run, or unexplained. */
  const causeText = (cause: string): string => {
    if (cause === "unexplained" || cause === "fred_not_yet_run") return t(`cause.${cause}`);
    const bug = cause.startsWith("fred_bug:") ? cause.slice("fred_bug:".length) : null;
    if (bug !== null && isBug(bug)) return t("cause.fredBug", { name: bug, description: t(`bugs.${bug}`) });
    return t("cause.other", { cause });
  };
  const counts = (causes: CauseCounts) =>
    causes.length === 0 ? (
      <span className="muted">{t("runs.noDifference")}</span>
    ) : (
      <ul className="shadow-causes">
        {causes.map(([cause, n]) => (
          <li key={cause} className={cause === "unexplained" ? "result-error" : undefined}>
            {t("cause.count", { count: fmt.number(n), cause: causeText(cause) })}
          </li>
        ))}
      </ul>
    );
  /** This page with other parameters (the readiness days kept). */
  const href = (changes: { run?: number | null; cause?: string | null; page?: number | null }) => {
    const query = new URLSearchParams();
    const runId = changes.run === undefined ? data.params.run : changes.run;
    const cause = changes.cause === undefined ? data.params.cause : changes.cause;
    if (runId) query.set("run", String(runId));
    if (cause) query.set("cause", cause);
    if (changes.page && changes.page > 1) query.set("page", String(changes.page));
    if (data.params.days) query.set("days", String(data.params.days));
    const text = query.toString();
    return text ? `/shadow?${text}` : "/shadow";
  };
  const reason =
    verdict.kind === "no_runs"
      ? t("verdict.reason.no_runs")
      : verdict.kind === "unexplained"
        ? t("verdict.reason.unexplained", { at: fmt.instant(verdict.at) })
        : verdict.kind === "gap"
          ? t("verdict.reason.gap", { from: fmt.instant(verdict.from), to: fmt.instant(verdict.to) })
          : t(`verdict.reason.${verdict.kind}`, {
              days: fmt.number(Math.floor(verdict.days * 10) / 10),
              since: fmt.instant(verdict.since),
              needed: fmt.number(verdict.needed),
            });
  const consoleSays = (d: ShadowDifferenceRow) =>
    d.consoleHas
      ? t("differences.consoleHas")
      : run && d.instant.getTime() < run.at.getTime()
        ? t("differences.consoleEnded")
        : t("differences.consoleNever");
  const first = diff.offset + 1;
  const last = diff.offset + diff.rows.length;

  return (
    <>
      <div className="page-head">
        <h1>{t("title")}</h1>
        <p className="muted">{t.rich("intro", { code })}</p>
      </div>
      <Notices notices={data.notices.map((notice) => render(notice, locale))} />
      <section className="panel">
        <p className="shadow-mode" data-testid="shadow-mode">
          {mode.origin === "created"
            ? t("mode.created")
            : mode.mode === "shadow"
              ? t.rich("mode.shadow", { since: fmt.instant(mode.since), interval: data.intervalMinutes, code })
              : t.rich("mode.notShadow", { mode: mode.mode, since: fmt.instant(mode.since), code })}
          {mode.origin === "adopted" && mode.mode !== "shadow" && data.totalRuns > 0 && <> {t("mode.pastRuns")}</>}
        </p>
      </section>
      {(mode.origin === "adopted" || data.totalRuns > 0) && (
        <>
          <section className={`panel shadow-verdict ${data.ready ? "ready" : "not-ready"}`} aria-labelledby="shadow-verdict">
            <h2 id="shadow-verdict" data-testid="shadow-verdict">
              {data.ready ? t("verdict.ready") : t("verdict.notReady")}
            </h2>
            <p data-testid="shadow-reason">{reason}</p>
            <p className="muted">{t.rich("verdict.rule", { needed: data.readyDays, code })}</p>
          </section>
          <section className="panel" aria-labelledby="shadow-days">
            <h2 id="shadow-days">{t("days.title")}</h2>
            {data.days.length > 0 && <p className="muted">{t("days.caption", { count: data.days.length })}</p>}
            <SimpleTable
              className="shadow-days"
              rows={data.days}
              rowKey={(d) => d.day}
              empty={t("days.empty")}
              columns={[
                { header: t("days.columns.day"), cell: (d) => fmt.day(d.day), className: "nowrap" },
                { header: t("days.columns.runs"), cell: (d) => fmt.number(d.runs), className: "numeric" },
                { header: t("days.columns.differences"), cell: (d) => fmt.number(d.differences), className: "numeric" },
                { header: t("days.columns.causes"), cell: (d) => counts(d.causes) },
                { header: t("days.columns.unexplained"), cell: (d) => fmt.number(d.unexplained), className: "numeric" },
              ]}
            />
          </section>
          <section className="panel" aria-labelledby="shadow-runs">
            <h2 id="shadow-runs">{t("runs.title")}</h2>
            {data.runs.length > 0 && (
              <p className="muted">{t("runs.caption", { shown: data.runs.length, total: fmt.number(data.totalRuns) })}</p>
            )}
            <SimpleTable<ShadowRunRow>
              className="shadow-runs"
              rows={data.runs}
              rowKey={(r) => r.id}
              empty={t("runs.empty")}
              columns={[
                {
                  header: t("runs.columns.run"),
                  cell: (r) =>
                    r.id === run?.id ? (
                      <span aria-current="true">{t("runs.shown", { id: String(r.id) })}</span>
                    ) : (
                      <Link href={href({ run: r.id, cause: null, page: null })}>{t("runs.show", { id: String(r.id) })}</Link>
                    ),
                  className: "nowrap",
                },
                { header: t("runs.columns.at"), cell: (r) => fmt.instant(r.at), className: "nowrap" },
                {
                  header: t("runs.columns.duration"),
                  cell: (r) =>
                    r.durationMs === null
                      ? t("runs.durationUnknown")
                      : t("runs.duration", { seconds: fmt.number(Math.round(r.durationMs / 100) / 10) }),
                  className: "numeric",
                },
                { header: t("runs.columns.objects"), cell: (r) => fmt.number(r.objects), className: "numeric" },
                { header: t("runs.columns.differences"), cell: (r) => fmt.number(r.differences), className: "numeric" },
                { header: t("runs.columns.causes"), cell: (r) => counts(r.causes) },
                { header: t("runs.columns.unexplained"), cell: (r) => fmt.number(r.unexplained), className: "numeric" },
              ]}
            />
          </section>
          {run && (
            <section className="panel" aria-labelledby="shadow-differences">
              <h2 id="shadow-differences">{t("differences.title", { id: String(run.id) })}</h2>
              <p className="muted">
                {t("differences.summary", {
                  at: fmt.instant(run.at),
                  objects: run.objects,
                  fredLastRun: run.fredLastRun ? fmt.instant(run.fredLastRun) : t("differences.fredNeverRan"),
                })}
              </p>
              {diff.causes.length > 0 && (
                <p className="shadow-filter">
                  {t("differences.filter")}:{" "}
                  {diff.cause === null ? (
                    <strong>{t("differences.all", { count: fmt.number(run.differences) })}</strong>
                  ) : (
                    <Link href={href({ run: run.id, cause: null })}>{t("differences.all", { count: fmt.number(run.differences) })}</Link>
                  )}
                  {diff.causes.map(([cause, n]) => (
                    <span key={cause}>
                      {" · "}
                      {diff.cause === cause ? (
                        <strong>{t("cause.count", { count: fmt.number(n), cause: causeText(cause) })}</strong>
                      ) : (
                        <Link href={href({ run: run.id, cause })}>
                          {t("cause.count", { count: fmt.number(n), cause: causeText(cause) })}
                        </Link>
                      )}
                    </span>
                  ))}
                </p>
              )}
              <p data-testid="shadow-total">
                {t("differences.total", { total: diff.total, from: fmt.number(first), to: fmt.number(last) })}
              </p>
              {diff.rows.length > 0 && (
                <SimpleTable
                  className="shadow-differences"
                  rows={diff.rows}
                  rowKey={(d) => `${d.objectId}:${d.stateId}`}
                  empty=""
                  columns={[
                    {
                      header: t("differences.columns.object"),
                      cell: (d) =>
                        d.name === null ? (
                          t("differences.unknownObject", { id: String(d.objectId) })
                        ) : (
                          <Link href={`/objects/${d.objectId}`}>{d.name}</Link>
                        ),
                    },
                    { header: t("differences.columns.state"), cell: (d) => d.state, className: "mono" },
                    { header: t("differences.columns.instant"), cell: (d) => fmt.instant(d.instant), className: "nowrap" },
                    { header: t("differences.columns.console"), cell: consoleSays },
                    {
                      header: t("differences.columns.fred"),
                      cell: (d) => (d.fredHas ? t("differences.fredHas") : t("differences.fredHasNot")),
                    },
                    {
                      header: t("differences.columns.cause"),
                      cell: (d) => <span className={d.cause === "unexplained" ? "result-error" : undefined}>{causeText(d.cause)}</span>,
                    },
                  ]}
                />
              )}
              {diff.pages > 1 && (
                <nav className="pager" aria-label={t("differences.pages")}>
                  {diff.page > 1 && (
                    <a className="pager-link" href={href({ run: run.id, page: diff.page - 1 })}>
                      {t("differences.previous")}
                    </a>
                  )}
                  {diff.page < diff.pages && (
                    <a className="pager-link" href={href({ run: run.id, page: diff.page + 1 })}>
                      {t("differences.next")}
                    </a>
                  )}
                </nav>
              )}
            </section>
          )}
        </>
      )}
    </>
  );
}
