export interface ObjectsTableRow {
  id: number;
  name: string;
  type: string;
  sponsoringRegistrar: string | null;
  created: string;
}

export function ObjectsTable({ rows }: { rows: ObjectsTableRow[] }) {
  if (rows.length === 0) {
    return <p className="empty">No objects match.</p>;
  }
  return (
    <table className="data-table">
      <thead>
        <tr>
          <th scope="col">Name / handle</th>
          <th scope="col">Type</th>
          <th scope="col">Sponsoring registrar</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id}>
            <td className="name">{row.name}</td>
            <td>
              <span className={`type type-${row.type}`}>{row.type}</span>
            </td>
            <td>{row.sponsoringRegistrar ?? "—"}</td>
            <td className="nowrap">{row.created}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
