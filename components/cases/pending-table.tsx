import { ActionForm, ActionNotices } from "@/components/action-form";
import { Link } from "@/components/link";
import { WallTimeInput } from "@/components/wall-time-input";
import { render } from "@/lib/actions/message";
import type { ActionResult } from "@/lib/actions/result";
import type { PendingChange } from "@/lib/cases/pending";
import { getFormat, getLocale, getTranslations } from "@/lib/i18n/server";
import { REASON_MAX } from "@/lib/requests/limits";

type Action = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/** The batches (one bulk change, one case's ending) with more than one change the reader may approve. */
function batchesOf(changes: PendingChange[]) {
  const batches = new Map<string, { batchId: string; count: number; proposedBy: string; caseId: number | null }>();
  for (const p of changes) {
    if (!p.batchId || !p.mayApprove) continue;
    const b = batches.get(p.batchId) ?? { batchId: p.batchId, count: 0, proposedBy: p.proposedBy, caseId: p.caseId };
    b.count++;
    batches.set(p.batchId, b);
  }
  return [...batches.values()].filter((b) => b.count > 1);
}

/** Pending changes with what the reader may do about each (approve, reject, withdraw), or how each was decided. */
export async function PendingTable({
  changes,
  showCase,
  actions,
}: {
  changes: PendingChange[];
  showCase: boolean;
  actions: { approve: Action; reject: Action; withdraw: Action; edit: Action; approveBatch?: Action } | null;
}) {
  const [t, fmt, locale] = await Promise.all([getTranslations("cases.approvals"), getFormat(), getLocale()]);
  // A decision's message stays above the table: the row's forms go once the change is decided.
  return (
    <ActionNotices>
      {changes.length === 0 && <p className="muted">{t("empty")}</p>}
      {actions?.approveBatch &&
        batchesOf(changes).map((b) => (
          <ActionForm key={b.batchId} action={actions.approveBatch as Action} className="inline approve-batch">
            <input type="hidden" name="batchId" value={b.batchId} />
            <input type="hidden" name="caseId" value={b.caseId ?? ""} />
            <button type="submit">{t("approveBatch", { count: String(b.count), by: b.proposedBy })}</button>
          </ActionForm>
        ))}
      {changes.length > 0 && (
        <table className="data-table pending-changes">
          <thead>
            <tr>
              <th scope="col">{t("columns.change")}</th>
              {showCase && <th scope="col">{t("columns.case")}</th>}
              <th scope="col">{t("columns.proposed")}</th>
              <th scope="col">{t("columns.decision")}</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((p) => (
              <tr key={p.id} data-pending={p.id}>
                <td data-label={t("columns.change")}>
                  <div>
                    <strong>#{p.id}</strong> <Link href={`/objects/${p.objectId}`}>{p.object}</Link>: {render(p.summary, locale)}
                    {p.late && <p className="form-warning">{t("late")}</p>}
                  </div>
                </td>
                {showCase && (
                  <td data-label={t("columns.case")}>{p.caseId ? <Link href={`/cases/${p.caseId}`}>{p.caseId}</Link> : t("noCase")}</td>
                )}
                <td data-label={t("columns.proposed")} className="nowrap">
                  {t("proposed", { by: p.proposedBy, at: fmt.instant(p.proposedAt) })}
                </td>
                <td data-label={t("columns.decision")}>
                  {p.status === "applied" && t("status.applied", { by: p.decidedBy ?? "", at: fmt.instant(p.decidedAt as Date) })}
                  {p.status === "rejected" &&
                    t("status.rejected", { by: p.decidedBy ?? "", at: fmt.instant(p.decidedAt as Date), reason: p.decisionReason ?? "" })}
                  {p.status === "withdrawn" && t("status.withdrawn", { at: fmt.instant(p.decidedAt as Date) })}
                  {p.status === "pending" && actions && (
                    <div className="pending-actions">
                      {p.mayApprove && (
                        <ActionForm action={actions.approve} className="inline">
                          <input type="hidden" name="pendingId" value={p.id} />
                          <input type="hidden" name="version" value={p.version} />
                          <input type="hidden" name="caseId" value={p.caseId ?? ""} />
                          {p.late && <input type="hidden" name="fromNow" value="1" />}
                          <button type="submit">{p.late ? t("approveFromNow") : t("approve")}</button>
                        </ActionForm>
                      )}
                      {p.own && <p className="muted">{t("own")}</p>}
                      {p.mayApprove && (
                        <ActionForm action={actions.reject} className="inline">
                          <input type="hidden" name="pendingId" value={p.id} />
                          <input type="hidden" name="caseId" value={p.caseId ?? ""} />
                          <label>
                            {t("rejectReason")} <input name="reason" maxLength={300} required />
                          </label>
                          <button type="submit">{t("reject")}</button>
                        </ActionForm>
                      )}
                      {p.own && (
                        <ActionForm action={actions.withdraw} className="inline">
                          <input type="hidden" name="pendingId" value={p.id} />
                          <input type="hidden" name="caseId" value={p.caseId ?? ""} />
                          <button type="submit">{t("withdraw")}</button>
                        </ActionForm>
                      )}
                      {p.own && <EditForm change={p} action={actions.edit} />}
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ActionNotices>
  );
}

/** Its proposer's edit of a waiting change: its period (when it makes a block or request) and reason; approval starts again. */
async function EditForm({ change, action }: { change: PendingChange; action: Action }) {
  const t = await getTranslations("cases.approvals");
  const { from, to, reason } = change.editable;
  return (
    <details className="edit-pending">
      <summary>{t("edit")}</summary>
      <ActionForm action={action} className="case-form">
        <input type="hidden" name="pendingId" value={change.id} />
        <input type="hidden" name="version" value={change.version} />
        <input type="hidden" name="caseId" value={change.caseId ?? ""} />
        {from !== undefined && (
          <>
            <label>
              {t("editFrom")}
              <WallTimeInput name="from" defaultValue={from} />
            </label>
            <label>
              {t("editTo")}
              <WallTimeInput name="to" defaultValue={to} />
            </label>
          </>
        )}
        <label className="wide">
          {t("editReason")}
          <input name="reason" required maxLength={REASON_MAX} defaultValue={reason} />
        </label>
        <button type="submit">{t("editSubmit")}</button>
      </ActionForm>
    </details>
  );
}
