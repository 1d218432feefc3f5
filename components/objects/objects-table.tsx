"use client";

import {
  type ColumnDef,
  columnVisibilityFeature,
  type RowSelectionState,
  rowSelectionFeature,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  useTable,
} from "@tanstack/react-table";
import { useEffect, useMemo, useState } from "react";
import { ColumnPicker, type SaveColumnsAction, usePersonColumns } from "@/components/column-picker";
import { useTranslations } from "@/lib/i18n/client";
import type { ObjectListPage, StateInfo } from "@/lib/objects/list";
import type { ObjectListRow } from "@/lib/objects/list-query";
import { type HiddenColumns, renderCell, TABLE_COLUMNS, type TableColumn } from "@/lib/tables/columns";

type Column = TableColumn<"objects">;
/** The row-choosing column's id (not one a person hides). */
const SELECT = "select";

/** What the object list uses of TanStack Table: hiding columns, choosing rows, and the order (sorted by the server: manualSorting). */
const features = tableFeatures({ columnVisibilityFeature, rowSelectionFeature, rowSortingFeature });

interface ObjectsTableProps {
  /** The list's rows as lib reads them, `created` already written in the registry's time zone. */
  rows: ObjectListRow[];
  states: Omit<StateInfo, "types">[];
  /** The list's order: the column and its direction. */
  sort: { key: string; desc: boolean };
  /** Sort links for each sortable column, per direction, built by the server from the current URL. */
  sortHrefs: Partial<Record<Column, { asc: string; desc: string }>>;
  /** The columns the signed-in person hides (kept with their user, so on every browser). */
  hidden: HiddenColumns;
  /** Keeps the person's hidden columns when they change them. */
  saveColumns: SaveColumnsAction;
  /** Whether the reader may make bulk changes: rows can then be chosen for one. */
  selectable: boolean;
  /**
   * For a filter by an instant or a window, its "when" columns (issue 41, item 5): "period" adds From
   * and Until (rows carry `when`, instants already written in the registry's time zone), "at" also
   * States then (`statesAt`). `several`: the filter has several states, so each period names its own.
   */
  when?: ObjectListPage["when"];
}

/**
 * The object list, on TanStack Table: one column model, the person's hidden columns, the order
 * from the URL (a header is a link; the server sorts) and rows chosen for a bulk change. Its rows
 * reach the browser once, as data (not as a rendered tree as well). Links are plain links: a list
 * of 50 objects must not make the browser prefetch 50 object pages.
 */
