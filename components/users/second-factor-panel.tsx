import { ActionForm } from "@/components/action-form";
import type { ActionResult } from "@/lib/actions/result";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import type { OwnSecondFactor } from "@/lib/users/second-factor";
import { CurrentPasswordField, type Proof } from "./current-password";
import { SecondFactorEnrol } from "./second-factor-enrol";

type FormAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/** /preferences: two-step sign-in, off (set it up), pending (scan the key, confirm a code) or on. */
export async function SecondFactorPanel({
  factor,
  required,
  hasKeys,
  proof,
  actions,
}: {
  factor: OwnSecondFactor;
  required: boolean;
  hasKeys: boolean;
  proof: Proof;
  /** Set it up, confirm it with a code, new recovery codes, turn it off. */
  actions: { start: FormAction; confirm: FormAction; renewRecoveryCodes: FormAction; remove: FormAction };
}) {
  const [t, fmt] = await Promise.all([getTranslations("auth.account.secondFactor"), getFormat()]);
  return (
    <section className="panel" id="second-factor">
      <h2>{t("title")}</h2>
      {required && factor.state !== "on" && (
        <p className="form-error" role="alert">
          {t("required")}
        </p>
      )}
      {factor.state === "off" && (
        <>
          <p>{hasKeys ? t("offWithKeys") : t("off")}</p>
          <ActionForm action={actions.start}>
            <button type="submit">{t("start")}</button>
          </ActionForm>
        </>
      )}
      {factor.state === "pending" && (
        <SecondFactorEnrol base32={factor.base32} qrSvg={factor.qrSvg} proof={proof} action={actions.confirm} />
      )}
      {factor.state === "on" && (
        <>
          <p>{t("on", { since: fmt.instant(factor.since), left: factor.recoveryLeft })}</p>
          <div className="form-row">
            <ActionForm action={actions.renewRecoveryCodes} className="stacked">
              <CurrentPasswordField proof={proof} />
              <button type="submit">{t("renew")}</button>
            </ActionForm>
            <ActionForm action={actions.remove} className="stacked" confirm={t("turnOffConfirm")}>
              <p className="muted">{t("replace")}</p>
              <CurrentPasswordField proof={proof} />
              <button type="submit" className="secondary">
                {t("turnOff")}
              </button>
            </ActionForm>
          </div>
        </>
      )}
    </section>
  );
}
