import type { Metadata } from "next";
import Link from "next/link";
import { Notices } from "@/components/notices";
import { SimpleTable } from "@/components/simple-table";
import { forPage } from "@/lib/auth/page";
import { formatCancellation, formatPeriod } from "@/lib/format/datetime";
import { listHref } from "@/lib/objects/url";
import { listRequests, PHASES } from "@/lib/requests/read";

export const metadata: Metadata = { title: "Requests" };

export default async function RequestsPage(props: PageProps<"/requests">) {
  const params = await props.searchParams;
  const list = await forPage(() => listRequests(params));
  const f = list.filter;
  const here = (changes: Record<string, string | null>) => listHref(params, { after: null, ...changes }, "/requests");
  return (
    <>
      <div className="page-head">
        <h1>Requests</h1>
        <p className="muted">
          {f.upcoming ? "Starting or ending in the next 7 days, soonest first" : "All manual state requests, newest start first"} ·{" "}
          <a href="/requests/bulk">Bulk change…</a>
        </p>
      </div>
      <Notices notices={list.notices} />
      <nav className="type-filter" aria-label="Request views">
        <a href="/requests" aria-current={!f.upcoming && !f.phase ? "page" : undefined}>
          all
        </a>
        <a href="/requests?upcoming=1" aria-current={f.upcoming ? "page" : undefined}>
          upcoming 7 days
        </a>
        {PHASES.map((phase) => (
          <a
            key={phase}
            href={`/requests?phase=${encodeURIComponent(phase)}`}
            aria-current={f.phase === phase && !f.upcoming ? "page" : undefined}
          >
            {phase}
          </a>
        ))}
      </nav>
      <form className="filters" method="get" action="/requests" aria-label="Filter requests">
        <div className="filter-row">
          <label>
            Phase
            <select name="phase" defaultValue={f.phase ?? ""}>
              <option value="">any</option>
              {PHASES.map((phase) => (
                <option key={phase}>{phase}</option>
              ))}
            </select>
          </label>
          <label>
            State
            <select name="state" defaultValue={f.state ?? ""}>
              <option value="">any</option>
              {list.states.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
          <label>
            Author
            <input name="author" defaultValue={f.author ?? ""} maxLength={64} />
          </label>
          <label>
            In force after
            <input name="from" type="date" defaultValue={f.from ?? ""} />
          </label>
          <label>
            Starting before
            <input name="to" type="date" defaultValue={f.to ?? ""} />
          </label>
          <label>
            Batch
            <input name="batch" defaultValue={f.batch ?? ""} maxLength={36} />
          </label>
          {f.upcoming && <input type="hidden" name="upcoming" value="1" />}
          <button type="submit">Apply filters</button>
        </div>
      </form>
      <SimpleTable
        className="requests"
        empty="No requests match."
        rows={list.rows}
        rowKey={(r) => r.id}
        columns={[
          { header: "Request", cell: (r) => r.id },
          {
            header: "Object",
            cell: (r) => (
              <Link href={`/objects/${r.objectId}#requests`}>
                {r.object} <span className="muted">({r.objectType})</span>
              </Link>
            ),
          },
          { header: "State", cell: (r) => r.state },
          { header: "Phase", cell: (r) => <span className={`status status-${r.phase.replace(" ", "-")}`}>{r.phase}</span> },
          { header: "Period", className: "nowrap", cell: (r) => formatPeriod(r.from, r.to) },
          { header: "Reason", cell: (r) => r.reason ?? "—" },
          { header: "Author", cell: (r) => r.author ?? "—" },
          {
            header: "Canceled",
            cell: (r) => formatCancellation(r),
          },
        ]}
      />
      {list.next && (
        <nav className="pager" aria-label="Pages">
          <a className="pager-link" href={here({ after: list.next })} rel="next">
            Next ›
          </a>
        </nav>
      )}
    </>
  );
}
