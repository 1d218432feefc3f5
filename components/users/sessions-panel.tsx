import { ActionForm } from "@/components/action-form";
import { SimpleTable } from "@/components/simple-table";
import type { ActionResult } from "@/lib/actions/result";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import type { OwnSession } from "@/lib/users/own-sessions";

type FormAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/** /preferences: every open session of the person (where, when, which browser), each of which they may end (`action`, sent the session's handle). */
export async function SessionsPanel({ sessions, action }: { sessions: OwnSession[]; action: FormAction }) {
  const [t, fmt] = await Promise.all([getTranslations("auth.account.sessions"), getFormat()]);
  return (
    <section className="panel" id="sessions">
      <h2>{t("title")}</h2>
      <p>{t("text")}</p>
      <SimpleTable
        rows={sessions}
        rowKey={(session) => session.handle}
        empty={t("none")}
        columns={[
          { header: t("columns.where"), cell: (session) => session.clientAddress ?? "?" },
          {
            header: t("columns.browser"),
            cell: (session) => (
              <>
                {session.browser}
                {session.current && <strong> ({t("current")})</strong>}
              </>
            ),
          },
          { header: t("columns.opened"), cell: (session) => fmt.instant(session.createdAt) },
          { header: t("columns.lastSeen"), cell: (session) => fmt.instant(session.lastSeenAt) },
          {
            header: "",
            cell: (session) => (
              <ActionForm action={action} confirm={t("endConfirm")} className="inline">
                <input type="hidden" name="session" value={session.handle} />
                <button type="submit" className="secondary" aria-label={`${t("end")} ${session.browser} ${session.clientAddress ?? ""}`}>
                  {t("end")}
                </button>
              </ActionForm>
            ),
          },
        ]}
      />
    </section>
  );
}
