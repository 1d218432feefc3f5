import { randomUUID } from "node:crypto";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { ActionForm } from "@/components/action-form";
import { InheritedAnomalies } from "@/components/objects/inherited-anomalies";
import { ProhibitionChoices } from "@/components/objects/prohibition-choices";
import { RequestForm } from "@/components/objects/request-form";
import { StateTimeline, type TimelineBar } from "@/components/objects/state-timeline";
import { SimpleTable } from "@/components/simple-table";
import { WallTimeInput } from "@/components/wall-time-input";
import { forPage } from "@/lib/auth/page";
import { readConfig } from "@/lib/config";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import { parseId } from "@/lib/input/values";
import { type ObjectRef, objectDetail, visibleRows } from "@/lib/objects/detail";
import { DEFAULT_PROHIBITIONS, isProhibition } from "@/lib/requests/blocks";
import { REASON_MAX } from "@/lib/requests/write";
import { blockAction, cancelRequestAction, changeBlockAction, createRequestAction, previewRequestAction, unblockAction } from "./actions";

export async function generateMetadata() {
  const t = await getTranslations("object");
  return { title: t("title") };
}

const ref = (r: ObjectRef | null, none: string) => (r ? <Link href={`/objects/${r.id}`}>{r.name}</Link> : none);
const refList = (list: ObjectRef[], none: string) =>
  list.length === 0
    ? none
    : list.map((r, i) => (
        <span key={r.id}>
          {i > 0 && ", "}
          {ref(r, none)}
        </span>
      ));

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

/** The lifecycle steps the page foresees, in their usual order, when the object does not hold them yet. */
/** The hidden field that names a block to a form: its console id, or its serverBlocked request when FRED made it. */
function BlockKey({ block }: { block: { id: number | null; requestId: number } }) {
  return block.id === null ? (
    <input type="hidden" name="blockRequestId" value={block.requestId} />
  ) : (
    <input type="hidden" name="blockId" value={block.id} />
  );
}

const NEXT_STATES = ["outzoneUnguardedWarning", "outzone", "deleteWarning"] as const;

