import type { Metadata } from "next";
import { Notices } from "@/components/notices";
import { RequestsTable } from "@/components/requests/requests-table";
import { WallTimeInput } from "@/components/wall-time-input";
import { render } from "@/lib/actions/message";
import { actorMay } from "@/lib/auth/guard";
import { forPage } from "@/lib/auth/page";
import { getFormat, getLocale, getTranslations } from "@/lib/i18n/server";
import { listHref } from "@/lib/objects/url";
import { listRequests, PHASES, type Phase, type RequestRow } from "@/lib/requests/read";
import { ownHiddenColumns } from "@/lib/users/preferences";

/** A phase's message key ("in force" has a space, its key does not). */
const phaseKey = (phase: Phase) => (phase === "in force" ? "inForce" : phase);

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("requests");
  return { title: t("list.title") };
}

export default async function RequestsPage(props: PageProps<"/requests">) {
  const params = await props.searchParams;
  const list = await forPage(() => listRequests(params));
  const canWrite = await actorMay("requests.write");
  const [t, tc, to, fmt, hidden] = await Promise.all([
    getTranslations("requests"),
    getTranslations("common"),
    getTranslations("objects"),
    getFormat(),
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
  const period = (from: string, to: string | null) => tc("period", { from: fmt.instant(from), to: to ? fmt.instant(to) : tc("openEnded") });
  // When a request was canceled, by whom and why; null when it was not.
  const cancellation = (r: RequestRow) => {
    if (!r.canceled) return null;
    const when = fmt.instant(r.canceled);
    if (r.canceledBy && r.cancelReason) return t("list.cancellation.full", { when, who: r.canceledBy, reason: r.cancelReason });
    if (r.canceledBy) return t("list.cancellation.by", { when, who: r.canceledBy });
    if (r.cancelReason) return t("list.cancellation.reason", { when, reason: r.cancelReason });
    return t("list.cancellation.plain", { when });
  };
  return (
    <>
      <div className="page-head">
        <h1>{t("list.title")}</h1>
        <p className="muted">
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
      <nav className="type-filter" aria-label={t("list.views.label")}>
        <a href="/requests" aria-current={!f.upcoming && !f.phase ? "page" : undefined}>
          {t("list.views.all")}
        </a>
        <a href="/requests?upcoming=1" aria-current={f.upcoming ? "page" : undefined}>
          {t("list.views.upcoming")}
        </a>
        {PHASES.map((phase) => (
          <a
            key={phase}
            href={`/requests?phase=${encodeURIComponent(phase)}`}
            aria-current={f.phase === phase && !f.upcoming ? "page" : undefined}
          >
            {t(`list.views.phases.${phaseKey(phase)}`)}
          </a>
        ))}
      </nav>
      <form className="filters" method="get" action="/requests" aria-label={t("list.filters.label")}>
        <div className="filter-row">
          <label>
            {t("list.filters.phase")}
            <select aria-label={t("list.filters.phase")} name="phase" defaultValue={f.phase ?? ""}>
              <option value="">{t("list.filters.anyPhase")}</option>
              {PHASES.map((phase) => (
                <option key={phase} value={phase}>
                  {t(`phases.${phaseKey(phase)}`)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("list.filters.state")}
            <select aria-label={t("list.filters.state")} name="state" defaultValue={f.state ?? ""}>
              <option value="">{t("list.filters.anyState")}</option>
              {list.states.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
          <label>
            {t("list.filters.author")}
            <input name="author" defaultValue={f.author ?? ""} maxLength={64} />
          </label>
          <label>
            {t("list.filters.from")}
            <WallTimeInput name="from" withTime={false} defaultValue={f.from ?? ""} />
          </label>
          <label>
            {t("list.filters.to")}
            <WallTimeInput name="to" withTime={false} defaultValue={f.to ?? ""} />
          </label>
          <label>
            {t("list.filters.object")}
            <input name="object" defaultValue={f.object ?? ""} maxLength={255} />
          </label>
          <label>
            {t("list.filters.id")}
            <input name="id" inputMode="numeric" defaultValue={f.id ?? ""} maxLength={9} />
          </label>
          <label>
            {t("list.filters.batch")}
            <input name="batch" defaultValue={f.batch ?? ""} maxLength={36} />
          </label>
          {f.upcoming && <input type="hidden" name="upcoming" value="1" />}
          {f.sort !== "-start" && <input type="hidden" name="sort" value={f.sort} />}
          <button type="submit">{t("list.filters.apply")}</button>
        </div>
      </form>
      <RequestsTable
        sort={f.upcoming ? null : { column: sortColumn, desc: f.sort.startsWith("-") }}
        sortHrefs={sortHrefs}
        hidden={hidden}
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
