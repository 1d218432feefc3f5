import type { ReactNode } from "react";

export interface SimpleColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

/** A read-only data table: a header row and a row per item; `empty` when there are no items. */
export function SimpleTable<T>({
  rows,
  columns,
  rowKey,
  className,
  empty,
}: {
  rows: T[];
  columns: SimpleColumn<T>[];
  rowKey: (row: T) => string | number;
  className?: string;
  empty: string;
}) {
  if (rows.length === 0) return <p className="muted">{empty}</p>;
  return (
    <table className={`data-table${className ? ` ${className}` : ""}`}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.header} scope="col">
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((c) => (
              <td key={c.header} className={c.className} data-label={c.header}>
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
