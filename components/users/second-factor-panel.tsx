import { confirmSecondFactorAction, startSecondFactorAction } from "@/app/preferences/actions";
import { ActionForm } from "@/components/action-form";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import type { OwnSecondFactor } from "@/lib/users/second-factor";

/** /preferences: two-step sign-in, off (set it up), pending (scan the key, confirm a code) or on. */
export async function SecondFactorPanel({ factor, required }: { factor: OwnSecondFactor; required: boolean }) {
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
          <p>{t("off")}</p>
          <ActionForm action={startSecondFactorAction}>
            <button type="submit">{t("start")}</button>
          </ActionForm>
        </>
      )}
      {factor.state === "pending" && (
        <>
          <p>{t("scan")}</p>
          {/* The QR code of the otpauth:// URI, drawn by uqr from the key alone. */}
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: an SVG the server drew from a base32 key, no input of anyone's */}
          <div className="qr" role="img" aria-label={t("qrLabel")} dangerouslySetInnerHTML={{ __html: factor.qrSvg }} />
          <p>
            {t("key")} <code data-testid="second-factor-key">{factor.base32}</code>
          </p>
          <ActionForm action={confirmSecondFactorAction}>
            <label>
              {t("code")}
              <input name="code" inputMode="numeric" autoComplete="one-time-code" required pattern="\d{6}" maxLength={6} />
            </label>
            <button type="submit">{t("confirm")}</button>
          </ActionForm>
        </>
      )}
      {factor.state === "on" && <p>{t("on", { since: fmt.instant(factor.since), left: factor.recoveryLeft })}</p>}
    </section>
  );
}
