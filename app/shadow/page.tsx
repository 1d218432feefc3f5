import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Notices } from "@/components/notices";
import { ShadowDifferences } from "@/components/shadow/differences";
import { ShadowDays, ShadowRuns } from "@/components/shadow/runs";
import { render } from "@/lib/actions/message";
import { forPage } from "@/lib/auth/page";
import { getFormat, getLocale, getTranslations } from "@/lib/i18n/server";
import { shadowPage } from "@/lib/states/shadow-page";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("shadow");
  return { title: t("title") };
}

/** Shadow's report (issue 40): where the console's engine and FRED's recorded states disagree, and whether to hand over. */
export default async function ShadowPage(props: PageProps<"/shadow">) {
  const data = await forPage(async () => shadowPage(await props.searchParams));
  const t = await getTranslations("shadow");
  const fmt = await getFormat();
  const locale = await getLocale();
  const code = (chunks: ReactNode) => <code>{chunks}</code>;
  const { mode, verdict, run, differences: diff } = data;

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
          <ShadowDays days={data.days} />
          <ShadowRuns
            runs={data.runs}
            totalRuns={data.totalRuns}
            shownRun={run?.id ?? null}
            href={(id) => href({ run: id, cause: null, page: null })}
          />
          {run && <ShadowDifferences run={run} diff={diff} href={href} />}
        </>
      )}
    </>
  );
}
