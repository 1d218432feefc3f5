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
        <table className="data-table case-kinds">
          <thead>
            <tr>
              <th scope="col">{t("columns.code")}</th>
              <th scope="col">{t("columns.nameEn")}</th>
              <th scope="col">{t("columns.nameCs")}</th>
              <th scope="col">{t("columns.position")}</th>
              <th scope="col">{t("columns.cases")}</th>
              <th scope="col">{t("columns.state")}</th>
            </tr>
          </thead>
          <tbody>
            {kinds.map((k) => (
              <tr key={k.code} data-kind={k.code}>
                <td data-label={t("columns.code")}>
                  <code>{k.code}</code>
                </td>
                <td colSpan={3}>
                  <ActionForm action={actions.save} className="inline">
                    <input type="hidden" name="code" value={k.code} />
                    <input name="nameEn" aria-label={t("columns.nameEn")} defaultValue={k.nameEn} required maxLength={100} />
                    <input name="nameCs" aria-label={t("columns.nameCs")} defaultValue={k.nameCs} required maxLength={100} />
                    <input name="position" aria-label={t("columns.position")} type="number" min={0} max={1000} defaultValue={k.position} />
                    <button type="submit">{t("save")}</button>
                  </ActionForm>
                </td>
                <td data-label={t("columns.cases")}>{fmt.number(k.cases)}</td>
                <td data-label={t("columns.state")}>
                  <ActionForm action={actions.retire} className="inline">
                    <input type="hidden" name="code" value={k.code} />
                    <input type="hidden" name="retire" value={k.retired ? "0" : "1"} />
                    {k.retired ? t("retired") : t("offered")} <button type="submit">{k.retired ? t("offer") : t("retire")}</button>
                  </ActionForm>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
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