export function ObjectsTable({ rows, states, sort, sortHrefs, hidden, saveColumns, selectable, when = null }: ObjectsTableProps) {
  const t = useTranslations("objects");
  const tc = useTranslations("common");
  const { columnVisibility, onColumnVisibilityChange, saving } = usePersonColumns("objects", hidden, saveColumns);
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  // A badge's explanation (its hover title) is added in the browser: the page brings each state's
  // description once, with the catalogue, instead of in the HTML of every badge (25 KB of a
  // 50-row list of outzone domains).
  const [explained, setExplained] = useState(false);
  useEffect(() => setExplained(true), []);
  // Another page or order of the list: nothing on it is chosen yet.
  const [shownRows, setShownRows] = useState(rows);
  if (shownRows !== rows) {
    setShownRows(rows);
    setRowSelection({});
  }

  // Each state's badge is the same on every row: its class and explanation are worked out once.
  const badges = useMemo(
    () =>
      new Map(
        states.map((s) => [
          s.name,
          {
            className: `badge${s.external ? " external" : ""}${s.manual ? " manual" : ""}`,
            title: `${s.description} — ${t(s.manual ? "table.manual" : "table.automatic")}, ${t(s.external ? "table.external" : "table.internal")}`,
          },
        ]),
      ),
    [states, t],
  );

  // The states that appear on this page, by name, for the key under the table.
  const shownStates = useMemo(() => [...new Set(rows.flatMap((row) => [...row.states, ...(row.statesAt ?? [])]))].sort(), [rows]);

  // Likewise each type's name (formatting a message costs more than looking it up).
  const typeNames = useMemo(
    () => new Map([...new Set(rows.map((row) => row.type))].map((type) => [type, t("typeName", { type })])),
    [rows, t],
  );

  // The column model: one definition per column, its cell drawn from the row.
  const columns = useMemo(() => {
    const badgeList = (names: string[]) =>
      names.length === 0 ? (
        <span className="muted">{t("table.noStates")}</span>
      ) : (
        <ul className="badges">
          {names.map((name) => {
            const badge = badges.get(name);
            return (
              <li key={name} className={badge?.className ?? "badge"} title={explained ? (badge?.title ?? name) : undefined}>
                {name}
              </li>
            );
          })}
        </ul>
      );
    // An end of the matched period: the instant, "ahead" when the forecast's, and the cause of the change ahead.
    const periodEnd = (row: ObjectListRow, end: "from" | "until") => {
      const period = row.when;
      if (!period) return <span className="muted">{tc("none")}</span>;
      const instant = end === "from" ? period.from : period.until;
      const ahead = end === "from" ? period.fromAhead : period.untilAhead;
      return (
        <span className="period-end">
          {when?.several && end === "from" && <span className="period-state">{t("table.periodOf", { state: period.state })} </span>}
          {instant === null ? <span className="muted">{t("table.noEnd")}</span> : <span className="instant">{instant}</span>}
          {ahead && <span className="ahead"> {t("table.ahead")}</span>}
          {period.change === end && period.cause && <span className="cause">{period.cause}</span>}
        </span>
      );
    };
    const cells: Record<Column, (row: ObjectListRow) => React.ReactNode> = {
      name: (row) => (
        <a href={`/objects/${row.id}`} className="name">
          {row.name}
        </a>
      ),
      type: (row) => <span className={`type type-${row.type}`}>{typeNames.get(row.type)}</span>,
      registrar: (row) => row.sponsoringRegistrar ?? tc("none"),
      states: (row) => badgeList(row.states),
      statesAt: (row) => badgeList(row.statesAt ?? []),
      from: (row) => periodEnd(row, "from"),
      until: (row) => periodEnd(row, "until"),
      created: (row) => row.created,
      expires: (row) => row.expires ?? tc("none"),
      pending: (row) =>
        row.pendingRequests > 0 ? (
          <a href={`/objects/${row.id}#requests`} aria-label={t("table.pendingLabel", { count: row.pendingRequests, name: row.name })}>
            {row.pendingRequests}
          </a>
        ) : (
          <span className="muted">0</span>
        ),
    };
    // What each column holds (its value, for TanStack's column state; the order is the server's).
    const values: Record<Column, (row: ObjectListRow) => string | number | null> = {
      name: (row) => row.name,
      type: (row) => row.type,
      registrar: (row) => row.sponsoringRegistrar,
      states: (row) => row.states.join(" "),
      statesAt: (row) => (row.statesAt ?? []).join(" "),
      from: (row) => row.when?.from ?? null,
      until: (row) => row.when?.until ?? null,
      created: (row) => row.created,
      expires: (row) => row.expires,
      pending: (row) => row.pendingRequests,
    };
    // The "when" columns only for a filter by an instant or a window; for "had at", the states then
    // stand where the states now stand elsewhere. They leave out when the object was created, to
    // make room (the CSV has both, and the creation time).
    const notShown: Record<"none" | "period" | "at", readonly Column[]> = {
      none: ["statesAt", "from", "until"],
      period: ["statesAt", "created"],
      at: ["states", "created"],
    };
    const leftOut = notShown[when?.columns ?? "none"];
    const shown = TABLE_COLUMNS.objects.filter((id) => !leftOut.includes(id));
    const defs: ColumnDef<typeof features, ObjectListRow>[] = shown.map((id) => ({
      id,
      accessorFn: values[id],
      header: t(`table.columns.${id}`),
      cell: ({ row }) => cells[id](row.original),
      enableHiding: id !== "name",
      enableSorting: id in sortHrefs,
    }));
    if (selectable)
      defs.unshift({
        id: SELECT,
        header: t("table.select"),
        cell: ({ row }) => (
          <input
            type="checkbox"
            aria-label={t("table.selectRow", { name: row.original.name })}
            checked={row.getIsSelected()}
            onChange={row.getToggleSelectedHandler()}
          />
        ),
        enableHiding: false,
        enableSorting: false,
      });
    return defs;
  }, [badges, explained, selectable, sortHrefs, t, tc, typeNames, when]);

  const sorting = useMemo<SortingState>(() => [{ id: sort.key, desc: sort.desc }], [sort.key, sort.desc]);
  const table = useTable({
    features,
    columns,
    data: rows,
    getRowId: (row) => String(row.id),
    state: { columnVisibility, rowSelection, sorting },
    onColumnVisibilityChange,
    onRowSelectionChange: setRowSelection,
    enableRowSelection: selectable,
    manualSorting: true,
  });

  // The cells are drawn by their columns' definitions, called directly: 50 rows of cell objects
  // and a component per cell cost the server about 4 ms a page (TanStack Table 9, measured).
  const visible = table.getVisibleLeafColumns();
  const labelOf = Object.fromEntries(
    visible.map((column) => [column.id, t(column.id === SELECT ? "table.select" : `table.columns.${column.id as Column}`)]),
  );
  const chosen = rows.filter((row) => rowSelection[String(row.id)]);
  const allChosen = table.getIsAllPageRowsSelected();
  const hideable = table.getAllLeafColumns().filter((column) => column.id !== SELECT);

  return (
    <>
      <ColumnPicker
        columns={hideable}
        label={(id) => t(`table.columns.${id as Column}`)}
        summary={t("table.columnPicker")}
        legend={t("table.showColumns")}
        saving={saving}
      />
      <p className="badge-legend">
        {t.rich("table.legend", {
          external: (chunks) => <span className="badge external">{chunks}</span>,
          manual: (chunks) => <span className="badge manual">{chunks}</span>,
        })}
      </p>
      {selectable && (
        // With nothing chosen, a wide screen chooses by the boxes in the table (the bar would cost the list a row's height).
        // Once rows are chosen, the bulk change of exactly those is the bar's first action (the whole filter is a
        // separate link beside the export, with its own count). Each part is its own item: texts never run together.
        <div className={`selection-bar${chosen.length === 0 ? " none-chosen" : ""}`} role="status" aria-live="polite">
          {[
            chosen.length > 0 && (
              <span key="count" className="chosen-count">
                {t("table.chosen", { count: chosen.length })}
              </span>
            ),
            chosen.length > 0 && (
              <a key="bulk" className="button bulk-chosen" href={`/requests/bulk?ids=${chosen.map((row) => row.id).join(",")}`}>
                {t("table.bulkChosen", { count: chosen.length })}
              </a>
            ),
            // On a phone the table's header (and its box for the whole page) is not shown.
            !allChosen && (
              <button key="page" type="button" className="text-button" onClick={() => table.toggleAllPageRowsSelected(true)}>
                {t("table.choosePage", { count: rows.length })}
              </button>
            ),
            chosen.length > 0 && (
              <button key="clear" type="button" className="text-button" onClick={() => table.resetRowSelection()}>
                {t("table.clearChosen")}
              </button>
            ),
          ]
            .filter(Boolean)
            // A space between the parts too, so they read apart as text (a screen reader, a copy) as well as on screen.
            .flatMap((part, i) => (i === 0 ? [part] : [" ", part]))}
        </div>
      )}
      <table className={`data-table objects-table${when ? " says-when" : ""}`}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const id = header.column.id;
                const label = t(id === SELECT ? "table.select" : `table.columns.${id as Column}`);
                if (id === SELECT)
                  return (
                    <th key={id} scope="col" className="col-select">
                      <input
                        type="checkbox"
                        aria-label={t("table.selectPage")}
                        checked={allChosen}
                        ref={(box) => {
                          if (box) box.indeterminate = !allChosen && table.getIsSomePageRowsSelected();
                        }}
                        onChange={table.getToggleAllPageRowsSelectedHandler()}
                      />
                    </th>
                  );
                const hrefs = sortHrefs[id as Column];
                const sorted = header.column.getIsSorted();
                return (
                  <th key={id} scope="col" aria-sort={sorted ? (sorted === "asc" ? "ascending" : "descending") : undefined}>
                    {hrefs && header.column.getCanSort() ? (
                      // A click turns the current order round; another column starts ascending.
                      <a className="sort" href={sorted === "asc" ? hrefs.desc : hrefs.asc}>
                        {label}
                        <span aria-hidden="true" className="sort-mark">
                          {sorted === "asc" ? " ▲" : sorted === "desc" ? " ▼" : " ↕"}
                        </span>
                      </a>
                    ) : (
                      label
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} className={row.getIsSelected() ? "chosen" : undefined}>
              {visible.map((column) => {
                const id = column.id;
                return (
                  <td
                    key={id}
                    className={`col-${id}${id === "expires" || (id === "created" && !when) ? " nowrap" : ""}`}
                    data-label={labelOf[id]}
                  >
                    {renderCell(column, row)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {/* What each state on this page means, readable without hovering (on a phone there is no hover). */}
      {shownStates.length > 0 && (
        <details className="state-key">
          <summary>{t("table.stateKey")}</summary>
          <dl>
            {shownStates.map((name) => (
              <div key={name}>
                <dt>
                  <span className={badges.get(name)?.className ?? "badge"}>{name}</span>
                </dt>
                <dd>{badges.get(name)?.title ?? name}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
    </>
  );
}
