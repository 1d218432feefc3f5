import type { Metadata } from "next";
import { setHiddenColumnsAction } from "@/app/preferences/actions";
import { Notices } from "@/components/notices";
import { phaseKey, RequestFilters } from "@/components/requests/request-filters";
import { RequestsTable } from "@/components/requests/requests-table";
import { render } from "@/lib/actions/message";
import { actorMay } from "@/lib/auth/guard";
import { forPage } from "@/lib/auth/page";
import { getCancellationFormat, getFormat, getLocale, getPeriodFormat, getTranslations } from "@/lib/i18n/server";
import { countText } from "@/lib/objects/count-text";
import { listHref } from "@/lib/objects/url";
import { listRequests, PHASES, type Phase } from "@/lib/requests/read";
import { ownHiddenColumns } from "@/lib/users/preferences";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("requests");
  return { title: t("list.title") };
}

export default async function RequestsPage(props: PageProps<"/requests">) {
  const params = await props.searchParams;
  const list = await forPage(() => listRequests(params));
  const canWrite = await actorMay("requests.write");
  const [t, tc, to, hidden] = await Promise.all([
    getTranslations("requests"),
    getTranslations("common"),
    getTranslations("objects"),
    ownHiddenColumns("requests"),
  ]);
  const locale = await getLocale();
  const f = list.filter;
  const here = (changes: Record<string, string | null>) => listHref(params, { after: null, ...changes }, "/requests");
  // The order is the URL's: the period column sorts by start, the request column by id (creation order).
  const sortable = { period: "start", request: "id" } as const;
  const sortHrefs = f.upcoming
    ? {}
    : Object.fromEntries(
        Object.entries(sortable).map(([column, key]) => [
          column,
          { asc: here({ sort: key }), desc: here({ sort: key === "start" ? null : `-${key}` }) },
        ]),
      );
  const sortColumn = f.sort.endsWith("id") ? "request" : "period";
  const [period, cancellation, fmt] = await Promise.all([getPeriodFormat(), getCancellationFormat(), getFormat()]);
  // How many requests the filter matches, on every page of it: counted, or "more than" a bound that was.
  const total = countText(list.count, {
    number: (n) => fmt.number(n),
    moreThan: (n) => to("count.moreThan", { n }),
    many: () => to("count.many"),
  });
  return (
    <>
      <div className="page-head">
        <h1>{t("list.title")}</h1>
        <p className="muted">
          <span className="request-count">{t("list.count", { count: list.count.total, total })}</span> ·{" "}
          {f.upcoming ? t("list.upcomingHint") : t("list.allHint")}
          {/* Only for those who may change states: the bulk page would refuse anyone else. */}
          {canWrite && (
            <>
              {" "}
              · <a href="/requests/bulk">{t("list.bulkLink")}</a>
            </>
          )}
        </p>
      </div>
      <Notices notices={list.notices.map((notice) => render(notice, locale))} />
      <RequestFilters f={f} states={list.states} />
      <RequestsTable
        sort={f.upcoming ? null : { column: sortColumn, desc: f.sort.startsWith("-") }}
        sortHrefs={sortHrefs}
        hidden={hidden}
        saveColumns={setHiddenColumnsAction}
        labels={{
          columnPicker: to("table.columnPicker"),
          showColumns: to("table.showColumns"),
          columns: {
            request: t("list.columns.request"),
            object: t("list.columns.object"),
            state: t("list.columns.state"),
            phase: t("list.columns.phase"),
            period: t("list.columns.period"),
            reason: t("list.columns.reason"),
            author: t("list.columns.author"),
            canceled: t("list.columns.canceled"),
          },
          types: Object.fromEntries([...new Set(list.rows.map((r) => r.objectType))].map((type) => [type, t("type", { type })])),
          phases: Object.fromEntries(PHASES.map((phase) => [phase, t(`phases.${phaseKey(phase)}`)])) as Record<Phase, string>,
          none: tc("none"),
          empty: t("list.empty"),
        }}
        rows={list.rows.map((r) => ({
          id: r.id,
          objectId: r.objectId,
          object: r.object,
          objectType: r.objectType,
          state: r.state,
          phase: r.phase,
          period: period(r.from, r.to),
          reason: r.reason,
          author: r.author,
          canceled: cancellation(r),
        }))}
      />
      {list.next && (
        <nav className="pager" aria-label={t("list.pager.label")}>
          <a className="pager-link" href={here({ after: list.next })} rel="next">
            {t("list.pager.next")}
          </a>
        </nav>
      )}
    </>
  );
}
