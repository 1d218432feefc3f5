"use client";

import { useTranslations } from "@/lib/i18n/client";

/**
 * What a page that failed on the server shows, in the person's language, with the log's
 * reference: the console's general texts, or a part's own (`texts`, e.g. the object list's,
 * whose way back keeps nothing of the failed filter).
 */
export function PageError({
  error,
  reset,
  texts = "common.pageError",
  home = "/",
}: {
  error: Error & { digest?: string };
  reset: () => void;
  texts?: "common.pageError" | "objects.error";
  home?: string;
}) {
  const t = useTranslations(texts);
  return (
    <div className="error-page" role="alert">
      <h1>{t("title")}</h1>
      <p>{t("body", { reference: error.digest ? t("reference", { digest: error.digest }) : "" })}</p>
      <p>
        <button type="button" onClick={reset}>
          {t("retry")}
        </button>{" "}
        <a href={home}>{t("home")}</a>
      </p>
    </div>
  );
}
