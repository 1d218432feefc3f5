import { randomUUID } from "node:crypto";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { ProhibitionChoices } from "@/components/objects/prohibition-choices";
import { RequestForm } from "@/components/objects/request-form";
import { StateTimeline, type TimelineBar } from "@/components/objects/state-timeline";
import { SimpleTable } from "@/components/simple-table";
import { ActionForm } from "@/components/users/action-form";
import { forPage } from "@/lib/auth/page";
import { readConfig } from "@/lib/config";
import { formatCancellation, formatInstant, formatPeriod } from "@/lib/format/datetime";
import { type ObjectRef, objectDetail, visibleRows } from "@/lib/objects/detail";
import { DEFAULT_PROHIBITIONS, isProhibition } from "@/lib/requests/blocks";
import { REASON_MAX } from "@/lib/requests/write";
import { blockAction, cancelRequestAction, changeBlockAction, createRequestAction, previewRequestAction, unblockAction } from "./actions";

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
  // Long tables are cut to their newest rows unless asked for in full: an object with hundreds of
  // periods or requests would otherwise make a page of a megabyte. Requests that can still change
  // (pending, in force) are always shown.
  const search = await props.searchParams;
  const showAllHistory = search.history === "all";
  const showAllRequests = search.requests === "all";
  const { history: historyRows, requests: requestRows } = visibleRows(object, { history: showAllHistory, requests: showAllRequests });
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
        label: `${r.state}, pending request ${r.id}: ${formatPeriod(r.from, r.to)}`,
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
        label: `${p.state}, foreseen by the rules if nothing changes: ${formatPeriod(p.from, p.to)}`,
      })),
  ];
  const lanes = [...new Set(bars.map((b) => b.state))];
  const prohibitionChoices = (checked: (name: string) => boolean) =>
    object.requestable.filter((r) => isProhibition(r.name)).map((r) => ({ name: r.name, checked: checked(r.name) }));
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
      <SimpleTable
        className="states-now"
        empty="No states."
        rows={object.states}
        rowKey={(s) => s.name}
        columns={[
          { header: "State", cell: (s) => s.name },
          { header: "Meaning", cell: (s) => s.description },
          {
            header: "Kind",
            className: "nowrap",
            cell: (s) => `${s.manual ? "manual" : "automatic"}, ${s.external ? "external" : "internal"}`,
          },
          { header: "Since", className: "nowrap", cell: (s) => formatInstant(s.since) },
          {
            header: "Why",
            className: "why",
            cell: (s) => s.reason ?? "No rule or request explains it now; the state engine closes it at its next run.",
          },
        ]}
      />

      <h2>State history</h2>
      {lanes.length === 0 ? (
        <p className="muted">No state history.</p>
      ) : (
        <StateTimeline lanes={lanes} bars={bars} now={now} created={object.created} timeZone={timeZone} />
      )}
      <details className="history-table" id="history-table" open={showAllHistory || undefined}>
        <summary>History as a table ({object.history.length} periods)</summary>
        {historyRows.length < object.history.length && (
          <p className="muted">
            The newest {historyRows.length} of {object.history.length} periods ·{" "}
            <Link href={`/objects/${object.id}?history=all${showAllRequests ? "&requests=all" : ""}#history-table`}>
              show all {object.history.length}
            </Link>
          </p>
        )}
        <SimpleTable
          empty="No state history."
          rows={historyRows}
          rowKey={(h) => `${h.state}-${h.from}`}
          columns={[
            { header: "State", cell: (h) => h.state },
            { header: "From", className: "nowrap", cell: (h) => formatInstant(h.from) },
            { header: "Until", className: "nowrap", cell: (h) => (h.to ? formatInstant(h.to) : "in force") },
          ]}
        />
      </details>

      {(object.block || (object.canWrite && object.requestable.some((r) => r.name === "serverBlocked"))) && (
        <section className="panel" aria-labelledby="blocking">
          <h2 id="blocking">Administrative block</h2>
          {object.block ? (
            <>
              <p>
                Blocked (block {object.block.id}) from {formatInstant(object.block.from)}{" "}
                {object.block.to ? `until ${formatInstant(object.block.to)}` : "with no end"}, by {object.block.by}: serverBlocked
                {object.block.prohibitions.length ? `, ${object.block.prohibitions.join(", ")}` : ""}.
              </p>
              {object.canWrite && (
                <ActionForm
                  action={unblockAction}
                  className="inline"
                  confirm={`Lift block ${object.block.id} on ${object.name}? Earlier prohibitions come back.`}
                >
                  <input type="hidden" name="blockId" value={object.block.id} />
                  <input type="hidden" name="objectId" value={object.id} />
                  <input name="reason" required maxLength={REASON_MAX} placeholder="Reason" aria-label="Reason to unblock" />
                  <button type="submit">Unblock</button>
                </ActionForm>
              )}
              {object.canWrite && (
                <details className="change-block">
                  <summary>Change the block</summary>
                  <ActionForm
                    action={changeBlockAction}
                    className="block-form"
                    confirm={`Change block ${object.block.id} on ${object.name}?`}
                  >
                    <input type="hidden" name="blockId" value={object.block.id} />
                    <input type="hidden" name="objectId" value={object.id} />
                    <div className="filter-row">
                      {Date.parse(object.block.from) > Date.now() && (
                        <label>
                          New start ({timeZone}; empty: keep)
                          <input name="from" type="datetime-local" step="1" />
                        </label>
                      )}
                      <label>
                        New end (empty: no end)
                        <input name="to" type="datetime-local" step="1" />
                      </label>
                    </div>
                    <ProhibitionChoices choices={prohibitionChoices((name) => object.block?.prohibitions.includes(name) ?? false)} />
                    <label className="reason">
                      Reason for the change
                      <input name="reason" required maxLength={REASON_MAX} />
                    </label>
                    <button type="submit">Change block</button>
                  </ActionForm>
                </details>
              )}
            </>
          ) : (
            <ActionForm
              action={blockAction}
              className="block-form"
              confirm={`Block ${object.name}? Its prohibitions then change only through the block.`}
            >
              <input type="hidden" name="objectId" value={object.id} />
              <input type="hidden" name="idempotencyKey" value={randomUUID()} />
              <div className="filter-row">
                <label>
                  Block from ({timeZone}; empty: now)
                  <input name="from" type="datetime-local" step="1" />
                </label>
                <label>
                  until (optional)
                  <input name="to" type="datetime-local" step="1" />
                </label>
              </div>
              <ProhibitionChoices choices={prohibitionChoices((name) => DEFAULT_PROHIBITIONS.includes(name))} />
              <label className="reason">
                Reason
                <input name="reason" required maxLength={REASON_MAX} />
              </label>
              <button type="submit">Block</button>
            </ActionForm>
          )}
        </section>
      )}

      <h2 id="requests">Requests</h2>
      {object.canWrite && object.requestable.length > 0 && (
        <section className="panel" aria-labelledby="new-request">
          <h3 id="new-request">Request a state</h3>
          <RequestForm
            action={createRequestAction}
            preview={previewRequestAction}
            objectId={object.id}
            objectName={object.name}
            states={object.requestable}
            timeZone={timeZone}
            reasonMax={REASON_MAX}
          />
        </section>
      )}
      {requestRows.length < object.requests.length && (
        <p className="muted">
          {requestRows.length} of {object.requests.length} requests: every pending or in-force one and the newest others ·{" "}
          <Link href={`/objects/${object.id}?requests=all${showAllHistory ? "&history=all" : ""}#requests`}>
            show all {object.requests.length}
          </Link>
        </p>
      )}
      <SimpleTable
        className="requests"
        empty="No state requests."
        rows={requestRows}
        rowKey={(r) => r.id}
        columns={[
          { header: "Request", cell: (r) => r.id },
          { header: "State", cell: (r) => r.state },
          { header: "Status", cell: (r) => <span className={`status status-${r.status.replace(" ", "-")}`}>{r.status}</span> },
          { header: "Period", className: "nowrap", cell: (r) => formatPeriod(r.from, r.to) },
          { header: "Reason", cell: (r) => r.reason ?? "—" },
          { header: "Author", cell: (r) => r.author ?? "—" },
          { header: "Created", className: "nowrap", cell: (r) => formatInstant(r.created) },
          {
            header: "Canceled",
            cell: (r) => formatCancellation(r),
          },
          ...(object.canWrite
            ? [
                {
                  header: "Cancel",
                  cell: (r: (typeof object.requests)[number]) =>
                    r.blockId && (r.status === "pending" || r.status === "in force") ? (
                      <span className="muted">ends with block {r.blockId}</span>
                    ) : r.status === "pending" || r.status === "in force" ? (
                      <ActionForm
                        action={cancelRequestAction}
                        className="inline cancel-request"
                        confirm={`Cancel request ${r.id} (${r.state})? ${r.status === "in force" ? "The state ends now." : "It will not take effect."}`}
                      >
                        <input type="hidden" name="requestId" value={r.id} />
                        <input type="hidden" name="objectId" value={object.id} />
                        <input
                          name="reason"
                          required
                          maxLength={REASON_MAX}
                          placeholder="Reason"
                          aria-label={`Reason to cancel request ${r.id}`}
                        />
                        <button type="submit">Cancel request {r.id}</button>
                      </ActionForm>
                    ) : null,
                },
              ]
            : []),
        ]}
      />
      <p className="muted">Requests made outside the console have no recorded author.</p>

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
      ) : (
        <SimpleTable
          empty="The console has not changed this object."
          rows={object.audit}
          rowKey={(a) => `${a.at}-${a.action}`}
          columns={[
            { header: "When", className: "nowrap", cell: (a) => formatInstant(a.at) },
            { header: "Who", cell: (a) => a.actor ?? "—" },
            { header: "What", cell: (a) => a.action },
            { header: "Result", cell: (a) => a.result },
          ]}
        />
      )}
    </>
  );
}
