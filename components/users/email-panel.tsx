import { ActionForm } from "@/components/action-form";
import type { ActionResult } from "@/lib/actions/result";
import { getTranslations } from "@/lib/i18n/server";
import { CurrentPasswordField, type Proof } from "./current-password";

type FormAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/** /preferences: where notices of changes to how the person signs in are mailed (with the current password). */
export async function EmailPanel({ email, proof, action }: { email: string | null; proof: Proof; action: FormAction }) {
  const t = await getTranslations("auth.account.email");
  return (
    <section className="panel" id="email">
      <h2>{t("title")}</h2>
      <p>{t("text")}</p>
      <ActionForm action={action} className="stacked">
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
