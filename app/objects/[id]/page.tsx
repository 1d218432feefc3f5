import type { Metadata } from "next";
import Link from "next/link";
import { forPage } from "@/lib/auth/page";
import { formatInstant } from "@/lib/format/datetime";
import { objectSummary } from "@/lib/objects/summary";

export const metadata: Metadata = { title: "Object" };

export default async function ObjectPage(props: PageProps<"/objects/[id]">) {
  const { id: idText } = await props.params;
  const id = /^\d{1,10}$/.test(idText) ? Number(idText) : Number.NaN;
  const object = await forPage(() => objectSummary(id));
  if (!object) {
    return (
      <div className="not-found">
        <h1>No object {idText.slice(0, 40)}</h1>
        <p>There is no registry object with this id.</p>
        <p>
          <Link href={`/objects?q=${encodeURIComponent(idText.slice(0, 255))}&jump=no`}>
            Search the object list for “{idText.slice(0, 40)}”
          </Link>
        </p>
      </div>
    );
  }
  return (
    <>
      <div className="page-head">
        <h1>{object.name}</h1>
        <p className="muted">
          <span className={`type type-${object.type}`}>{object.type}</span> · id {object.id}
        </p>
      </div>
      {object.deleted && (
        <div className="notice" role="status">
          <p>Deleted on {formatInstant(object.deleted)}.</p>
        </div>
      )}
      <dl className="facts">
        <dt>Sponsoring registrar</dt>
        <dd>{object.sponsoringRegistrar ?? "—"}</dd>
        <dt>Created</dt>
        <dd>{formatInstant(object.created)}</dd>
        {object.expires && (
          <>
            <dt>Expires</dt>
            <dd>{object.expires}</dd>
          </>
        )}
      </dl>
      <h2>States now</h2>
      {object.states.length === 0 ? (
        <p className="muted">No states.</p>
      ) : (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">State</th>
              <th scope="col">Meaning</th>
              <th scope="col">Kind</th>
              <th scope="col">Since</th>
            </tr>
          </thead>
          <tbody>
            {object.states.map((s) => (
              <tr key={s.name}>
                <td>{s.name}</td>
                <td>{s.description}</td>
                <td>
                  {s.manual ? "manual" : "automatic"}, {s.external ? "external" : "internal"}
                </td>
                <td className="nowrap">{formatInstant(s.since)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2 id="requests">Pending requests</h2>
      {object.pendingRequests.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul>
          {object.pendingRequests.map((r) => (
            <li key={`${r.state}-${r.from}`}>
              {r.state} from {formatInstant(r.from)}
              {r.to ? ` until ${formatInstant(r.to)}` : ", open-ended"}
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link href={`/objects?q=${encodeURIComponent(object.name)}&jump=no`}>Other objects whose name contains “{object.name}”</Link>
      </p>
    </>
  );
}
