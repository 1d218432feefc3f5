"use client";

import type { ActionResult } from "@/lib/actions/result";
import { MAX_CURRENT_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "@/lib/auth/password-limits";
import { useTranslations } from "@/lib/i18n/client";
import { ActionForm } from "../action-form";

type FormAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/** The signed-in person's own password: the current one, and the new one twice. */
export function OwnPasswordForm({ action }: { action: FormAction }) {
  const t = useTranslations("auth.account.password");
  return (
    <ActionForm action={action} className="stacked">
      <label>
        {t("current")}
        <input name="currentPassword" type="password" required maxLength={MAX_CURRENT_PASSWORD_LENGTH} autoComplete="current-password" />
      </label>
      <label>
        {t("new")}
        <input
          name="newPassword"
          type="password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          maxLength={MAX_PASSWORD_LENGTH}
          autoComplete="new-password"
        />
      </label>
      <label>
        {t("confirm")}
        <input
          name="confirmPassword"
          type="password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          maxLength={MAX_PASSWORD_LENGTH}
          autoComplete="new-password"
        />
      </label>
      <button type="submit">{t("submit")}</button>
    </ActionForm>
  );
}
