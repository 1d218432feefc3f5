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
import { useTranslations } from "@/lib/i18n/client";

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

/** The columns (a person may hide all but name); their labels are the catalogue's table.columns. */
const COLUMNS = ["name", "type", "registrar", "states", "created", "expires", "pending"] as const;
type ColumnId = (typeof COLUMNS)[number];
const isColumn = (id: string): id is ColumnId => (COLUMNS as readonly string[]).includes(id);
const VISIBILITY_KEY = "objects.columns";

function StateBadges({ names, catalogue }: { names: string[]; catalogue: Map<string, StateBadgeInfo> }) {
  const t = useTranslations("objects");
  if (names.length === 0) return <span className="muted">{t("table.noStates")}</span>;
  return (
    <ul className="badges">
      {names.map((name) => {
        const info = catalogue.get(name);
        const marks = [info?.manual ? t("table.manual") : t("table.automatic"), info?.external ? t("table.external") : t("table.internal")];
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
  const t = useTranslations("objects");
  const tc = useTranslations("common");
  const label = (id: string) => (isColumn(id) ? t(`table.columns.${id}`) : id);
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
      header: label("name"),
      enableHiding: false,
      cell: (info) => (
        <Link href={`/objects/${info.row.original.id}`} className="name">
          {info.getValue()}
        </Link>
      ),
    }),
    helper.accessor("type", {
      id: "type",
      header: label("type"),
      enableSorting: false,
      cell: (info) => <span className={`type type-${info.getValue()}`}>{t("typeName", { type: info.getValue() })}</span>,
    }),
    helper.accessor("sponsoringRegistrar", {
      id: "registrar",
      header: label("registrar"),
      enableSorting: false,
      cell: (info) => info.getValue() ?? tc("none"),
    }),
    helper.accessor("states", {
      id: "states",
      header: label("states"),
      enableSorting: false,
      cell: (info) => <StateBadges names={info.getValue()} catalogue={catalogue} />,
    }),
    helper.accessor("created", {
      id: "created",
      header: label("created"),
      cell: (info) => <span className="nowrap">{info.getValue()}</span>,
    }),
    helper.accessor("expires", {
      id: "expires",
      header: label("expires"),
      enableSorting: Boolean(sortHrefs.expires),
      cell: (info) => <span className="nowrap">{info.getValue() ?? tc("none")}</span>,
    }),
    helper.accessor("pendingRequests", {
      id: "pending",
      header: label("pending"),
      enableSorting: false,
      cell: (info) =>
        info.getValue() > 0 ? (
          <Link
            href={`/objects/${info.row.original.id}#requests`}
            aria-label={t("table.pendingLabel", { count: info.getValue(), name: info.row.original.name })}
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
        <summary>{t("table.columnPicker")}</summary>
        <fieldset>
          <legend>{t("table.showColumns")}</legend>
          {table.getAllLeafColumns().map((column) => (
            <label key={column.id}>
              <input
                type="checkbox"
                checked={column.getIsVisible()}
                disabled={!column.getCanHide()}
                onChange={column.getToggleVisibilityHandler()}
              />
              {label(column.id)}
            </label>
          ))}
        </fieldset>
      </details>
      <p className="badge-legend">
        {t.rich("table.legend", {
          external: (chunks) => <span className="badge external">{chunks}</span>,
          manual: (chunks) => <span className="badge manual">{chunks}</span>,
        })}
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
