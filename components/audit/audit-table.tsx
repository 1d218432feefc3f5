import type { AuditRow } from "@/lib/audit/query";
import { shownInput } from "@/lib/audit/said";
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

/**
 * The audit log's entries, newest first. It fits 1,366 px with no word cut in two (ids, times,
 * results and addresses stay whole; actions and error codes break after a dot or an underscore),
 * and on a phone each cell's one element sits beside its label.
 */
export async function AuditTable({ rows }: { rows: AuditRow[] }) {
  const [t, tc, fmt, locale] = await Promise.all([getTranslations("admin"), getTranslations("common"), getFormat(), getLocale()]);
  return (
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
        {rows.map((row) => (
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
  );
}
