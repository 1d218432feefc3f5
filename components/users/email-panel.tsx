import { setOwnEmailAction } from "@/app/preferences/actions";
import { ActionForm } from "@/components/action-form";
import { getTranslations } from "@/lib/i18n/server";
import { CurrentPasswordField, type Proof } from "./current-password";

/** /preferences: where notices of changes to how the person signs in are mailed (with the current password). */
export async function EmailPanel({ email, proof }: { email: string | null; proof: Proof }) {
  const t = await getTranslations("auth.account.email");
  return (
    <section className="panel" id="email">
      <h2>{t("title")}</h2>
      <p>{t("text")}</p>
      <ActionForm action={setOwnEmailAction} className="stacked">
        <label>
          {t("address")}
          <input name="email" type="email" maxLength={254} defaultValue={email ?? ""} autoComplete="email" />
        </label>
        <CurrentPasswordField proof={proof} />
        <button type="submit">{t("save")}</button>
      </ActionForm>
    </section>
  );
}
