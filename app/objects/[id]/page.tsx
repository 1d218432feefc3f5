import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { StateTimeline, type TimelineBar } from "@/components/objects/state-timeline";
import { forPage } from "@/lib/auth/page";
import { readConfig } from "@/lib/config";
import { formatInstant } from "@/lib/format/datetime";
import { type ObjectRef, objectDetail } from "@/lib/objects/detail";

export const metadata: Metadata = { title: "Object" };

const ref = (r: ObjectRef | null) => (r ? <Link href={`/objects/${r.id}`}>{r.name}</Link> : "—");
const refList = (list: ObjectRef[]) =>
  list.length === 0
    ? "—"
    : list.map((r, i) => (
        <span key={r.id}>
          {i > 0 && ", "}
          {ref(r)}
        </span>
      ));
const when = (iso: string | null, none = "—") => (iso ? formatInstant(iso) : none);

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="facts">
      {rows.map(([label, value]) => (
        <div key={label} className="fact">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export default async function ObjectPage(props: PageProps<"/objects/[id]">) {
  const { id: idText } = await props.params;
  const id = /^\d{1,10}$/.test(idText) ? Number(idText) : Number.NaN;
  const object = await forPage(() => objectDetail(id));
  if (!object) notFound();
  const timeZone = readConfig().registryTimeZone;
  const now = new Date().toISOString();

  // Timeline: recorded periods solid; pending requests and foreseen states dashed.
  const bars: TimelineBar[] = [
    ...object.history.map((h) => ({
      state: h.state,
      from: h.from,
      to: h.to,
      future: false,
      label: `${h.state}: ${formatInstant(h.from)} → ${h.to ? formatInstant(h.to) : "now (in force)"}`,
    })),
    ...object.requests
      .filter((r) => r.status === "pending")
      .map((r) => ({
        state: r.state,
        from: r.from,
        to: r.to,
        future: true,
        label: `${r.state}, pending request ${r.id}: ${formatInstant(r.from)} → ${r.to ? formatInstant(r.to) : "open-ended"}`,
      })),
    ...object.projected
      .filter(
        (p) => Date.parse(p.from) > Date.parse(now) + 1000 && !object.requests.some((r) => r.status === "pending" && r.state === p.state),
      )
      .map((p) => ({
        state: p.state,
        from: p.from,
        to: p.to,
        future: true,
        label: `${p.state}, foreseen by the rules if nothing changes: ${formatInstant(p.from)} → ${p.to ? formatInstant(p.to) : "open-ended"}`,
      })),
  ];
  const lanes = [...new Set(bars.map((b) => b.state))];
  const d = object.domain;

  return (
    <>
      <div className="page-head">
        <h1>{object.name}</h1>
        <p className="muted">
          <span className={`type type-${object.type}`}>{object.type}</span> · id {object.id} · {object.roid}
        </p>
      </div>
      {object.deleted && (
        <div className="notice deleted-banner" role="status">
          <p>
            <strong>Deleted on {formatInstant(object.deleted)}.</strong> What follows is its history as the registry kept it.
          </p>
        </div>
      )}

      <section className="panel meaning" aria-labelledby="meaning">
        <h2 id="meaning">What this means now</h2>
        <ul>
          {object.inZone !== null && (
            <li>{object.inZone ? "The domain is in the DNS zone." : "The domain is not in the DNS zone (outzone)."}</li>
          )}
          {object.refusals.length === 0 ? (
            <li>No EPP command is refused by its states.</li>
          ) : (
            object.refusals.map((r) => (
              <li key={r.command}>
                EPP <strong>{r.command}</strong> is refused ({r.states.join(", ")}).
              </li>
            ))
          )}
          {object.metadata.deleteCandidateAt && (
            <li>If nothing changes, it becomes a delete candidate on {formatInstant(object.metadata.deleteCandidateAt)}.</li>
          )}
        </ul>
      </section>

      <h2>States now</h2>
      {object.states.length === 0 ? (
        <p className="muted">No states.</p>
      ) : (
        <table className="data-table states-now">
          <thead>
            <tr>
              <th scope="col">State</th>
              <th scope="col">Meaning</th>
              <th scope="col">Kind</th>
              <th scope="col">Since</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {object.states.map((s) => (
              <tr key={s.name}>
                <td>{s.name}</td>
                <td>{s.description}</td>
                <td className="nowrap">
                  {s.manual ? "manual" : "automatic"}, {s.external ? "external" : "internal"}
                </td>
                <td className="nowrap">{formatInstant(s.since)}</td>
                <td className="why">{s.reason ?? "No rule or request explains it now; the state engine closes it at its next run."}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h2>State history</h2>
      {lanes.length === 0 ? (
        <p className="muted">No state history.</p>
      ) : (
        <StateTimeline lanes={lanes} bars={bars} now={now} created={object.created} timeZone={timeZone} />
      )}
      <details className="history-table">
        <summary>History as a table ({object.history.length} periods)</summary>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">State</th>
              <th scope="col">From</th>
              <th scope="col">Until</th>
            </tr>
          </thead>
          <tbody>
            {object.history.map((h) => (
              <tr key={`${h.state}-${h.from}`}>
                <td>{h.state}</td>
                <td className="nowrap">{formatInstant(h.from)}</td>
                <td className="nowrap">{h.to ? formatInstant(h.to) : "in force"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>

      <h2 id="requests">Requests</h2>
      {object.requests.length === 0 ? (
        <p className="muted">No state requests.</p>
      ) : (
        <table className="data-table requests">
          <thead>
            <tr>
              <th scope="col">Request</th>
              <th scope="col">State</th>
              <th scope="col">Status</th>
              <th scope="col">Period</th>
              <th scope="col">Reason</th>
              <th scope="col">Created</th>
              <th scope="col">Canceled</th>
            </tr>
          </thead>
          <tbody>
            {object.requests.map((r) => (
              <tr key={r.id}>
                <td>{r.id}</td>
                <td>{r.state}</td>
                <td>
                  <span className={`status status-${r.status.replace(" ", "-")}`}>{r.status}</span>
                </td>
                <td className="nowrap">
                  {formatInstant(r.from)} → {r.to ? formatInstant(r.to) : "open-ended"}
                </td>
                <td>{r.reason ?? "—"}</td>
                <td className="nowrap">{formatInstant(r.created)}</td>
                <td>{r.canceled ? `${formatInstant(r.canceled)}${r.cancelReason ? `: ${r.cancelReason}` : ""}` : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted">
        Authors of requests are not recorded in the registry tables; requests made in the console are in its audit log.
      </p>

      <div className="detail-columns">
        <section aria-labelledby="data">
          <h2 id="data">Object data</h2>
          {d && (
            <Facts
              rows={[
                ["Zone", d.zone],
                ["Expires", d.expires],
                ["Validation until", d.validationExpires ?? "—"],
                ["Registrant", ref(d.registrant)],
                ["Admin contacts", refList(d.admins)],
                ["Temporary contacts", refList(d.temps)],
                ["NSSET", ref(d.nsset)],
                [
                  "Name servers",
                  d.hosts.length
                    ? d.hosts.map((h) => `${h.fqdn}${h.addresses.length ? ` (${h.addresses.join(", ")})` : ""}`).join("; ")
                    : "—",
                ],
                ["KEYSET", ref(d.keyset)],
              ]}
            />
          )}
          {object.contact && (
            <Facts
              rows={[
                ["Name", object.contact.name ?? "—"],
                ["Organization", object.contact.organization ?? "—"],
                ["E-mail", object.contact.email ?? "—"],
              ]}
            />
          )}
          {(object.type === "nsset" || object.type === "keyset") && (
            <Facts
              rows={[
                ["Technical contacts", refList(object.techContacts)],
                ...(object.type === "nsset"
                  ? ([
                      [
                        "Hosts",
                        object.hosts.map((h) => `${h.fqdn}${h.addresses.length ? ` (${h.addresses.join(", ")})` : ""}`).join("; ") || "—",
                      ],
                    ] as [string, ReactNode][])
                  : []),
              ]}
            />
          )}
          <Facts
            rows={[
              ["Sponsoring registrar", object.sponsoringRegistrar ?? "—"],
              ["Created by", object.creatingRegistrar],
              ["Created", when(object.created)],
              ["Last updated", when(object.updated, "never")],
              ["Updated by", object.updatingRegistrar ?? "—"],
              ["Transferred", when(object.transferred, "never")],
              ["Deleted", when(object.deleted, "no")],
            ]}
          />
        </section>
        <section aria-labelledby="metadata" className="panel">
          <h2 id="metadata">Metadata</h2>
          <Facts
            rows={[
              ["Last update", when(object.metadata.lastUpdate, "never updated")],
              [
                "Referenced by",
                object.metadata.references === null ? "— (domains are not referenced)" : `${object.metadata.references} object link(s)`,
              ],
              ["References last changed", when(object.metadata.referencesChanged, "never")],
              [
                "Delete candidate",
                object.states.some((s) => s.name === "deleteCandidate")
                  ? "now"
                  : when(object.metadata.deleteCandidateAt, "not foreseen while nothing changes"),
              ],
            ]}
          />
        </section>
      </div>

      <h2>Audit entries</h2>
      {object.audit === null ? (
        <p className="muted">The audit log is shown to administrators.</p>
      ) : object.audit.length === 0 ? (
        <p className="muted">The console has not changed this object.</p>
      ) : (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {object.audit.map((a) => (
              <tr key={`${a.at}-${a.action}`}>
                <td className="nowrap">{formatInstant(a.at)}</td>
                <td>{a.actor ?? "—"}</td>
                <td>{a.action}</td>
                <td>{a.result}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
