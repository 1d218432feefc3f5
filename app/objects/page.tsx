import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Suspense } from "react";
import { Notices } from "@/components/notices";
import { ExportButton } from "@/components/objects/export-button";
import { ListPager } from "@/components/objects/list-pager";
import { ObjectFilters } from "@/components/objects/object-filters";
import { ObjectsTable } from "@/components/objects/objects-table";
import { authorize, currentActor } from "@/lib/auth/guard";
import { forPage } from "@/lib/auth/page";
import { roleAllows } from "@/lib/auth/roles";
import { readConfig } from "@/lib/config";
import { formatInstant } from "@/lib/format/datetime";
import { listObjects, PAGE_SIZES } from "@/lib/objects/list";
import { sortParam } from "@/lib/objects/paging";
import { fromStart, listHref, listQuery } from "@/lib/objects/url";

export const metadata: Metadata = { title: "Objects" };

const SORTABLE = ["name", "created", "expires"] as const;

type Params = Awaited<PageProps<"/objects">["searchParams"]>;

/**
 * Access is decided before anything is sent, so a refused request gets its 401/403 status; the
 * list itself streams in behind a loading message that shows again whenever the filters change.
 */
export default async function ObjectsPage(props: PageProps<"/objects">) {
  const params = await props.searchParams;
  await forPage(() => authorize("registry.read", "objects.list"));
  return (
    <Suspense
      key={listQuery(params)}
      fallback={
        <div className="loading" role="status" aria-live="polite">
          <h1>Objects</h1>
          <p>Loading objects…</p>
        </div>
      }
    >
      <ObjectList params={params} />
    </Suspense>
  );
}

async function ObjectList({ params }: { params: Params }) {
  const list = await forPage(() => listObjects(params));
  const actor = await currentActor();
  const canWrite = actor !== null && roleAllows(actor.role, "requests.write");
  // An exact name or handle goes straight to its object, unless the person asked for the list.
  if (list.exactMatch !== null && params.jump !== "no") redirect(`/objects/${list.exactMatch}`);

  const rows = list.rows.map((row) => ({ ...row, created: formatInstant(row.created) }));
  const sortHrefs: Record<string, { asc: string; desc: string }> = {};
  for (const key of SORTABLE) {
    if (key === "expires" && list.type !== "domain") continue;
    sortHrefs[key] = {
      asc: listHref(params, fromStart({ sort: key === "name" ? null : key })),
      desc: listHref(params, fromStart({ sort: `-${key}` })),
    };
  }
  const sort = sortParam(list.sort);
  const here = { ...params, sort: sort === "name" ? undefined : sort };
  const atStart = list.atStart;
  const total = `${list.estimated ? "about " : ""}${list.total.toLocaleString("en")}`;
  const what = list.type ? `${list.type}s` : "objects";

  return (
    <>
      <div className="page-head">
        <h1>Objects</h1>
        <p className="muted" aria-live="polite">
          {total} {list.filter.deleted === "only" ? "deleted" : "matching"} {what}
          {list.estimated && <span title="Counting them all would take too long; this is the database's estimate."> (estimate)</span>}
        </p>
      </div>
      <Notices notices={list.notices} />
      <ObjectFilters
        values={{ ...params, mode: list.filter.state?.mode ?? params.mode, size: String(list.pageSize) }}
        types={list.types}
        registrars={list.registrars}
        states={list.states}
        pageSizes={PAGE_SIZES}
        timeZone={readConfig().registryTimeZone}
      />
      <div className="list-tools">
        {canWrite && (
          <a href={`/requests/bulk?filter=${encodeURIComponent(listQuery(here, fromStart({ size: null, jump: null })))}`}>
            Bulk change these…
          </a>
        )}
        <ExportButton query={listQuery(here, fromStart({ size: null, jump: null }))} total={list.total} />
      </div>
      {rows.length === 0 ? (
        <div className="empty" role="status">
          <p>No {what} match these filters.</p>
          <p>
            <a href="/objects">Clear all filters</a>
          </p>
        </div>
      ) : (
        <>
          <ObjectsTable rows={rows} states={list.states} sorting={[{ id: list.sort.key, desc: list.sort.desc }]} sortHrefs={sortHrefs} />
          <ListPager
            first={atStart ? null : listHref(here, fromStart())}
            previous={list.previous ? listHref(here, fromStart({ before: list.previous })) : null}
            next={list.next ? listHref(here, fromStart({ after: list.next })) : null}
            last={list.atEnd ? null : listHref(here, fromStart({ last: "1" }))}
            status={`${rows.length.toLocaleString("en")} rows${atStart ? " from the start" : list.atEnd ? " at the end" : ""} · ${total} in all`}
          />
        </>
      )}
    </>
  );
}