export default async function ObjectPage(props: PageProps<"/objects/[id]">) {
  const { id: idText } = await props.params;
  const id = parseId(idText) ?? Number.NaN;
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
  const t = await getTranslations("object");
  const tc = await getTranslations("common");
  const fmt = await getFormat();
  const none = tc("none");
  const when = (iso: string | null, otherwise = none) => (iso ? fmt.instant(iso) : otherwise);
  const period = (from: string, to: string | null) => tc("period", { from: fmt.instant(from), to: to ? fmt.instant(to) : tc("openEnded") });
  const cancellation = (r: { canceled: string | null; canceledBy: string | null; cancelReason: string | null }) => {
    if (!r.canceled) return none;
    const at = fmt.instant(r.canceled);
    if (r.canceledBy && r.cancelReason) return t("requests.canceledByWhy", { when: at, who: r.canceledBy, reason: r.cancelReason });
    if (r.canceledBy) return t("requests.canceledBy", { when: at, who: r.canceledBy });
    if (r.cancelReason) return t("requests.canceledWhy", { when: at, reason: r.cancelReason });
    return t("requests.canceledAt", { when: at });
  };
  // A request's row, on this page when shown, else on the page with every request.
  const requestHref = (requestId: number) =>
    requestRows.some((r) => r.id === requestId)
      ? `#request-${requestId}`
      : `/objects/${object.id}?requests=all${showAllHistory ? "&history=all" : ""}#request-${requestId}`;
  const hosts = (list: { fqdn: string; addresses: string[] }[]) =>
    list.map((h) => `${h.fqdn}${h.addresses.length ? ` (${h.addresses.join(", ")})` : ""}`).join("; ");

  // What is coming: the scheduled requests, soonest first (the summary of what the states mean, the timeline).
  const scheduled = object.requests.filter((r) => r.status === "scheduled").sort((a, b) => Date.parse(a.from) - Date.parse(b.from));

  // Timeline: recorded periods solid; scheduled requests and foreseen states dashed.
  const bars: TimelineBar[] = [
    ...object.history.map((h) => ({
      state: h.state,
      from: h.from,
      to: h.to,
      future: false,
      label: t("timeline.period", { state: h.state, from: fmt.instant(h.from), to: h.to ? fmt.instant(h.to) : t("timeline.nowInForce") }),
    })),
    ...scheduled.map((r) => ({
      state: r.state,
      from: r.from,
      to: r.to,
      future: true,
      label: t("timeline.scheduled", { state: r.state, id: String(r.id), period: period(r.from, r.to) }),
    })),
    ...object.projected
      .filter((p) => Date.parse(p.from) > Date.parse(now) + 1000 && !scheduled.some((r) => r.state === p.state))
      .map((p) => ({
        state: p.state,
        from: p.from,
        to: p.to,
        future: true,
        label: t("timeline.foreseen", { state: p.state, period: period(p.from, p.to) }),
      })),
  ];
  const lanes = [...new Set(bars.map((b) => b.state))];
  const blockAhead = object.block !== null && Date.parse(object.block.from) > Date.parse(now);
  const prohibitionChoices = (checked: (name: string) => boolean) =>
    object.requestable.filter((r) => isProhibition(r.name)).map((r) => ({ name: r.name, checked: checked(r.name) }));
  const d = object.domain;

  return (
    <>
      <div className="page-head">
        <h1>{object.name}</h1>
        <p className="muted">
          <span className={`type type-${object.type}`}>{t("type", { type: object.type })}</span> · {t("id", { id: String(object.id) })} ·{" "}
          {object.roid}
        </p>
      </div>
      {object.deleted && (
        <div className="notice deleted-banner" role="status">
          <p>{t.rich("deleted", { when: fmt.instant(object.deleted), b: (chunks) => <strong>{chunks}</strong> })}</p>
        </div>
      )}

      <section className="panel meaning" aria-labelledby="meaning">
        <h2 id="meaning">{t("meaning.title")}</h2>
        <ul>
          {object.inZone !== null && <li>{object.inZone ? t("meaning.inZone") : t("meaning.outZone")}</li>}
          {object.refusals.length === 0 ? (
            <li>{t("meaning.noRefusals")}</li>
          ) : (
            object.refusals.map((r) => (
              <li key={r.command}>
                {t.rich("meaning.refused", { command: r.command, states: r.states.join(", "), b: (chunks) => <strong>{chunks}</strong> })}
              </li>
            ))
          )}
          {NEXT_STATES.map((state) => {
            // Nothing foreseen for a state it holds, and no warning that it leaves the zone while it is out of it.
            if (object.states.some((s) => s.name === state)) return null;
            if (state === "outzoneUnguardedWarning" && object.inZone === false) return null;
            const next = object.projected.find((p) => p.state === state);
            if (!next) return null;
            // A foreseen period out of the zone that ends (a scheduled serverOutzoneManual): when it returns too.
            return (
              <li key={state}>
                {state === "outzone" && next.to
                  ? t("meaning.nextOutzonePeriod", { when: fmt.instant(next.from), until: fmt.instant(next.to) })
                  : t(`meaning.next.${state}`, { when: fmt.instant(next.from) })}
              </li>
            );
          })}
          {object.metadata.deleteCandidateAt && (
            <li>{t("meaning.deleteCandidate", { when: fmt.instant(object.metadata.deleteCandidateAt) })}</li>
          )}
          {scheduled.map((r) => (
            <li key={r.id}>
              {t.rich("meaning.scheduled", {
                from: fmt.instant(r.from),
                until: r.to ? t("meaning.scheduledUntil", { to: fmt.instant(r.to) }) : "",
                state: r.state,
                id: String(r.id),
                block: r.blockId ? String(r.blockId) : "none",
                b: (chunks) => <strong>{chunks}</strong>,
              })}
            </li>
          ))}
        </ul>
      </section>

      <h2>{t("states.title")}</h2>
      <SimpleTable
        className="states-now"
        empty={t("states.empty")}
        rows={object.states}
        rowKey={(s) => s.name}
        columns={[
          { header: t("states.columns.state"), cell: (s) => s.name },
          { header: t("states.columns.meaning"), cell: (s) => s.description },
          {
            header: t("states.columns.kind"),
            className: "nowrap",
            cell: (s) =>
              t("states.kind", {
                origin: s.manual ? t("states.manual") : t("states.automatic"),
                scope: s.external ? t("states.external") : t("states.internal"),
              }),
          },
          { header: t("states.columns.since"), className: "nowrap", cell: (s) => fmt.instant(s.since) },
          {
            header: t("states.columns.why"),
            className: "why",
            cell: (s) => s.reason ?? t("states.noReason"),
          },
        ]}
      />

      <h2>{t("history.title")}</h2>
      {lanes.length === 0 ? (
        <p className="muted">{t("history.empty")}</p>
      ) : (
        <StateTimeline lanes={lanes} bars={bars} now={now} created={object.created} timeZone={timeZone} />
      )}
      <details className="history-table" id="history-table" open={showAllHistory || undefined}>
        <summary>{t("history.table", { count: object.history.length })}</summary>
        {historyRows.length < object.history.length && (
          <p className="muted">
            {t("history.newest", { shown: fmt.number(historyRows.length), total: fmt.number(object.history.length) })} ·{" "}
            <Link href={`/objects/${object.id}?history=all${showAllRequests ? "&requests=all" : ""}#history-table`}>
              {t("history.showAll", { total: fmt.number(object.history.length) })}
            </Link>
          </p>
        )}
        <SimpleTable
          empty={t("history.empty")}
          rows={historyRows}
          rowKey={(h) => `${h.state}-${h.from}`}
          columns={[
            { header: t("history.columns.state"), cell: (h) => h.state },
            { header: t("history.columns.from"), className: "nowrap", cell: (h) => fmt.instant(h.from) },
            { header: t("history.columns.until"), className: "nowrap", cell: (h) => (h.to ? fmt.instant(h.to) : tc("inForce")) },
          ]}
        />
      </details>

      {(object.block || (object.canWrite && object.requestable.some((r) => r.name === "serverBlocked"))) && (
        <section className="panel" aria-labelledby="blocking">
          <h2 id="blocking">{t("block.title")}</h2>
          {object.block ? (
            <>
              <p>
                {object.block.id === null
                  ? t("block.fredBlocked", {
                      ahead: blockAhead ? "yes" : "no",
                      request: String(object.block.requestId),
                      from: fmt.instant(object.block.from),
                      end: object.block.to ? "until" : "open",
                      to: object.block.to ? fmt.instant(object.block.to) : "",
                      states: ["serverBlocked", ...object.block.prohibitions].join(", "),
                    })
                  : object.block.to
                    ? t(blockAhead ? "block.willBlockUntil" : "block.blockedUntil", {
                        id: String(object.block.id),
                        from: fmt.instant(object.block.from),
                        to: fmt.instant(object.block.to),
                        by: object.block.by ?? "",
                        states: ["serverBlocked", ...object.block.prohibitions].join(", "),
                      })
                    : t(blockAhead ? "block.willBlockOpen" : "block.blockedOpen", {
                        id: String(object.block.id),
                        from: fmt.instant(object.block.from),
                        by: object.block.by ?? "",
                        states: ["serverBlocked", ...object.block.prohibitions].join(", "),
                      })}
              </p>
              {object.block.reason && <p className="muted">{t("block.givenReason", { reason: object.block.reason })}</p>}
              {object.canWrite && (
                <ActionForm
                  action={unblockAction}
                  className="inline"
                  confirm={
                    object.block.id === null
                      ? t("block.unblockFredConfirm", { name: object.name })
                      : t("block.unblockConfirm", { id: String(object.block.id), name: object.name })
                  }
                >
                  <BlockKey block={object.block} />
                  <input type="hidden" name="objectId" value={object.id} />
                  <input
                    name="reason"
                    required
                    maxLength={REASON_MAX}
                    placeholder={t("block.reasonPlaceholder")}
                    aria-label={t("block.unblockReason")}
                  />
                  <button type="submit">{t("block.unblock")}</button>
                </ActionForm>
              )}
              {object.canWrite && (
                <details className="change-block">
                  <summary>{t("block.changeSummary")}</summary>
                  <ActionForm
                    action={changeBlockAction}
                    className="block-form"
                    confirm={
                      object.block.id === null
                        ? t("block.changeFredConfirm", { name: object.name })
                        : t("block.changeConfirm", { id: String(object.block.id), name: object.name })
                    }
                  >
                    <BlockKey block={object.block} />
                    <input type="hidden" name="objectId" value={object.id} />
                    <div className="filter-row">
                      {Date.parse(object.block.from) > Date.now() && (
                        <label>
                          {t("block.newStart", { zone: timeZone })}
                          <WallTimeInput name="from" />
                        </label>
                      )}
                      <label>
                        {t("block.newEnd")}
                        <WallTimeInput name="to" />
                      </label>
                    </div>
                    <ProhibitionChoices choices={prohibitionChoices((name) => object.block?.prohibitions.includes(name) ?? false)} />
                    <label className="reason">
                      {t("block.changeReason")}
                      <input name="reason" required maxLength={REASON_MAX} />
                    </label>
                    <button type="submit">{t("block.change")}</button>
                  </ActionForm>
                </details>
              )}
            </>
          ) : (
            <ActionForm action={blockAction} className="block-form" confirm={t("block.blockConfirm", { name: object.name })}>
              <input type="hidden" name="objectId" value={object.id} />
              <input type="hidden" name="idempotencyKey" value={randomUUID()} />
              <div className="filter-row">
                <label>
                  {t("block.from", { zone: timeZone })}
                  <WallTimeInput name="from" />
                </label>
                <label>
                  {t("block.until")}
                  <WallTimeInput name="to" />
                </label>
              </div>
              <ProhibitionChoices choices={prohibitionChoices((name) => DEFAULT_PROHIBITIONS.includes(name))} />
              <label className="reason">
                {t("block.reason")}
                <input name="reason" required maxLength={REASON_MAX} />
              </label>
              <button type="submit">{t("block.block")}</button>
            </ActionForm>
          )}
        </section>
      )}

      <h2 id="requests">{t("requests.title")}</h2>
      <InheritedAnomalies object={object} requestHref={requestHref} />
      {object.canWrite && object.requestable.length > 0 && (
        <section className="panel" aria-labelledby="new-request">
          <h3 id="new-request">{t("requests.create")}</h3>
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
          {t("requests.shown", { shown: fmt.number(requestRows.length), total: fmt.number(object.requests.length) })} ·{" "}
          <Link href={`/objects/${object.id}?requests=all${showAllHistory ? "&history=all" : ""}#requests`}>
            {t("requests.showAll", { total: fmt.number(object.requests.length) })}
          </Link>
        </p>
      )}
      <SimpleTable
        className="requests"
        empty={t("requests.empty")}
        rows={requestRows}
        rowKey={(r) => r.id}
        columns={[
          { header: t("requests.columns.request"), cell: (r) => <span id={`request-${r.id}`}>{r.id}</span> },
          { header: t("requests.columns.state"), cell: (r) => r.state },
          {
            header: t("requests.columns.phase"),
            cell: (r) => (
              <span className={`status status-${r.status.replace(" ", "-")}`}>
                {t("requests.status", { status: r.status.replace(" ", "_") })}
              </span>
            ),
          },
          { header: t("requests.columns.period"), className: "period", cell: (r) => period(r.from, r.to) },
          { header: t("requests.columns.reason"), cell: (r) => r.reason ?? none },
          { header: t("requests.columns.author"), cell: (r) => r.author ?? none },
          { header: t("requests.columns.created"), cell: (r) => fmt.instant(r.created) },
          {
            header: t("requests.columns.canceled"),
            cell: (r) => cancellation(r),
          },
          ...(object.canWrite
            ? [
                {
                  header: t("requests.columns.cancel"),
                  cell: (r: (typeof object.requests)[number]) =>
                    r.blockRequestId && (r.status === "scheduled" || r.status === "in force") ? (
                      <span className="muted">
                        {r.blockId
                          ? t("requests.endsWithBlock", { id: String(r.blockId) })
                          : t("requests.endsWithFredBlock", { request: String(r.blockRequestId) })}
                      </span>
                    ) : r.status === "scheduled" || r.status === "in force" ? (
                      <ActionForm
                        action={cancelRequestAction}
                        className="inline cancel-request"
                        confirm={t(r.status === "in force" ? "requests.cancelInForce" : "requests.cancelScheduled", {
                          id: String(r.id),
                          state: r.state,
                        })}
                      >
                        <input type="hidden" name="requestId" value={r.id} />
                        <input type="hidden" name="objectId" value={object.id} />
                        <input
                          name="reason"
                          required
                          maxLength={REASON_MAX}
                          placeholder={t("requests.reasonPlaceholder")}
                          aria-label={t("requests.cancelReason", { id: String(r.id) })}
                        />
                        <button type="submit">{t("requests.cancel", { id: String(r.id) })}</button>
                      </ActionForm>
                    ) : null,
                },
              ]
            : []),
        ]}
      />
      <p className="muted">{t("requests.noAuthor")}</p>

      <div className="detail-columns">
        <section aria-labelledby="data">
          <h2 id="data">{t("data.title")}</h2>
          {d && (
            <Facts
              rows={[
                [t("data.zone"), d.zone],
                [t("data.expires"), fmt.day(d.expires)],
                [t("data.validationUntil"), d.validationExpires ? fmt.day(d.validationExpires) : none],
                [t("data.registrant"), ref(d.registrant, none)],
                [t("data.admins"), refList(d.admins, none)],
                [t("data.temps"), refList(d.temps, none)],
                [t("data.nsset"), ref(d.nsset, none)],
                [t("data.nameServers"), d.hosts.length ? hosts(d.hosts) : none],
                [t("data.keyset"), ref(d.keyset, none)],
              ]}
            />
          )}
          {object.contact && (
            <Facts
              rows={[
                [t("data.name"), object.contact.name ?? none],
                [t("data.organization"), object.contact.organization ?? none],
                [t("data.email"), object.contact.email ?? none],
              ]}
            />
          )}
          {(object.type === "nsset" || object.type === "keyset") && (
            <Facts
              rows={[
                [t("data.techContacts"), refList(object.techContacts, none)],
                ...(object.type === "nsset" ? ([[t("data.hosts"), hosts(object.hosts) || none]] as [string, ReactNode][]) : []),
              ]}
            />
          )}
          <Facts
            rows={[
              [t("data.sponsoringRegistrar"), object.sponsoringRegistrar ?? none],
              [t("data.createdBy"), object.creatingRegistrar],
              [t("data.created"), when(object.created)],
              [t("data.lastUpdated"), when(object.updated, tc("never"))],
              [t("data.updatedBy"), object.updatingRegistrar ?? none],
              [t("data.transferred"), when(object.transferred, tc("never"))],
              [t("data.deleted"), when(object.deleted, t("data.notDeleted"))],
            ]}
          />
        </section>
        <section aria-labelledby="metadata" className="panel">
          <h2 id="metadata">{t("metadata.title")}</h2>
          <Facts
            rows={[
              [t("metadata.lastUpdate"), when(object.metadata.lastUpdate, t("metadata.neverUpdated"))],
              [
                t("metadata.referencedBy"),
                object.metadata.references === null
                  ? t("metadata.domainsNotReferenced")
                  : t("metadata.references", { count: object.metadata.references }),
              ],
              [t("metadata.referencesChanged"), when(object.metadata.referencesChanged, tc("never"))],
              [
                t("metadata.deleteCandidate"),
                object.states.some((s) => s.name === "deleteCandidate")
                  ? t("metadata.deleteCandidateNow")
                  : when(object.metadata.deleteCandidateAt, t("metadata.deleteCandidateNotForeseen")),
              ],
            ]}
          />
        </section>
      </div>

      <h2>{t("audit.title")}</h2>
      {object.audit === null ? (
        <p className="muted">{t("audit.adminsOnly")}</p>
      ) : (
        <SimpleTable
          empty={t("audit.empty")}
          rows={object.audit}
          rowKey={(a) => `${a.at}-${a.action}`}
          columns={[
            { header: t("audit.columns.when"), className: "nowrap", cell: (a) => fmt.instant(a.at) },
            { header: t("audit.columns.who"), cell: (a) => a.actor ?? none },
            { header: t("audit.columns.what"), cell: (a) => a.action },
            { header: t("audit.columns.result"), cell: (a) => t("audit.result", { result: a.result }) },
          ]}
        />
      )}
    </>
  );
}
