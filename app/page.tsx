import type { Metadata } from "next";
import { AttentionPanel } from "@/components/dashboard/attention";
import { BarChart, LineChart } from "@/components/dashboard/charts";
import { OverviewHead } from "@/components/dashboard/overview-head";
import { Link } from "@/components/link";
import { forPage } from "@/lib/auth/page";
import { casesAttention } from "@/lib/cases/cases";
import { dashboard } from "@/lib/dashboard";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import { listHref } from "@/lib/objects/url";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("dashboard");
  return { title: t("title") };
}

/** The start page: where the registry's states stand, what changed lately, what comes next. */
export default async function OverviewPage(props: PageProps<"/">) {
  const refresh = (await props.searchParams).refresh === "1";
  const [d, attention] = await forPage(() => Promise.all([dashboard({ refresh }), casesAttention()]));
  const [t, tc, fmt] = await Promise.all([getTranslations("dashboard"), getTranslations("common"), getFormat()]);
  const allStates = d.states.map((s) => s.name).join(",");
  const lag = d.engine.lagSeconds;
  // The first count since the console started still runs: the page says so, and shows the rest.
  const asOf = d.counting ? null : d.asOf;
  return (
    <>
      <OverviewHead asOf={asOf} timeZone={d.timeZone} minutes={d.everyMinutes.counts} />
      <div className="dashboard">
        {asOf !== null && (
          <section className="panel" aria-labelledby="by-state">
            <h2 id="by-state">{t("byState.title")}</h2>
            <BarChart
              label={t("byState.chart")}
              bars={d.states.map((s) => ({
                state: s.name,
                value: s.objects,
                href: listHref({}, { states: s.name }),
                description: s.description,
                className: s.external ? "external" : s.manual ? "manual" : "",
              }))}
            />
          </section>
        )}
        {asOf !== null && (
          <section className="panel" aria-labelledby="per-day">
            <h2 id="per-day">{t("perDay.title")}</h2>
            <p className="muted">
              {t.rich("perDay.legend", {
                entered: (chunks) => <span className="legend entered">{chunks}</span>,
                left: (chunks) => <span className="legend left">{chunks}</span>,
              })}
            </p>
            <LineChart
              label={t("perDay.chart")}
              series={(["entered", "left"] as const).map((change) => ({
                name: change,
                className: change,
                points: d.days.map((day) => ({
                  day: day.day,
                  value: day[change],
                  href: listHref({}, { states: allStates, state_match: "any", mode: change, from: day.from, to: day.to }),
                })),
              }))}
            />
          </section>
        )}
        <section className="panel" aria-labelledby={asOf !== null ? "next" : "engine"}>
          {asOf !== null && (
            <>
              <h2 id="next">{t("upcoming.title")}</h2>
              <p className="muted">{t("upcoming.forecast", { asOf: fmt.instant(d.comingAsOf), minutes: d.everyMinutes.coming })}</p>
              {d.engine.fred && <p className="muted">{t("upcoming.fredProcedure")}</p>}
              <ul className="coming">
                {d.coming.map((day) => (
                  <li key={day.day}>
                    <span className="coming-day">{fmt.day(day.day)}</span>{" "}
                    {day.entries.length === 0
                      ? t("upcoming.nothing")
                      : day.entries.map((e, i) => (
                          <span key={e.state}>
                            {i > 0 && ", "}
                            <Link
                              href={listHref({}, { states: e.state, mode: "entered", from: day.from, to: day.to })}
                              title={t("upcoming.entryTitle", { count: e.objects, state: e.state, day: fmt.day(day.day) })}
                            >
                              {t("upcoming.entry", { state: e.state, count: fmt.number(e.objects) })}
                            </Link>
                          </span>
                        ))}
                  </li>
                ))}
              </ul>
              <p>
                <Link href="/requests?upcoming=1">{t("upcoming.requests", { count: d.upcoming })}</Link>
              </p>
            </>
          )}
          <h2 id="engine">{t("engine.title")}</h2>
          <p>
            {d.engine.lastRunAt
              ? t("engine.lastRun", {
                  at: fmt.instant(d.engine.lastRunAt),
                  kind: d.engine.lastRunKind ?? "",
                  cursor: d.engine.cursor ? fmt.instant(d.engine.cursor) : tc("none"),
                  lag:
                    lag === null
                      ? ""
                      : t("engine.lag", {
                          ago:
                            lag < 120
                              ? t("engine.seconds", { n: fmt.number(lag) })
                              : t("engine.minutes", { n: fmt.number(Math.round(lag / 60)) }),
                        }),
                })
              : t("engine.notRun")}{" "}
            {d.engine.waiting > 0 && t("engine.waiting", { count: d.engine.waiting })}
          </p>
          {d.mode && <p data-testid="registry-mode">{t("engine.mode", { mode: d.mode.mode, since: fmt.instant(d.mode.since) })}</p>}
          {/* An adopted registry's modes: shadow's report (what shadow compared, and whether to hand over). */}
          {d.mode && d.mode.mode !== "created" && (
            <p>
              <Link href="/shadow">{t("engine.shadowReport")}</Link>
            </p>
          )}
        </section>
        <AttentionPanel attention={attention} />
        <section className="panel" aria-labelledby="recent">
          <h2 id="recent">{t("recent.title")}</h2>
          {d.recent === null ? (
            <p className="muted">{t("recent.adminsOnly")}</p>
          ) : (
            <ul className="recent">
              {d.recent.map((r) => (
                <li key={`${r.at}-${r.action}`}>
                  {t("recent.entry", { at: fmt.instant(r.at), actor: r.actor ?? tc("system"), action: r.action, result: r.result })}
                </li>
              ))}
              <li>
                <Link href="/audit">{t("recent.all")}</Link>
              </li>
            </ul>
          )}
        </section>
      </div>
    </>
  );
}
