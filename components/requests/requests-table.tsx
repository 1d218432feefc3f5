"use client";

import type { Phase, RequestRow } from "@/lib/requests/read";

/** A request as the list shows it: its times and its cancellation already written out by the server in the page's language. */
export type RequestsTableRow = Pick<RequestRow, "id" | "objectId" | "object" | "objectType" | "state" | "phase" | "reason" | "author"> & {
  period: string;
  /** When, by whom and why it was canceled; null when it was not. */
  canceled: string | null;
};

export interface RequestsTableLabels {
  columns: {
    request: string;
    object: string;
    state: string;
    phase: string;
    period: string;
    reason: string;
    author: string;
    canceled: string;
  };
  /** Each object type's (of the rows shown) and each phase's name. */
  types: Record<string, string>;
  phases: Record<Phase, string>;
  none: string;
  empty: string;
}

/**
 * The request list. Like the object list, its rows reach the browser once, as data, instead of as a
 * rendered tree in the page's payload as well as in its HTML (a server-rendered table of 50
 * requests sent the browser 68 KB of payload for 21 KB of table). Links are plain links: a list of
 * requests must not make the browser prefetch every object page in it.
 */
export function RequestsTable({ rows, labels }: { rows: RequestsTableRow[]; labels: RequestsTableLabels }) {
  if (rows.length === 0) return <p className="muted">{labels.empty}</p>;
  const { columns, none } = labels;
  return (
    <table className="data-table requests">
      <thead>
        <tr>
          {[
            columns.request,
            columns.object,
            columns.state,
            columns.phase,
            columns.period,
            columns.reason,
            columns.author,
            columns.canceled,
          ].map((header) => (
            <th key={header} scope="col">
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id}>
            <td data-label={columns.request}>{r.id}</td>
            <td data-label={columns.object}>
              <a href={`/objects/${r.objectId}#requests`}>
                {r.object} <span className="muted">({labels.types[r.objectType] ?? r.objectType})</span>
              </a>
            </td>
            <td data-label={columns.state}>{r.state}</td>
            <td data-label={columns.phase}>
              <span className={`status status-${r.phase.replace(" ", "-")}`}>{labels.phases[r.phase]}</span>
            </td>
            <td className="period" data-label={columns.period}>
              {r.period}
            </td>
            <td data-label={columns.reason}>{r.reason ?? none}</td>
            <td data-label={columns.author}>{r.author ?? none}</td>
            <td data-label={columns.canceled}>{r.canceled ?? none}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
