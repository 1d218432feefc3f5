"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { useLocale, useTranslations } from "@/lib/i18n/client";
import { LANGUAGE_NAMES, LOCALES, type Locale, localeCookieText } from "@/lib/i18n/config";

/**
 * The language switch in the header. Signed in, the choice is kept with the user (`save`);
 * before sign-in, in the browser's cookie only (`secureCookie`: Secure, for a console served over HTTPS).
 */
export function LanguageSwitch({
  save,
  secureCookie,
}: {
  save?: (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;
  secureCookie: boolean;
}) {
  const t = useTranslations("common");
  const locale = useLocale();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);

  function choose(next: Locale) {
    startTransition(async () => {
      setError(null);
      if (save) {
        const form = new FormData();
        form.set("locale", next);
        const result = await save(null, form);
        if (!result.ok) {
          setError(result.error);
          return;
        }
      } else {
        // biome-ignore lint/suspicious/noDocumentCookie: a plain preference cookie, read by the server on the next request.
        document.cookie = localeCookieText(next, secureCookie);
      }
      router.refresh();
    });
  }

  return (
    <span className="language-switch">
      <label>
        <span className="visually-hidden">{t("language.label")}</span>
        <select
          aria-label={t("language.label")}
          value={locale}
          disabled={pending}
          onChange={(event) => choose(event.target.value as Locale)}
        >
          {LOCALES.map((l) => (
            <option key={l} value={l} lang={l}>
              {LANGUAGE_NAMES[l]}
            </option>
          ))}
        </select>
      </label>
      {error && (
        <span role="alert" className="error">
          {error}
        </span>
      )}
    </span>
  );
}
