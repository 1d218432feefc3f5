"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { useTranslations } from "@/lib/i18n/client";
import { ActionMessage } from "../action-form";

type CreateAction = (previous: ActionResult<{ token: string }> | null, form: FormData) => Promise<ActionResult<{ token: string }>>;

/** Names a new feed client and shows its token once. */
export function NewTokenForm({ action }: { action: CreateAction }) {
  const t = useTranslations("admin.tokens.form");
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} aria-label={t("label")}>
      <fieldset disabled={pending} className="plain">
        <label>
          {t("name")} <input name="name" required maxLength={100} placeholder={t("placeholder")} />
        </label>{" "}
        <button type="submit">{t("submit")}</button>
      </fieldset>
      <ActionMessage result={result} />
      {result?.ok && result.data && (
        <p>
          <code className="token">{result.data.token}</code>
        </p>
      )}
    </form>
  );
}
