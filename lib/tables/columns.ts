/**
 * The console's data tables and their columns, by id: the one list the tables (on TanStack Table)
 * draw their column models from and the server checks a person's saved choice of columns against.
 * The first column of each is its key and cannot be hidden.
 */
export const TABLE_COLUMNS = {
  // statesAt, from and until: only for a filter by an instant or a window (issue 41, item 5).
  objects: ["name", "type", "registrar", "states", "statesAt", "from", "until", "created", "expires", "pending"],
  requests: ["request", "object", "state", "phase", "period", "reason", "author", "canceled"],
} as const;

export type TableName = keyof typeof TABLE_COLUMNS;
export type TableColumn<T extends TableName> = (typeof TABLE_COLUMNS)[T][number];
/** TanStack Table's column visibility: false for each hidden column. */
export type HiddenColumns = Record<string, false>;

/** The hidden columns of `table` in a saved choice, keeping only columns the table has (never its key). */
export function hiddenColumnsOf(table: TableName, saved: unknown): HiddenColumns {
  const choice = (saved as Record<string, unknown> | null)?.[table];
  if (!choice || typeof choice !== "object") return {};
  // Never the key column (the first): only the others can be hidden.
  const [, ...hideable] = TABLE_COLUMNS[table] as readonly string[];
  return Object.fromEntries(
    hideable.filter((column) => (choice as Record<string, unknown>)[column] === false).map((column) => [column, false]),
  );
}

/**
 * A body cell drawn by its column's definition, called with the row alone. The tables call it
 * instead of building TanStack's cell objects and a FlexRender component for every cell: at 50
 * rows those cost the server about 4 ms a page (TanStack Table 9.3, renderToString, measured).
 * Every column definition of the console's tables renders from `row` alone.
 */
export function renderCell<TRow>(column: { columnDef: { cell?: unknown } }, row: TRow): import("react").ReactNode {
  const cell = column.columnDef.cell;
  return typeof cell === "function" ? (cell as (context: { row: TRow }) => import("react").ReactNode)({ row }) : null;
}
