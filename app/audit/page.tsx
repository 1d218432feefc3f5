import type { Metadata } from "next";
import { Notices } from "@/components/notices";
import { listAudit } from "@/lib/audit/query";
import { forPage } from "@/lib/auth/page";
import { formatInstant } from "@/lib/format/datetime";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage(props: PageProps<"/audit">) {
  const params = await props.searchParams;
  const audit = await forPage(() => listAudit(params));
  const older = new URLSearchParams(Object.entries(audit.filters).filter(([, v]) => v));
  if (audit.nextBefore) older.set("before", String(audit.nextBefore));
  return (
    <>
      <div className="page-head">
        <h1>Audit log</h1>
        <p className="muted">Newest first · append-only, hash-chained</p>
      </div>
      <Notices notices={audit.notices} />
      <form className="filters" method="get">
        <label>
          Actor
          <input name="actor" defaultValue={audit.filters.actor} />
        </label>
        <label>
          Action
          <select name="action" defaultValue={audit.filters.action}>
            <option value="">any</option>
            {audit.actions.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
        <label>
          Object (id, name or handle)
          <input name="object" defaultValue={audit.filters.object} />
        </label>
        <label>
          From
          <input name="from" type="datetime-local" defaultValue={audit.filters.from} />
        </label>
        <label>
          To
          <input name="to" type="datetime-local" defaultValue={audit.filters.to} />
        </label>
        <button type="submit">Filter</button>
      </form>
      {audit.rows.length === 0 ? (
        <p className="empty">No audit entries match.</p>
      ) : (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Time</th>
              <th scope="col">Actor</th>
              <th scope="col">Action</th>
              <th scope="col">Objects</th>
              <th scope="col">Input</th>
              <th scope="col">Result</th>
              <th scope="col">Client</th>
            </tr>
          </thead>
          <tbody>
            {audit.rows.map((row) => (
              <tr key={row.id}>
                <td>{row.id}</td>
                <td className="nowrap">{formatInstant(row.at)}</td>
                <td>
                  {row.actor ?? "—"}
                  {row.role && <div className="muted">{row.role}</div>}
                </td>
                <td className="mono">{row.action}</td>
                <td>{row.objectIds.join(", ")}</td>
                <td className="mono">{Object.keys(row.input).length ? JSON.stringify(row.input) : ""}</td>
                <td className={`result-${row.result}`}>
                  {row.result}
                  {row.errorCode && <div className="muted">{row.errorCode}</div>}
                </td>
                <td className="mono">{row.clientAddress ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {audit.nextBefore && (
        <nav className="pager" aria-label="Pages">
          <a className="pager-link" href={`/audit?${older.toString()}`}>
            Older entries ›
          </a>
        </nav>
      )}
    </>
  );
}
