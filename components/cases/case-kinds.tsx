import { ActionForm, ActionNotices } from "@/components/action-form";
import type { ActionResult } from "@/lib/actions/result";
import { caseKindsAdmin } from "@/lib/cases/kinds";
import { getFormat, getTranslations } from "@/lib/i18n/server";

type Action = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/** The kinds of case, each editable in place (names, position), retired or offered again; and a new one. */
export async function CaseKindsPanel({ actions }: { actions: { save: Action; retire: Action } }) {
  const [kinds, t, fmt] = await Promise.all([caseKindsAdmin(), getTranslations("cases.kinds"), getFormat()]);
  const next = Math.max(0, ...kinds.map((k) => k.position)) + 1;
  return (
    <section className="panel" aria-labelledby="case-kinds">
      <h2 id="case-kinds">{t("title")}</h2>
      <p className="muted">{t("intro")}</p>
      <ActionNotices>
        <ul className="case-kinds">
          {kinds.map((k) => (
            <li key={k.code} data-kind={k.code} className={k.retired ? "retired" : undefined}>
              <div className="case-kind-head">
                <code>{k.code}</code>
                <span className="muted">
                  {t("columns.cases")}: {fmt.number(k.cases)} · {k.retired ? t("retired") : t("offered")}
                </span>
                <ActionForm action={actions.retire} className="inline">
                  <input type="hidden" name="code" value={k.code} />
                  <input type="hidden" name="retire" value={k.retired ? "0" : "1"} />
                  <button type="submit" className="secondary">
                    {k.retired ? t("offer") : t("retire")}
                  </button>
                </ActionForm>
              </div>
              <ActionForm action={actions.save} className="case-form">
                <input type="hidden" name="code" value={k.code} />
                <label>
                  {t("columns.nameEn")}
                  <input name="nameEn" defaultValue={k.nameEn} required maxLength={100} />
                </label>
                <label>
                  {t("columns.nameCs")}
                  <input name="nameCs" defaultValue={k.nameCs} required maxLength={100} />
                </label>
                <label>
                  {t("columns.position")}
                  <input name="position" type="number" min={0} max={1000} defaultValue={k.position} />
                </label>
                <button type="submit">{t("save")}</button>
              </ActionForm>
            </li>
          ))}
        </ul>
      </ActionNotices>
      <h3>{t("add")}</h3>
      <ActionForm action={actions.save} className="case-form">
        <input type="hidden" name="isNew" value="1" />
        <label>
          {t("columns.code")}
          <input name="code" required maxLength={40} pattern="[a-z][a-z0-9_]{0,39}" />
        </label>
        <label>
          {t("columns.nameEn")}
          <input name="nameEn" required maxLength={100} />
        </label>
        <label>
          {t("columns.nameCs")}
          <input name="nameCs" required maxLength={100} />
        </label>
        <label>
          {t("columns.position")}
          <input name="position" type="number" min={0} max={1000} defaultValue={next} />
        </label>
        <button type="submit">{t("add")}</button>
      </ActionForm>
    </section>
  );
}
