"use client";

import { type ColumnDef, columnVisibilityFeature, rowSortingFeature, tableFeatures, useTable } from "@tanstack/react-table";
import { useMemo } from "react";
import { ColumnPicker, type SaveColumnsAction, usePersonColumns } from "@/components/column-picker";
import type { Phase, RequestRow } from "@/lib/requests/read";
import { type HiddenColumns, renderCell, TABLE_COLUMNS, type TableColumn } from "@/lib/tables/columns";

/** A request as the list shows it: its times and its cancellation already written out by the server in the page's language. */
export type RequestsTableRow = Pick<RequestRow, "id" | "objectId" | "object" | "objectType" | "state" | "phase" | "reason" | "author"> & {
  period: string;
  /** When, by whom and why it was canceled; null when it was not. */
  canceled: string | null;
};

type Column = TableColumn<"requests">;

interface RequestsTableLabels {
  columns: Record<Column, string>;
  /** Each object type's (of the rows shown) and each phase's name. */
  types: Record<string, string>;
  phases: Record<Phase, string>;
  none: string;
  empty: string;
  columnPicker: string;
  showColumns: string;
}

/** What the request list uses of TanStack Table: hiding columns, and its order (sorted by the server: manualSorting). */
const features = tableFeatures({ columnVisibilityFeature, rowSortingFeature });

interface RequestsTableProps {
  rows: RequestsTableRow[];
  labels: RequestsTableLabels;
  /** The order: a sortable column and its direction; null when the list has a fixed order (upcoming). */
  sort: { column: Column; desc: boolean } | null;
  /** Sort links of the sortable columns, per direction, built by the server from the current URL. */
  sortHrefs: Partial<Record<Column, { asc: string; desc: string }>>;
  /** The columns the signed-in person hides (kept with their user). */
  hidden: HiddenColumns;
  /** Keeps the person's hidden columns when they change them. */
  saveColumns: SaveColumnsAction;
}

/**
 * The request list, on TanStack Table: one column model, the person's hidden columns, the order
 * from the URL. Like the object list, its rows reach the browser once, as data, instead of as a
 * rendered tree in the page's payload as well as in its HTML (a server-rendered table of 50
 * requests sent the browser 68 KB of payload for 21 KB of table). Links are plain links: a list of
 * requests must not make the browser prefetch every object page in it.
 */
export function RequestsTable({ rows, labels, sort, sortHrefs, hidden, saveColumns }: RequestsTableProps) {
  const { columnVisibility, onColumnVisibilityChange, saving } = usePersonColumns("requests", hidden, saveColumns);
  const { none } = labels;

  const columns = useMemo(() => {
    const cells: Record<Column, (r: RequestsTableRow) => React.ReactNode> = {
      request: (r) => r.id,
      object: (r) => (
        <a href={`/objects/${r.objectId}#requests`}>
          {r.object} <span className="muted">({labels.types[r.objectType] ?? r.objectType})</span>
        </a>
      ),
      state: (r) => r.state,
      phase: (r) => <span className={`status status-${r.phase.replace(" ", "-")}`}>{labels.phases[r.phase]}</span>,
      period: (r) => r.period,
      reason: (r) => r.reason ?? none,
      author: (r) => r.author ?? none,
      canceled: (r) => r.canceled ?? none,
    };
    const values: Record<Column, (r: RequestsTableRow) => string | number | null> = {
      request: (r) => r.id,
      object: (r) => r.object,
      state: (r) => r.state,
      phase: (r) => r.phase,
      period: (r) => r.period,
      reason: (r) => r.reason,
      author: (r) => r.author,
      canceled: (r) => r.canceled,
    };
    return TABLE_COLUMNS.requests.map(
      (id): ColumnDef<typeof features, RequestsTableRow> => ({
        id,
        accessorFn: values[id],
        header: labels.columns[id],
        cell: ({ row }) => cells[id](row.original),
        enableHiding: id !== "request",
        enableSorting: id in sortHrefs,
      }),
    );
  }, [labels, none, sortHrefs]);

  const sorting = useMemo(() => (sort ? [{ id: sort.column, desc: sort.desc }] : []), [sort]);
  const table = useTable({
    features,
    columns,
    data: rows,
    getRowId: (row) => String(row.id),
    state: { columnVisibility, sorting },
    onColumnVisibilityChange,
    manualSorting: true,
  });

  if (rows.length === 0) return <p className="muted">{labels.empty}</p>;
  // The cells are drawn by their columns' definitions, called directly (see renderCell).
  const visible = table.getVisibleLeafColumns();
  return (
    <>
      <ColumnPicker
        columns={table.getAllLeafColumns()}
        label={(id) => labels.columns[id as Column]}
        summary={labels.columnPicker}
        legend={labels.showColumns}
        saving={saving}
      />
      <table className="data-table requests">
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const id = header.column.id as Column;
                const hrefs = sortHrefs[id];
                const sorted = header.column.getIsSorted();
                return (
                  <th key={id} scope="col" aria-sort={sorted ? (sorted === "asc" ? "ascending" : "descending") : undefined}>
                    {hrefs && header.column.getCanSort() ? (
                      // A click turns the current order round; another column starts newest first.
                      <a className="sort" href={sorted === "desc" ? hrefs.asc : hrefs.desc}>
                        {labels.columns[id]}
                        <span aria-hidden="true" className="sort-mark">
                          {sorted === "asc" ? " ▲" : sorted === "desc" ? " ▼" : " ↕"}
                        </span>
                      </a>
                    ) : (
                      labels.columns[id]
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {visible.map((column) => (
                <td
                  key={column.id}
                  className={column.id === "period" ? "period" : undefined}
                  data-label={labels.columns[column.id as Column]}
                >
                  {renderCell(column, row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
