import { Link } from "@/components/link";
import { StateTimeline, type TimelineBar } from "@/components/objects/state-timeline";
import { SimpleTable } from "@/components/simple-table";
import { readConfig } from "@/lib/config";
import { getFormat, getPeriodFormat, getTranslations } from "@/lib/i18n/server";
import type { HistoryPeriod, ObjectDetail, StateRequest } from "@/lib/objects/detail";

/** The states the object holds now, each with its meaning, kind, start and why. */
export async function StatesNow({ object }: { object: ObjectDetail }) {
  const [t, fmt] = await Promise.all([getTranslations("object"), getFormat()]);
  return (
    <>
      <h2>{t("states.title")}</h2>
      <SimpleTable
        className="states-now"
        empty={t("states.empty")}
        rows={object.states}
        rowKey={(s) => s.name}
        columns={[
          { header: t("states.columns.state"), cell: (s) => s.name },
          { header: t("states.columns.meaning"), cell: (s) => s.description },
          {
            header: t("states.columns.kind"),
            className: "nowrap",
            cell: (s) =>
              t("states.kind", {
                origin: s.manual ? t("states.manual") : t("states.automatic"),
                scope: s.external ? t("states.external") : t("states.internal"),
              }),
          },
          { header: t("states.columns.since"), className: "nowrap", cell: (s) => fmt.instant(s.since) },
          {
            header: t("states.columns.why"),
            className: "why",
            cell: (s) => s.reason ?? t("states.noReason"),
          },
        ]}
      />
    </>
  );
}

/**
 * The history: a timeline (recorded periods solid; scheduled requests and foreseen states dashed)
 * and the periods as a table, cut to the newest unless asked for in full.
 */
export async function HistoryPanel({
  object,
  scheduled,
  historyRows,
  showAllHistory,
  showAllRequests,
}: {
  object: ObjectDetail;
  scheduled: StateRequest[];
  historyRows: HistoryPeriod[];
  showAllHistory: boolean;
  showAllRequests: boolean;
}) {
  const [t, tc, fmt] = await Promise.all([getTranslations("object"), getTranslations("common"), getFormat()]);
  const timeZone = readConfig().registryTimeZone;
  const now = new Date().toISOString();
  const period = await getPeriodFormat();
  // Timeline: recorded periods solid; scheduled requests and foreseen states dashed.
  const bars: TimelineBar[] = [
    ...object.history.map((h) => ({
      state: h.state,
      from: h.from,
      to: h.to,
      future: false,
      label: t("timeline.period", { state: h.state, from: fmt.instant(h.from), to: h.to ? fmt.instant(h.to) : t("timeline.nowInForce") }),
    })),
    ...scheduled.map((r) => ({
      state: r.state,
      from: r.from,
      to: r.to,
      future: true,
      label: t("timeline.scheduled", { state: r.state, id: String(r.id), period: period(r.from, r.to) }),
    })),
    ...object.projected
      .filter((p) => Date.parse(p.from) > Date.parse(now) + 1000 && !scheduled.some((r) => r.state === p.state))
      .map((p) => ({
        state: p.state,
        from: p.from,
        to: p.to,
        future: true,
        label: t("timeline.foreseen", { state: p.state, period: period(p.from, p.to) }),
      })),
  ];
  const lanes = [...new Set(bars.map((b) => b.state))];
  return (
    <>
      <h2>{t("history.title")}</h2>
      {lanes.length === 0 ? (
        <p className="muted">{t("history.empty")}</p>
      ) : (
        <StateTimeline lanes={lanes} bars={bars} now={now} created={object.created} timeZone={timeZone} />
      )}
      <details className="history-table" id="history-table" open={showAllHistory || undefined}>
        <summary>{t("history.table", { count: object.history.length })}</summary>
        {historyRows.length < object.history.length && (
          <p className="muted">
            {t("history.newest", { shown: fmt.number(historyRows.length), total: fmt.number(object.history.length) })} ·{" "}
            <Link href={`/objects/${object.id}?history=all${showAllRequests ? "&requests=all" : ""}#history-table`}>
              {t("history.showAll", { total: fmt.number(object.history.length) })}
            </Link>
          </p>
        )}
        <SimpleTable
          empty={t("history.empty")}
          rows={historyRows}
          rowKey={(h) => `${h.state}-${h.from}`}
          columns={[
            { header: t("history.columns.state"), cell: (h) => h.state },
            { header: t("history.columns.from"), className: "nowrap", cell: (h) => fmt.instant(h.from) },
            { header: t("history.columns.until"), className: "nowrap", cell: (h) => (h.to ? fmt.instant(h.to) : tc("inForce")) },
          ]}
        />
      </details>
    </>
  );
}
