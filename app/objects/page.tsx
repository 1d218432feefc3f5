import { redirect } from "next/navigation";
import { Suspense } from "react";
import { setHiddenColumnsAction } from "@/app/preferences/actions";
import { Notices } from "@/components/notices";
import { ExportButton } from "@/components/objects/export-button";
import { ListPager } from "@/components/objects/list-pager";
import { ObjectFilters } from "@/components/objects/object-filters";
import { ObjectsTable } from "@/components/objects/objects-table";
import { WhenCaption } from "@/components/objects/when-caption";
import { render } from "@/lib/actions/message";
import { actorMay, authorize } from "@/lib/auth/guard";
import { forPage } from "@/lib/auth/page";
import { readConfig } from "@/lib/config";
import { getFormat, getLocale, getTranslations } from "@/lib/i18n/server";
import { countText } from "@/lib/objects/count-text";
import { listObjects, PAGE_SIZES, shownRows } from "@/lib/objects/list";
import { sortParam } from "@/lib/objects/paging";
import { fromStart, listHref, listQuery, sortLinks } from "@/lib/objects/url";
import { ownHiddenColumns } from "@/lib/users/preferences";

export async function generateMetadata() {
  const t = await getTranslations("objects");
  return { title: t("title") };
}

const SORTABLE = ["name", "created", "expires", "from", "until"] as const;

type Params = Awaited<PageProps<"/objects">["searchParams"]>;

/**
 * Access is decided before anything is sent, so a refused request gets its 401/403 status; the
 * list itself streams in behind a loading message that shows again whenever the filters change.
 */
export default async function ObjectsPage(props: PageProps<"/objects">) {
  const params = await props.searchParams;
  await forPage(() => authorize("registry.read", "objects.list"));
  const t = await getTranslations("objects");
  return (
    <Suspense
      key={listQuery(params)}
      fallback={
        <div className="loading" role="status" aria-live="polite">
          <h1>{t("title")}</h1>
          <p>{t("loading")}</p>
        </div>
      }
    >
      <ObjectList params={params} />
    </Suspense>
  );
}

async function ObjectList({ params }: { params: Params }) {
  const list = await forPage(() => listObjects(params));
  const [t, fmt, hidden, locale] = await Promise.all([getTranslations("objects"), getFormat(), ownHiddenColumns("objects"), getLocale()]);
  const canWrite = await actorMay("requests.write");
  // An exact name or handle goes straight to its object, unless the person asked for the list.
  if (list.exactMatch !== null && params.jump !== "no") redirect(`/objects/${list.exactMatch}`);

  const rows = shownRows(list.rows, fmt);
  const sortHrefs = sortLinks(
    params,
    SORTABLE.filter((key) => (key !== "expires" || list.type === "domain") && ((key !== "from" && key !== "until") || list.when)),
  );
  const sort = sortParam(list.sort);
  // Links to other pages, orders and the export do not count all again (it may take seconds): only this page does.
  const here = { ...params, sort: sort === "name" ? undefined : sort, count: undefined };
  // Never the planner's estimate: a number that was counted, or "more than" one that was, or "many".
  const total = countText(list, {
    number: (n) => fmt.number(n),
    moreThan: (n) => t("count.moreThan", { n }),
    many: () => t("count.many"),
  });
  const type = list.type ?? "all";

  return (
    <>
      <div className="page-head">
        <h1>{t("title")}</h1>
        <p className="muted" aria-live="polite">
          {t(list.filter.deleted === "only" ? "count.deleted" : "count.matching", { count: list.total, total, type })}
          {list.atLeast && (
            <>
              {" "}
              <a href={listHref(params, { count: "all" })} title={t("count.countAllHint")}>
                {t("count.countAll")}
              </a>
            </>
          )}
        </p>
      </div>
      <Notices notices={list.notices.map((notice) => render(notice, locale))} />
      <ObjectFilters
        values={{ ...params, mode: list.filter.state?.mode ?? params.mode, size: String(list.pageSize) }}
        types={list.types}
        registrars={list.registrars}
        states={list.states}
        pageSizes={PAGE_SIZES}
        timeZone={readConfig().registryTimeZone}
      />
      <div className="list-tools">
        {/* The whole filter: a choice of its own, with its count (the chosen rows have theirs above the table). */}
        {canWrite && (list.total > 0 || list.atLeast) && (
          <a
            className="bulk-filter"
            href={`/requests/bulk?filter=${encodeURIComponent(listQuery(here, fromStart({ size: null, jump: null })))}`}
          >
            {t("bulkFilter", { count: list.total, total })}
          </a>
        )}
        <ExportButton query={listQuery(here, fromStart({ size: null, jump: null }))} count={{ total: list.total, atLeast: list.atLeast }} />
      </div>
      {rows.length === 0 ? (
        <div className="empty" role="status">
          <p>{t("empty.text", { type })}</p>
          <p>
            <a href="/objects">{t("empty.clear")}</a>
          </p>
        </div>
      ) : (
        <>
          {list.when && list.filter.state && <WhenCaption state={list.filter.state} states={list.filterStates} />}
          <ObjectsTable
            rows={rows}
            states={list.states}
            sort={list.sort}
            sortHrefs={sortHrefs}
            hidden={hidden}
            saveColumns={setHiddenColumnsAction}
            selectable={canWrite}
            when={list.when}
          />
          <ListPager
            first={list.atStart ? null : listHref(here, fromStart())}
            previous={list.previous ? listHref(here, fromStart({ before: list.previous })) : null}
            next={list.next ? listHref(here, fromStart({ after: list.next })) : null}
            last={list.atEnd ? null : listHref(here, fromStart({ last: "1" }))}
            status={t("pager.status", {
              count: rows.length,
              rows: fmt.number(rows.length),
              position: list.atStart ? "start" : list.atEnd ? "end" : "middle",
              total,
            })}
          />
        </>
      )}
    </>
  );
}
