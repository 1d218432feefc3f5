"use client";

import {
  type ColumnVisibilityState,
  columnVisibilityFeature,
  createColumnHelper,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  type Updater,
  useTable,
} from "@tanstack/react-table";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

export interface ObjectsTableRow {
  id: number;
  name: string;
  type: string;
  sponsoringRegistrar: string | null;
  /** Already formatted in the registry's time zone. */
  created: string;
  expires: string | null;
  states: string[];
  pendingRequests: number;
}

export interface StateBadgeInfo {
  name: string;
  description: string;
  manual: boolean;
  external: boolean;
}

interface ObjectsTableProps {
  rows: ObjectsTableRow[];
  states: StateBadgeInfo[];
  /** The list's order, as the URL's sort parameter names it. */
  sorting: SortingState;
  /** Sort links for each sortable column, per direction, built by the server from the current URL. */
  sortHrefs: Record<string, { asc: string; desc: string }>;
}

// Stable inputs for TanStack Table: features and columns at module scope.
const features = tableFeatures({ columnVisibilityFeature, rowSortingFeature });
const helper = createColumnHelper<typeof features, ObjectsTableRow>();

/** Columns a person may hide; name always shows. */
const COLUMN_LABELS: Record<string, string> = {
  name: "Name / handle",
  type: "Type",
  registrar: "Sponsoring registrar",
  states: "States now",
  created: "Created",
  expires: "Expires",
  pending: "Pending requests",
};
const VISIBILITY_KEY = "objects.columns";

function StateBadges({ names, catalogue }: { names: string[]; catalogue: Map<string, StateBadgeInfo> }) {
  if (names.length === 0) return <span className="muted">none</span>;
  return (
    <ul className="badges">
      {names.map((name) => {
        const info = catalogue.get(name);
        const marks = [info?.manual ? "manual" : "automatic", info?.external ? "external (shown to registrars)" : "internal"];
        return (
          <li
            key={name}
            className={`badge${info?.external ? " external" : ""}${info?.manual ? " manual" : ""}`}
            title={`${info?.description ?? name} — ${marks.join(", ")}`}
          >
            {name}
          </li>
        );
      })}
    </ul>
  );
}

export function ObjectsTable({ rows, states, sorting, sortHrefs }: ObjectsTableProps) {
  const router = useRouter();
  const catalogue = new Map(states.map((s) => [s.name, s]));
  const [columnVisibility, setColumnVisibility] = useState<ColumnVisibilityState>({});

  // The choice of columns is the person's own: kept in this browser.
  useEffect(() => {
    try {
      const saved = localStorage.getItem(VISIBILITY_KEY);
      if (saved) setColumnVisibility(JSON.parse(saved));
    } catch {
      // unreadable: all columns
    }
  }, []);
  const onColumnVisibilityChange = (updater: Updater<ColumnVisibilityState>) => {
    setColumnVisibility((previous) => {
      const next = typeof updater === "function" ? updater(previous) : updater;
      localStorage.setItem(VISIBILITY_KEY, JSON.stringify(next));
      return next;
    });
  };
  // Sorting is the server's: a new order is a new URL.
  const onSortingChange = (updater: Updater<SortingState>) => {
    const next = typeof updater === "function" ? updater(sorting) : updater;
    const [sort] = next;
    const href = sort ? sortHrefs[sort.id]?.[sort.desc ? "desc" : "asc"] : sortHrefs.name?.asc;
    if (href) router.push(href);
  };

  const columns = helper.columns([
    helper.accessor("name", {
      id: "name",
      header: COLUMN_LABELS.name,
      enableHiding: false,
      cell: (info) => (
        <Link href={`/objects/${info.row.original.id}`} className="name">
          {info.getValue()}
        </Link>
      ),
    }),
    helper.accessor("type", {
      id: "type",
      header: COLUMN_LABELS.type,
      enableSorting: false,
      cell: (info) => <span className={`type type-${info.getValue()}`}>{info.getValue()}</span>,
    }),
    helper.accessor("sponsoringRegistrar", {
      id: "registrar",
      header: COLUMN_LABELS.registrar,
      enableSorting: false,
      cell: (info) => info.getValue() ?? "—",
    }),
    helper.accessor("states", {
      id: "states",
      header: COLUMN_LABELS.states,
      enableSorting: false,
      cell: (info) => <StateBadges names={info.getValue()} catalogue={catalogue} />,
    }),
    helper.accessor("created", {
      id: "created",
      header: COLUMN_LABELS.created,
      cell: (info) => <span className="nowrap">{info.getValue()}</span>,
    }),
    helper.accessor("expires", {
      id: "expires",
      header: COLUMN_LABELS.expires,
      enableSorting: Boolean(sortHrefs.expires),
      cell: (info) => <span className="nowrap">{info.getValue() ?? "—"}</span>,
    }),
    helper.accessor("pendingRequests", {
      id: "pending",
      header: COLUMN_LABELS.pending,
      enableSorting: false,
      cell: (info) =>
        info.getValue() > 0 ? (
          <Link
            href={`/objects/${info.row.original.id}#requests`}
            aria-label={`${info.getValue()} pending requests of ${info.row.original.name}`}
          >
            {info.getValue()}
          </Link>
        ) : (
          <span className="muted">0</span>
        ),
    }),
  ]);

  const table = useTable({
    features,
    columns,
    data: rows,
    getRowId: (row) => String(row.id),
    manualSorting: true,
    enableSortingRemoval: false,
    state: { sorting, columnVisibility },
    onSortingChange,
    onColumnVisibilityChange,
  });

  return (
    <>
      <details className="column-picker">
        <summary>Columns</summary>
        <fieldset>
          <legend>Show columns</legend>
          {table.getAllLeafColumns().map((column) => (
            <label key={column.id}>
              <input
                type="checkbox"
                checked={column.getIsVisible()}
                disabled={!column.getCanHide()}
                onChange={column.getToggleVisibilityHandler()}
              />
              {COLUMN_LABELS[column.id]}
            </label>
          ))}
        </fieldset>
      </details>
      <p className="badge-legend">
        State badges: <span className="badge external">dark edge</span> external (registrars see it),{" "}
        <span className="badge manual">yellow</span> manual (set by a request); hover a badge for its meaning.
      </p>
      <table className="data-table objects-table">
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                return (
                  <th key={header.id} scope="col" aria-sort={sorted ? (sorted === "asc" ? "ascending" : "descending") : undefined}>
                    {header.column.getCanSort() ? (
                      <button type="button" className="sort" onClick={header.column.getToggleSortingHandler()}>
                        <table.FlexRender header={header} />
                        <span aria-hidden="true" className="sort-mark">
                          {sorted === "asc" ? " ▲" : sorted === "desc" ? " ▼" : " ↕"}
                        </span>
                      </button>
                    ) : (
                      <table.FlexRender header={header} />
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
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className={`col-${cell.column.id}`}>
                  <table.FlexRender cell={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
