"use client";

import type { OnChangeFn, ColumnVisibilityState as VisibilityState } from "@tanstack/react-table";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import type { HiddenColumns, TableName } from "@/lib/tables/columns";

/** The server action that keeps the columns a person hides in a table (the form: `table`, and `hidden` for each). */
export type SaveColumnsAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/**
 * A table's column visibility for TanStack Table, starting from the columns the person hides and
 * saving every change with their user (so each browser they use shows the same columns) through `save`.
 */
export function usePersonColumns(
  table: TableName,
  hidden: HiddenColumns,
  save: SaveColumnsAction,
): { columnVisibility: VisibilityState; onColumnVisibilityChange: OnChangeFn<VisibilityState>; saving: boolean } {
  const [columnVisibility, setColumnVisibility] = useState<VisibilityState>(hidden);
  const [saving, startSaving] = useTransition();
  const onColumnVisibilityChange: OnChangeFn<VisibilityState> = (updater) => {
    const next = typeof updater === "function" ? updater(columnVisibility) : updater;
    setColumnVisibility(next);
    const form = new FormData();
    form.set("table", table);
    for (const [column, shown] of Object.entries(next)) if (shown === false) form.append("hidden", column);
    startSaving(() => void save(null, form));
  };
  return { columnVisibility, onColumnVisibilityChange, saving };
}

interface PickerColumn {
  id: string;
  getIsVisible(): boolean;
  getCanHide(): boolean;
  getToggleVisibilityHandler(): (event: unknown) => void;
}

/** The "Columns" picker above a table: a box per column (its key column cannot be hidden). */
export function ColumnPicker({
  columns,
  label,
  summary,
  legend,
  saving,
}: {
  columns: PickerColumn[];
  label: (id: string) => string;
  summary: string;
  legend: string;
  saving: boolean;
}) {
  return (
    <details className="column-picker">
      <summary>{summary}</summary>
      <fieldset aria-busy={saving}>
        <legend>{legend}</legend>
        {columns.map((column) => (
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
  );
}
