import type { Metadata } from "next";
import { ActionForm } from "@/components/action-form";
import { CaseKindsPanel } from "@/components/cases/case-kinds";
import { SimpleTable } from "@/components/simple-table";
import { forPage } from "@/lib/auth/page";
import { approvalPolicyPage } from "@/lib/cases/policy";
import { getFormat, getLocale, getTranslations } from "@/lib/i18n/server";
import { addApprovalRuleAction, removeApprovalRuleAction, retireCaseKindAction, saveCaseKindAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("cases.policy");
  return { title: t("title") };
}

/** Which changes need a second person (administrators): a rule per state, kind of change and kind of case. */
export default async function ApprovalPolicyPage() {
  const { rules, states, kinds } = await forPage(() => approvalPolicyPage());
  const [t, fmt, locale] = await Promise.all([getTranslations("cases.policy"), getFormat(), getLocale()]);
  const kindName = (code: string | null) => {
    const kind = kinds.find((k) => k.code === code);
    return kind ? (locale === "cs" ? kind.nameCs : kind.nameEn) : t("any");
  };
  return (
    <>
      <div className="page-head">
        <h1>{t("title")}</h1>
        <p className="muted">{t("intro")}</p>
      </div>
      <section className="panel" aria-labelledby="new-rule">
        <h2 id="new-rule">{t("add.title")}</h2>
        <ActionForm action={addApprovalRuleAction} className="case-form">
          <label>
            {t("columns.state")}
            <select name="state" defaultValue="any">
              <option value="any">{t("anyState")}</option>
              {states.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("columns.change")}
            <select name="change" defaultValue="any">
              <option value="any">{t("anyChange")}</option>
              <option value="make">{t("change.make")}</option>
              <option value="change">{t("change.change")}</option>
              <option value="lift">{t("change.lift")}</option>
            </select>
          </label>
          <label>
            {t("columns.caseKind")}
            <select name="caseKind" defaultValue="any">
              <option value="any">{t("anyKind")}</option>
              {kinds
                .filter((k) => !k.retired)
                .map((k) => (
                  <option key={k.code} value={k.code}>
                    {locale === "cs" ? k.nameCs : k.nameEn}
                  </option>
                ))}
            </select>
          </label>
          <button type="submit">{t("add.submit")}</button>
        </ActionForm>
      </section>
      <SimpleTable
        rows={rules}
        rowKey={(r) => r.id}
        className="approval-rules"
        empty={t("empty")}
        columns={[
          { header: t("columns.state"), cell: (r) => r.state ?? t("anyState") },
          { header: t("columns.change"), cell: (r) => (r.change ? t(`change.${r.change}`) : t("anyChange")) },
          { header: t("columns.caseKind"), cell: (r) => (r.caseKind ? kindName(r.caseKind) : t("anyKind")) },
          { header: t("columns.added"), className: "nowrap", cell: (r) => t("added", { by: r.createdBy, at: fmt.instant(r.createdAt) }) },
          {
            header: t("columns.remove"),
            cell: (r) => (
              <ActionForm action={removeApprovalRuleAction} className="inline" confirm={t("confirmRemove")}>
                <input type="hidden" name="ruleId" value={r.id} />
                <button type="submit">{t("remove")}</button>
              </ActionForm>
            ),
          },
        ]}
      />
      <CaseKindsPanel actions={{ save: saveCaseKindAction, retire: retireCaseKindAction }} />
    </>
  );
}
