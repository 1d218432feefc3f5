import { Link } from "@/components/link";
import { openCaseChoices } from "@/lib/cases/cases";
import { getTranslations } from "@/lib/i18n/server";

/**
 * The case a change on an object's page is made in (issue 42): none, or one of the open cases
 * (`selected` comes back from opening a new one for this object). Its reference goes into FRED's
 * reason row, and the approval policy asks about the case's kind.
 */
export async function CaseChoice({ objectId, selected }: { objectId: number; selected: number | null }) {
  const [cases, t] = await Promise.all([openCaseChoices(), getTranslations("cases")]);
  const known = selected !== null && cases.some((c) => c.id === selected);
  return (
    <div className="case-choice">
      <label>
        {t("choice.label")}
        <select name="caseId" defaultValue={known ? String(selected) : ""}>
          <option value="">{t("choice.none")}</option>
          {cases.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
      </label>{" "}
      <Link href={`/cases?for=${objectId}`}>{t("choice.open")}</Link>
      {selected !== null && !known && (
        <p className="form-error" role="alert">
          {t("choice.notOpen", { id: String(selected) })}
        </p>
      )}
    </div>
  );
}
