"use client";

import { browserSupportsWebAuthn, type PublicKeyCredentialCreationOptionsJSON, startRegistration } from "@simplewebauthn/browser";
import { type FormEvent, useState } from "react";
import { ActionMessage } from "@/components/action-form";
import type { ActionResult } from "@/lib/actions/result";
import { keyRefusal } from "@/lib/auth/second-factor-code";
import { useTranslations } from "@/lib/i18n/client";
import { CurrentPasswordField, type Proof } from "./current-password";

/** The server's options for a new key (a signed challenge). */
export type KeyOptionsAction = (
  previous: ActionResult<PublicKeyCredentialCreationOptionsJSON> | null,
  form: FormData,
) => Promise<ActionResult<PublicKeyCredentialCreationOptionsJSON>>;

type FormAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/**
 * Registers a security key or passkey: the server's options (a signed challenge), the browser's
 * navigator.credentials.create() (the person touches the key), then the server verifies the answer
 * and keeps the key under the name given.
 */
export function AddSecurityKey({ proof, actions }: { proof: Proof; actions: { options: KeyOptionsAction; add: FormAction } }) {
  const t = useTranslations("auth.account.securityKeys");
  const [result, setResult] = useState<ActionResult<unknown> | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    const name = String(fields.get("name") ?? "");
    if (!browserSupportsWebAuthn()) return setResult({ ok: false, code: "invalid", error: t("unsupported") });
    setPending(true);
    setResult(null);
    try {
      const options = await actions.options(null, new FormData());
      if (!options.ok || !options.data) return setResult(options);
      let answer: unknown;
      try {
        answer = await startRegistration({ optionsJSON: options.data });
      } catch (error) {
        const { code } = error as { code?: string };
        const text =
          keyRefusal(error) === "keyWrongSite"
            ? t("wrongSite", { rpId: options.data.rp.id ?? "" })
            : code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED"
              ? t("registeredAlready")
              : t("cancelled");
        return setResult({ ok: false, code: "invalid", error: text });
      }
      const data = new FormData();
      data.set("name", name);
      data.set("response", JSON.stringify(answer));
      data.set("currentPassword", String(fields.get("currentPassword") ?? ""));
      const added = await actions.add(null, data);
      setResult(added);
      if (added.ok) form.reset();
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="stacked">
      <fieldset disabled={pending} className="plain">
        <label>
          {t("name")}
          <input name="name" required maxLength={60} placeholder={t("namePlaceholder")} autoComplete="off" />
        </label>
        <CurrentPasswordField proof={proof} />
        <button type="submit">{pending ? t("touch") : t("add")}</button>
      </fieldset>
      <ActionMessage result={result} />
    </form>
  );
}
