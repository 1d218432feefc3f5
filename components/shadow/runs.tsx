import { Link } from "@/components/link";
import { SimpleTable } from "@/components/simple-table";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import type { ShadowDay, ShadowRunRow } from "@/lib/states/shadow";
import { ShadowCauseCounts } from "./causes";

const counts = (causes: ShadowRunRow["causes"]) => <ShadowCauseCounts causes={causes} />;

/** Shadow's runs per registry day. */
export async function ShadowDays({ days }: { days: ShadowDay[] }) {
  const t = await getTranslations("shadow");
  const fmt = await getFormat();
  return (
    <section className="panel" aria-labelledby="shadow-days">
      <h2 id="shadow-days">{t("days.title")}</h2>
      {days.length > 0 && <p className="muted">{t("days.caption", { count: days.length })}</p>}
      <SimpleTable
        className="shadow-days"
        rows={days}
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
  );
}

/** The newest runs, each a link to its differences (the run shown marked). */
export async function ShadowRuns({
  runs,
  totalRuns,
  shownRun,
  href,
}: {
  runs: ShadowRunRow[];
  totalRuns: number;
  shownRun: number | null;
  href: (run: number) => string;
}) {
  const t = await getTranslations("shadow");
  const fmt = await getFormat();
  return (
    <section className="panel" aria-labelledby="shadow-runs">
      <h2 id="shadow-runs">{t("runs.title")}</h2>
      {runs.length > 0 && <p className="muted">{t("runs.caption", { shown: runs.length, total: fmt.number(totalRuns) })}</p>}
      <SimpleTable<ShadowRunRow>
        className="shadow-runs"
        rows={runs}
        rowKey={(r) => r.id}
        empty={t("runs.empty")}
        columns={[
          {
            header: t("runs.columns.run"),
            cell: (r) =>
              r.id === shownRun ? (
                <span aria-current="true">{t("runs.shown", { id: String(r.id) })}</span>
              ) : (
                <Link href={href(r.id)}>{t("runs.show", { id: String(r.id) })}</Link>
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
  );
}
