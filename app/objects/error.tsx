"use client";

import { useTranslations } from "@/lib/i18n/client";

export default function ObjectsError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations("objects");
  return (
    <div className="error-page" role="alert">
      <h1>{t("error.title")}</h1>
      <p>{t("error.body", { reference: error.digest ? t("error.reference", { digest: error.digest }) : "" })}</p>
      <p>
        <button type="button" onClick={reset}>
          {t("error.retry")}
        </button>{" "}
        <a href="/objects">{t("error.withoutFilters")}</a>
      </p>
    </div>
  );
}
