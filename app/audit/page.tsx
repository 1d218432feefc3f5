import type { Metadata } from "next";
import { Notices } from "@/components/notices";
import { WallTimeInput } from "@/components/wall-time-input";
import { render } from "@/lib/actions/message";
import { listAudit } from "@/lib/audit/query";
import { shownInput } from "@/lib/audit/said";
import { forPage } from "@/lib/auth/page";
import { isRole } from "@/lib/auth/roles";
import { getFormat, getLocale, getTranslations } from "@/lib/i18n/server";

/** An instant as the audit log records it in its inputs (UTC, ISO 8601); shown in the registry's zone like every time. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/;

/** An identifier (user.second_factor.enrol, not_in_console_group) that may break only after a dot or an underscore. */
function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[._])/);
  return (
    <span>
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one identifier, in their order.
        <span key={i}>
          {i > 0 && <wbr />}
          {part}
        </span>
      ))}
    </span>
  );
}

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
  const tc = await getTranslations("common");
  const fmt = await getFormat();
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
      {audit.rows.length === 0 ? (
        <p className="empty">{t("audit.empty")}</p>
      ) : (
        <table className="data-table audit-log">
          <thead>
            <tr>
              <th scope="col">{t("audit.columns.id")}</th>
              <th scope="col">{t("audit.columns.time")}</th>
              <th scope="col">{t("audit.columns.actor")}</th>
              <th scope="col">{t("audit.columns.action")}</th>
              <th scope="col">{t("audit.columns.objects")}</th>
              <th scope="col">{t("audit.columns.input")}</th>
              <th scope="col">{t("audit.columns.result")}</th>
              <th scope="col">{t("audit.columns.client")}</th>
            </tr>
          </thead>
          <tbody>
            {audit.rows.map((row) => (
              <tr key={row.id}>
                <td data-label={t("audit.columns.id")} className="nowrap numeric">
                  {String(row.id)}
                </td>
                <td data-label={t("audit.columns.time")} className="nowrap">
                  {fmt.instant(row.at)}
                </td>
                {/* Each cell's content is one element: on a phone the cell is a grid of its label and its value. */}
                <td data-label={t("audit.columns.actor")} className="audit-actor">
                  <div>
                    {row.actor ?? tc("none")}
                    {row.role && <div className="muted">{isRole(row.role) ? tc(`roles.${row.role}`) : row.role}</div>}
                  </div>
                </td>
                <td data-label={t("audit.columns.action")} className="mono audit-action">
                  <Breakable text={row.action} />
                </td>
                <td data-label={t("audit.columns.objects")} className="audit-objects">
                  <div>
                    {row.objects.map((o, i) => (
                      <span key={o.id}>
                        {i > 0 && ", "}
                        {o.name ? <a href={`/objects/${o.id}`}>{o.name}</a> : o.id}
                      </span>
                    ))}
                  </div>
                </td>
                <td data-label={t("audit.columns.input")} className="audit-input">
                  <div>
                    {/* A refusal's text in the reader's language when it is one of the console's messages (lib/audit/said.ts). */}
                    {shownInput(row.input, locale).map(([key, value]) => (
                      <div key={key}>
                        <span className="muted">{key}:</span>{" "}
                        {typeof value === "string" ? (ISO_INSTANT.test(value) ? fmt.instant(value) : value) : JSON.stringify(value)}
                      </div>
                    ))}
                  </div>
                </td>
                <td data-label={t("audit.columns.result")} className={`audit-result result-${row.result}`}>
                  <div>
                    {t("audit.result", { result: row.result })}
                    {row.errorCode && (
                      <div className="muted">
                        <Breakable text={row.errorCode} />
                      </div>
                    )}
                  </div>
                </td>
                <td data-label={t("audit.columns.client")} className="mono audit-client">
                  {row.clientAddress ?? ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
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
