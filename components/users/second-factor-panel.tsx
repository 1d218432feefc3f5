import { removeOwnSecondFactorAction, renewRecoveryCodesAction, startSecondFactorAction } from "@/app/preferences/actions";
import { ActionForm } from "@/components/action-form";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import type { OwnSecondFactor } from "@/lib/users/second-factor";
import { CurrentPasswordField, type Proof } from "./current-password";
import { SecondFactorEnrol } from "./second-factor-enrol";

/** /preferences: two-step sign-in, off (set it up), pending (scan the key, confirm a code) or on. */
export async function SecondFactorPanel({
  factor,
  required,
  hasKeys,
  proof,
}: {
  factor: OwnSecondFactor;
  required: boolean;
  hasKeys: boolean;
  proof: Proof;
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
          <ActionForm action={startSecondFactorAction}>
            <button type="submit">{t("start")}</button>
          </ActionForm>
        </>
      )}
      {factor.state === "pending" && <SecondFactorEnrol base32={factor.base32} qrSvg={factor.qrSvg} proof={proof} />}
      {factor.state === "on" && (
        <>
          <p>{t("on", { since: fmt.instant(factor.since), left: factor.recoveryLeft })}</p>
          <div className="form-row">
            <ActionForm action={renewRecoveryCodesAction} className="stacked">
              <CurrentPasswordField proof={proof} />
              <button type="submit">{t("renew")}</button>
            </ActionForm>
            <ActionForm action={removeOwnSecondFactorAction} className="stacked" confirm={t("turnOffConfirm")}>
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
