import type { Metadata } from "next";
import {
  addSecurityKeyAction,
  changeOwnPasswordAction,
  confirmSecondFactorAction,
  endOwnSessionAction,
  removeOwnSecondFactorAction,
  removeSecurityKeyAction,
  renewRecoveryCodesAction,
  securityKeyOptionsAction,
  setOwnEmailAction,
  startSecondFactorAction,
} from "@/app/preferences/actions";
import { EmailPanel } from "@/components/users/email-panel";
import { OwnPasswordForm } from "@/components/users/own-password-form";
import { SecondFactorPanel } from "@/components/users/second-factor-panel";
import { SecurityKeysPanel } from "@/components/users/security-keys-panel";
import { SessionsPanel } from "@/components/users/sessions-panel";
import { forPage } from "@/lib/auth/page";
import { secondFactorPolicy } from "@/lib/auth/second-factor";
import { getTranslations } from "@/lib/i18n/server";
import { ownAccount } from "@/lib/users/own-password";
import { ownSessions } from "@/lib/users/own-sessions";
import { ownSecondFactor } from "@/lib/users/second-factor";
import { ownSecurityKeys } from "@/lib/users/security-keys";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("auth");
  return { title: t("account.title") };
}

export default async function PreferencesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const account = await forPage(() => ownAccount());
  const factor = await forPage(() => ownSecondFactor());
  const keys = await forPage(() => ownSecurityKeys());
  const sessions = await forPage(() => ownSessions());
  const required = (await searchParams).enrol === "required" || (account.role === "admin" && secondFactorPolicy() === "admins");
  const t = await getTranslations("auth.account");
  const tc = await getTranslations("common");
  return (
    <>
      <div className="page-head">
        <h1>{t("title")}</h1>
        <p className="muted">{t("signedInAs", { username: account.username, role: tc(`roles.${account.role}`) })}</p>
      </div>
      <section className="panel">
        <h2>{t("password.title")}</h2>
        {account.hasPassword ? (
          <>
            <p>{t("password.text")}</p>
            <p className="muted">{t("password.rules")}</p>
            <OwnPasswordForm action={changeOwnPasswordAction} />
          </>
        ) : (
          <p>{t("password.noPassword")}</p>
        )}
      </section>
      <SecondFactorPanel
        factor={factor}
        required={required && keys.length === 0}
        hasKeys={keys.length > 0}
        proof={account.proof}
        actions={{
          start: startSecondFactorAction,
          confirm: confirmSecondFactorAction,
          renewRecoveryCodes: renewRecoveryCodesAction,
          remove: removeOwnSecondFactorAction,
        }}
      />
      <SecurityKeysPanel
        keys={keys}
        proof={account.proof}
        actions={{ options: securityKeyOptionsAction, add: addSecurityKeyAction, remove: removeSecurityKeyAction }}
      />
      <EmailPanel email={account.email} proof={account.proof} action={setOwnEmailAction} />
      <SessionsPanel sessions={sessions} action={endOwnSessionAction} />
    </>
  );
}
