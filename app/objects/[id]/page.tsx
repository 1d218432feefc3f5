import { notFound } from "next/navigation";
import { PendingTable } from "@/components/cases/pending-table";
import { Notices } from "@/components/notices";
import { BlockPanel } from "@/components/objects/page/block";
import { AuditPanel, DataPanels } from "@/components/objects/page/facts";
import { FredProcedureNotice } from "@/components/objects/page/fred-procedure";
import { MeaningPanel } from "@/components/objects/page/meaning";
import { RequestsPanel } from "@/components/objects/page/requests";
import { HistoryPanel, StatesNow } from "@/components/objects/page/states";
import { render } from "@/lib/actions/message";
import { forPage } from "@/lib/auth/page";
import { mayWriteCases, pendingChanges } from "@/lib/cases/pending";
import { getFormat, getLocale, getTranslations } from "@/lib/i18n/server";
import { parseId } from "@/lib/input/values";
import { objectDetail, visibleRows } from "@/lib/objects/detail";
import { readObjectPageParams } from "@/lib/objects/page-params";
import { PENDING_ACTIONS } from "../../cases/pending-actions";
import { blockAction, cancelRequestAction, changeBlockAction, createRequestAction, previewRequestAction, unblockAction } from "./actions";

export async function generateMetadata() {
  const t = await getTranslations("object");
  return { title: t("title") };
}

/** One object: what its states mean now, why, their history, its block and requests, its data. Each panel is a component of components/objects/page/. */
export default async function ObjectPage(props: PageProps<"/objects/[id]">) {
  const { id: idText } = await props.params;
  const id = parseId(idText) ?? Number.NaN;
  const object = await forPage(() => objectDetail(id));
  if (!object) notFound();
  // Changes of this object that wait for a second person (issue 42): shown, with what the reader may do.
  const [pending, mayWrite] = await forPage(() => Promise.all([pendingChanges({ objectId: object.id }), mayWriteCases()]));
  // Long tables are cut to their newest rows unless asked for in full: an object with hundreds of
  // periods or requests would otherwise make a page of a megabyte. Requests that can still change
  // (pending, in force) are always shown.
  // history=all, requests=all; any other parameter or value is named in a notice.
  const { showAllHistory, showAllRequests, caseId, notices } = readObjectPageParams(await props.searchParams);
  const { history: historyRows, requests: requestRows } = visibleRows(object, { history: showAllHistory, requests: showAllRequests });
  const [t, fmt, locale] = await Promise.all([getTranslations("object"), getFormat(), getLocale()]);
  // A request's row, on this page when shown, else on the page with every request.
  const requestHref = (requestId: number) =>
    requestRows.some((r) => r.id === requestId)
      ? `#request-${requestId}`
      : `/objects/${object.id}?requests=all${showAllHistory ? "&history=all" : ""}#request-${requestId}`;
  // What is coming: the scheduled requests, soonest first (the summary of what the states mean, the timeline).
  const scheduled = object.requests.filter((r) => r.status === "scheduled").sort((a, b) => Date.parse(a.from) - Date.parse(b.from));

  return (
    <>
      <div className="page-head">
        <h1>{object.name}</h1>
        <p className="muted">
          <span className={`type type-${object.type}`}>{t("type", { type: object.type })}</span> · {t("id", { id: String(object.id) })} ·{" "}
          {object.roid}
        </p>
      </div>
      <Notices notices={notices.map((notice) => render(notice, locale))} />
      {object.deleted && (
        <div className="notice deleted-banner" role="status">
          <p>{t.rich("deleted", { when: fmt.instant(object.deleted), b: (chunks) => <strong>{chunks}</strong> })}</p>
        </div>
      )}
      <MeaningPanel object={object} scheduled={scheduled} />
      <StatesNow object={object} />
      <FredProcedureNotice object={object} />
      <HistoryPanel
        object={object}
        scheduled={scheduled}
        historyRows={historyRows}
        showAllHistory={showAllHistory}
        showAllRequests={showAllRequests}
      />
      {pending.length > 0 && (
        <section className="panel" aria-labelledby="object-pending">
          <h2 id="object-pending">{t("pending")}</h2>
          <PendingTable changes={pending} showCase actions={mayWrite ? PENDING_ACTIONS : null} />
        </section>
      )}
      <BlockPanel
        object={object}
        caseId={caseId}
        actions={{ block: blockAction, changeBlock: changeBlockAction, unblock: unblockAction }}
      />
      <RequestsPanel
        object={object}
        requestRows={requestRows}
        showAllHistory={showAllHistory}
        requestHref={requestHref}
        caseId={caseId}
        actions={{ create: createRequestAction, preview: previewRequestAction, cancel: cancelRequestAction }}
      />
      <DataPanels object={object} />
      <AuditPanel object={object} />
    </>
  );
}
