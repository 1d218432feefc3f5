"use client";

import { useActionState } from "react";
import { ActionMessage } from "@/components/action-form";
import type { ActionResult } from "@/lib/actions/result";
import { useTranslations } from "@/lib/i18n/client";
import { CurrentPasswordField, type Proof } from "./current-password";

type FormAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/**
 * The key to add to an authenticator app and the code that confirms it. Once confirmed, only the
 * answer stays, with the recovery codes it shows this once; "Done" reloads the account page.
 */
export function SecondFactorEnrol({
  base32,
  qrSvg,
  proof,
  action: confirm,
}: {
  base32: string;
  qrSvg: string;
  proof: Proof;
  /** Confirms the key with a code from the app (and the current password). */
  action: FormAction;
}) {
  const t = useTranslations("auth.account.secondFactor");
  const [result, action, pending] = useActionState(confirm, null);
  if (result?.ok)
    return (
      <>
        <ActionMessage result={result} />
        <a href="/preferences">{t("done")}</a>
      </>
    );
  return (
    <>
      <p>{t("scan")}</p>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: an SVG the server drew from a base32 key, no input of anyone's */}
      <div className="qr" role="img" aria-label={t("qrLabel")} dangerouslySetInnerHTML={{ __html: qrSvg }} />
      <p>
        {t("key")} <code data-testid="second-factor-key">{base32}</code>
      </p>
      <form action={action}>
        <fieldset disabled={pending} className="plain">
          <label>
            {t("code")}
            <input name="code" inputMode="numeric" autoComplete="one-time-code" required pattern="\d{6}" maxLength={6} />
          </label>
          <CurrentPasswordField proof={proof} />
          <button type="submit">{t("confirm")}</button>
        </fieldset>
        <ActionMessage result={result} />
      </form>
    </>
  );
}
