import { ActionForm, ActionNotices } from "@/components/action-form";
import { CaseChoice } from "@/components/cases/case-choice";
import { Link } from "@/components/link";
import { InheritedAnomalies } from "@/components/objects/inherited-anomalies";
import { RequestForm } from "@/components/objects/request-form";
import { SimpleTable } from "@/components/simple-table";
import type { ActionResult } from "@/lib/actions/result";
import { readConfig } from "@/lib/config";
import { getCancellationFormat, getFormat, getPeriodFormat, getTranslations } from "@/lib/i18n/server";
import type { ObjectDetail, StateRequest } from "@/lib/objects/detail";
import { REASON_MAX } from "@/lib/requests/limits";

type FormAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/** The object's requests: anomalies FRED left, the form for a new one, and the list with cancel buttons. */
export async function RequestsPanel({
  object,
  requestRows,
  showAllHistory,
  requestHref,
  caseId,
  actions,
}: {
  object: ObjectDetail;
  requestRows: StateRequest[];
  showAllHistory: boolean;
  requestHref: (requestId: number) => string;
  /** The case chosen for a new request (the page's `case` parameter). */
  caseId: number | null;
  actions: {
    create: Parameters<typeof RequestForm>[0]["action"];
    preview: Parameters<typeof RequestForm>[0]["preview"];
    cancel: FormAction;
  };
}) {
  const [t, tc, fmt] = await Promise.all([getTranslations("object"), getTranslations("common"), getFormat()]);
  const timeZone = readConfig().registryTimeZone;
  const none = tc("none");
  const [period, canceledText] = await Promise.all([getPeriodFormat(), getCancellationFormat()]);
  const cancellation = (r: Parameters<typeof canceledText>[0]) => canceledText(r) ?? none;
  const { create: createRequestAction, preview: previewRequestAction, cancel: cancelRequestAction } = actions;
  return (
    <>
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
            caseChoice={<CaseChoice objectId={object.id} selected={caseId} />}
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
      {/* A cancellation's confirmation stays above the table: its row's form goes once the request is canceled. */}
      <ActionNotices>
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
      </ActionNotices>
      <p className="muted">{t("requests.noAuthor")}</p>
    </>
  );
}
