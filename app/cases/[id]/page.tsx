import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ActionNotices } from "@/components/action-form";
import { CaseEvents } from "@/components/cases/case-events";
import { CaseFacts } from "@/components/cases/case-facts";
import { AddChangeForm, EndCaseForm, ReviewForm } from "@/components/cases/case-forms";
import { CaseItems } from "@/components/cases/case-items";
import { PendingTable } from "@/components/cases/pending-table";
import { Link } from "@/components/link";
import { forPage } from "@/lib/auth/page";
import { caseDetail } from "@/lib/cases/detail";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import { parseId } from "@/lib/input/values";
import { caseChangeAction, endCaseAction, reviewCaseAction } from "../actions";
import { PENDING_ACTIONS } from "../pending-actions";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("cases");
  return { title: t("title") };
}

/** One case: its facts, what was made in it and what ends when, what waits for approval, its review and its record. */
export default async function CasePage(props: PageProps<"/cases/[id]">) {
  const { id: idText } = await props.params;
  const id = parseId(idText) ?? Number.NaN;
  const detail = await forPage(() => caseDetail(id));
  if (!detail) notFound();
  const [t, _fmt] = await Promise.all([getTranslations("cases"), getFormat()]);
  const c = detail.case;
  const open = c.status === "open";
  const writable = open && detail.mayWrite;
  const waiting = detail.pending.filter((p) => p.status === "pending");
  return (
    <>
      <div className="page-head">
        <h1>{t("detail.title", { id: String(c.id), reference: c.reference })}</h1>
        <CaseFacts c={c} className="muted" showDue={true} />
      </div>

      <section className="panel" aria-labelledby="case-items">
        <h2 id="case-items">{t("detail.items")}</h2>
        <CaseItems items={detail.items} />
      </section>

      {(waiting.length > 0 || detail.pending.length > 0) && (
        <section className="panel" aria-labelledby="case-pending">
          <h2 id="case-pending">{t("detail.pending")}</h2>
          <PendingTable changes={detail.pending} showCase={false} actions={writable ? PENDING_ACTIONS : null} />
        </section>
      )}

      {writable && <AddChangeForm caseId={c.id} action={caseChangeAction} />}

      {writable && <ReviewForm caseId={c.id} action={reviewCaseAction} />}

      {/* Said here even once the case has ended and its forms are gone. */}
      <ActionNotices>{writable && <EndCaseForm caseId={c.id} action={endCaseAction} />}</ActionNotices>

      <section className="panel" aria-labelledby="case-record">
        <h2 id="case-record">{t("detail.record")}</h2>
        <p className="case-record-links">
          <Link href={`/cases/${c.id}/record`}>{t("detail.printable")}</Link>
          <a href={`/cases/${c.id}/record.csv`} download>
            {t("detail.csv")}
          </a>
        </p>
        <CaseEvents events={detail.events} />
      </section>
    </>
  );
}
