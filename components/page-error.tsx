"use client";

import { useTranslations } from "@/lib/i18n/client";

/** What a page that failed on the server shows, in the person's language, with the log's reference. */
export function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations("common.pageError");
  return (
    <div className="error-page" role="alert">
      <h1>{t("title")}</h1>
      <p>{t("body", { reference: error.digest ? t("reference", { digest: error.digest }) : "" })}</p>
      <p>
        <button type="button" onClick={reset}>
          {t("retry")}
        </button>{" "}
        <a href="/">{t("home")}</a>
      </p>
    </div>
  );
}
