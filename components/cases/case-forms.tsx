import { ActionForm } from "@/components/action-form";
import { Link } from "@/components/link";
import { WallTimeInput } from "@/components/wall-time-input";
import type { ActionResult } from "@/lib/actions/result";
import { getTranslations } from "@/lib/i18n/server";
import { bulkChoices } from "@/lib/requests/bulk";

// The forms of a case's page (issue 42): a block or request in the case, a review, ending the case.

type Action = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/** A block or request on one object in the case: made at once, or proposed as the approval policy says. */
export async function AddChangeForm({ caseId, action }: { caseId: number; action: Action }) {
  // The manual states of FRED's catalogue, with the object types each is valid for.
  const [t, { states }] = await Promise.all([getTranslations("cases"), bulkChoices()]);
  return (
    <section className="panel" aria-labelledby="case-add">
      <h2 id="case-add">{t("detail.add.title")}</h2>
      <p className="muted">
        {t("detail.add.hint")} <Link href={`/requests/bulk?case=${caseId}`}>{t("detail.add.bulk")}</Link>
      </p>
      <ActionForm action={action} className="case-form">
        <input type="hidden" name="caseId" value={caseId} />
        <label>
          {t("detail.add.object")}
          <input name="object" required maxLength={255} />
        </label>
        <label>
          {t("detail.add.change")}
          <select name="change" defaultValue="block">
            <option value="block">{t("detail.add.block")}</option>
            {states.map((s) => (
              <option key={s.name} value={s.name}>
                {s.name} ({s.types.join(", ")})
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("detail.add.from")}
          <WallTimeInput name="from" />
        </label>
        <label>
          {t("detail.add.to")}
          <WallTimeInput name="to" />
        </label>
        <label className="wide">
          {t("detail.add.reason")}
          <input name="reason" required maxLength={220} />
        </label>
        <button type="submit">{t("detail.add.submit")}</button>
      </ActionForm>
    </section>
  );
}

/** Who looked at the case, what they found, and when to look next. */
export async function ReviewForm({ caseId, action }: { caseId: number; action: Action }) {
  const t = await getTranslations("cases");
  return (
    <section className="panel" aria-labelledby="case-review">
      <h2 id="case-review">{t("detail.review.title")}</h2>
      <ActionForm action={action} className="case-form">
        <input type="hidden" name="caseId" value={caseId} />
        <label className="wide">
          {t("detail.review.note")}
          <input name="note" required maxLength={1000} />
        </label>
        <label>
          {t("detail.review.next")}
          <WallTimeInput name="nextReview" withTime={false} />
        </label>
        <button type="submit">{t("detail.review.submit")}</button>
      </ActionForm>
    </section>
  );
}

/** Ending the case: everything it holds is lifted (or the lifts proposed). */
export async function EndCaseForm({ caseId, action }: { caseId: number; action: Action }) {
  const t = await getTranslations("cases");
  return (
    <section className="panel" aria-labelledby="case-end">
      <h2 id="case-end">{t("detail.end.title")}</h2>
      <p className="muted">{t("detail.end.hint")}</p>
      <ActionForm action={action} className="case-form" confirm={t("detail.end.confirm", { id: String(caseId) })}>
        <input type="hidden" name="caseId" value={caseId} />
        <label className="wide">
          {t("detail.end.reason")}
          <input name="reason" required maxLength={220} />
        </label>
        <button type="submit">{t("detail.end.submit")}</button>
      </ActionForm>
    </section>
  );
}
