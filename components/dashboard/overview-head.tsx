import { Link } from "@/components/link";
import { getFormat, getTranslations } from "@/lib/i18n/server";

/** The overview's title and what its counts are: as of when, or (the first count since the start still running) coming. */
export async function OverviewHead({ asOf, timeZone, minutes }: { asOf: string | null; timeZone: string; minutes: number }) {
  const [t, fmt] = await Promise.all([getTranslations("dashboard"), getFormat()]);
  return (
    <div className="page-head">
      <h1>{t("title")}</h1>
      {asOf === null ? (
        <p className="notice" role="status">
          {t.rich("counting", {
            refresh: (chunks) => <Link href="/?refresh=1">{chunks}</Link>,
          })}
        </p>
      ) : (
        <p className="muted">
          {t.rich("intro", {
            zone: timeZone,
            asOf: fmt.instant(asOf),
            minutes,
            time: (chunks) => <time dateTime={asOf}>{chunks}</time>,
            refresh: (chunks) => <Link href="/?refresh=1">{chunks}</Link>,
          })}
        </p>
      )}
    </div>
  );
}
