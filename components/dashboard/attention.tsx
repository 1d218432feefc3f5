import { Link } from "@/components/link";
import type { Attention } from "@/lib/cases/cases";
import { getFormat, getTranslations } from "@/lib/i18n/server";

/** The overview's list of what people must look at (issue 42): cases due for review, blocks ending soon, changes waiting. */
export async function AttentionPanel({ attention }: { attention: Attention }) {
  const [t, fmt] = await Promise.all([getTranslations("dashboard"), getFormat()]);
  return (
    <section className="panel" aria-labelledby="attention">
      <h2 id="attention">{t("attention.title")}</h2>
      <p>
        <Link href="/approvals">{t("attention.waiting", { count: attention.waiting })}</Link>
      </p>
      <h3>{t("attention.due")}</h3>
      {attention.dueCases.length === 0 ? (
        <p className="muted">{t("attention.noneDue")}</p>
      ) : (
        <ul className="attention-cases">
          {attention.dueCases.map((c) => (
            <li key={c.id}>
              <Link href={`/cases/${c.id}`}>{t("attention.case", { id: String(c.id), reference: c.reference })}</Link>{" "}
              {t("attention.reviewBy", { day: fmt.day(c.reviewBy), owner: c.owner })}
            </li>
          ))}
        </ul>
      )}
      <h3>{t("attention.ending")}</h3>
      {attention.endingBlocks.length === 0 ? (
        <p className="muted">{t("attention.noneEnding")}</p>
      ) : (
        <ul className="attention-blocks">
          {attention.endingBlocks.map((b) => (
            <li key={b.blockId}>
              <Link href={`/objects/${b.objectId}`}>{b.object}</Link> {t("attention.ends", { at: fmt.instant(b.ends) })}
              {b.caseId !== null && (
                <>
                  {" "}
                  (<Link href={`/cases/${b.caseId}`}>{t("attention.inCase", { id: String(b.caseId) })}</Link>)
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
