import type { Metadata } from "next";
import { AuditTable } from "@/components/audit/audit-table";
import { Notices } from "@/components/notices";
import { WallTimeInput } from "@/components/wall-time-input";
import { render } from "@/lib/actions/message";
import { listAudit } from "@/lib/audit/query";
import { forPage } from "@/lib/auth/page";
import { getLocale, getTranslations } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("admin");
  return { title: t("audit.title") };
}

export default async function AuditPage(props: PageProps<"/audit">) {
  const params = await props.searchParams;
  const audit = await forPage(() => listAudit(params));
  const older = new URLSearchParams(Object.entries(audit.filters).filter(([, v]) => v));
  if (audit.nextBefore) older.set("before", String(audit.nextBefore));
  const t = await getTranslations("admin");
  const locale = await getLocale();
  return (
    <>
      <div className="page-head">
        <h1>{t("audit.title")}</h1>
        <p className="muted">{t("audit.subtitle")}</p>
      </div>
      <Notices notices={audit.notices.map((notice) => render(notice, locale))} />
      <form className="filters audit-filters" method="get">
        <label>
          {t("audit.filters.actor")}
          <input name="actor" defaultValue={audit.filters.actor} />
        </label>
        <label>
          {t("audit.filters.action")}
          <select aria-label={t("audit.filters.action")} name="action" defaultValue={audit.filters.action}>
            <option value="">{t("audit.filters.anyAction")}</option>
            {audit.actions.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
        <label>
          {t("audit.filters.object")}
          <input name="object" defaultValue={audit.filters.object} />
        </label>
        <label>
          {t("audit.filters.from")}
          <WallTimeInput name="from" defaultValue={audit.filters.from} />
        </label>
        <label>
          {t("audit.filters.to")}
          <WallTimeInput name="to" defaultValue={audit.filters.to} />
        </label>
        <button type="submit">{t("audit.filters.submit")}</button>
      </form>
      {audit.rows.length === 0 ? <p className="empty">{t("audit.empty")}</p> : <AuditTable rows={audit.rows} />}
      {audit.nextBefore && (
        <nav className="pager" aria-label={t("audit.pages")}>
          <a className="pager-link" href={`/audit?${older.toString()}`}>
            {t("audit.older")}
          </a>
        </nav>
      )}
    </>
  );
}
