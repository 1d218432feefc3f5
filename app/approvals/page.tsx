import type { Metadata } from "next";
import { PendingTable } from "@/components/cases/pending-table";
import { forPage } from "@/lib/auth/page";
import { mayWriteCases, pendingChanges } from "@/lib/cases/pending";
import { getTranslations } from "@/lib/i18n/server";
import { PENDING_ACTIONS } from "../cases/pending-actions";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("cases.approvals");
  return { title: t("title") };
}

/** The queue of changes waiting for a second person, oldest first. */
export default async function ApprovalsPage() {
  const [changes, mayWrite] = await forPage(() => Promise.all([pendingChanges(), mayWriteCases()]));
  const t = await getTranslations("cases.approvals");
  return (
    <>
      <div className="page-head">
        <h1>{t("title")}</h1>
        <p className="muted">{t("intro")}</p>
      </div>
      <PendingTable changes={changes} showCase actions={mayWrite ? PENDING_ACTIONS : null} />
    </>
  );
}
