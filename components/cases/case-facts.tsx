import { type CaseRow, registryToday } from "@/lib/cases/cases";
import { getFormat, getTranslations } from "@/lib/i18n/server";

/** A case's facts under its title (kind, who asked, who opened and owns it, review, end) and its description. */
export async function CaseFacts({ c, className, showDue }: { c: CaseRow; className?: string; showDue: boolean }) {
  const [t, fmt] = await Promise.all([getTranslations("cases"), getFormat()]);
  return (
    <>
      <p className={className}>
        {t("detail.facts", {
          kind: c.kindName,
          requestedBy: c.requestedBy,
          createdBy: c.createdBy,
          at: fmt.instant(c.createdAt),
          owner: c.owner,
        })}{" "}
        {c.reviewBy ? t("detail.reviewBy", { day: fmt.day(c.reviewBy) }) : t("detail.noReview")}{" "}
        {showDue && c.reviewBy && c.status === "open" && c.reviewBy <= registryToday() && <span className="badge-off">{t("due")}</span>}
        {c.endedAt && t("detail.ended", { by: c.endedBy ?? "", at: fmt.instant(c.endedAt) })}
      </p>
      {c.description && <p className="case-description">{c.description}</p>}
    </>
  );
}
