import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CaseEvents } from "@/components/cases/case-events";
import { CaseFacts } from "@/components/cases/case-facts";
import { CaseItems } from "@/components/cases/case-items";
import { Link } from "@/components/link";
import { forPage } from "@/lib/auth/page";
import { caseDetail } from "@/lib/cases/detail";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import { parseId } from "@/lib/input/values";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("cases");
  return { title: t("detail.record") };
}

/** A case's record to print or hand over: the case, what was made in it, and every step, without forms. */
export default async function CaseRecordPage(props: PageProps<"/cases/[id]/record">) {
  const { id: idText } = await props.params;
  const id = parseId(idText) ?? Number.NaN;
  const detail = await forPage(() => caseDetail(id));
  if (!detail) notFound();
  const [t, _fmt] = await Promise.all([getTranslations("cases"), getFormat()]);
  const c = detail.case;
  return (
    <article className="case-record">
      <div className="page-head">
        <h1>
          {t("detail.record")}: {t("detail.title", { id: String(c.id), reference: c.reference })}
        </h1>
        <CaseFacts c={c} showDue={false} />
        <p className="case-record-links no-print">
          <Link href={`/cases/${c.id}`}>{t("detail.back")}</Link>
          <a href={`/cases/${c.id}/record.csv`} download>
            {t("detail.csv")}
          </a>
        </p>
      </div>
      <section aria-labelledby="record-items">
        <h2 id="record-items">{t("detail.items")}</h2>
        <CaseItems items={detail.items} />
      </section>
      <section aria-labelledby="record-steps">
        <h2 id="record-steps">{t("detail.steps")}</h2>
        <CaseEvents events={detail.events} />
      </section>
    </article>
  );
}
