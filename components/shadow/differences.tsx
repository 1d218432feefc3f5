import { Link } from "@/components/link";
import { SimpleTable } from "@/components/simple-table";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import type { ShadowDifferenceRow, ShadowRunRow } from "@/lib/states/shadow";
import type { ShadowPageData } from "@/lib/states/shadow-page";
import { shadowCauseText } from "./causes";

type Href = (changes: { run?: number | null; cause?: string | null; page?: number | null }) => string;

/** One run's differences: filtered by cause, paged, each object linked to its page and its cause in words. */
export async function ShadowDifferences({ run, diff, href }: { run: ShadowRunRow; diff: ShadowPageData["differences"]; href: Href }) {
  const t = await getTranslations("shadow");
  const fmt = await getFormat();
  const causeText = await shadowCauseText();
  const consoleSays = (d: ShadowDifferenceRow) =>
    d.consoleHas
      ? t("differences.consoleHas")
      : d.instant.getTime() < run.at.getTime()
        ? t("differences.consoleEnded")
        : t("differences.consoleNever");
  const first = diff.offset + 1;
  const last = diff.offset + diff.rows.length;
  return (
    <section className="panel" aria-labelledby="shadow-differences">
      <h2 id="shadow-differences">{t("differences.title", { id: String(run.id) })}</h2>
      <p className="muted">
        {t("differences.summary", {
          at: fmt.instant(run.at),
          objects: run.objects,
          fredLastRun: run.fredLastRun ? fmt.instant(run.fredLastRun) : t("differences.fredNeverRan"),
        })}
      </p>
      {diff.causes.length > 0 && (
        <p className="shadow-filter">
          {t("differences.filter")}:{" "}
          {diff.cause === null ? (
            <strong>{t("differences.all", { count: fmt.number(run.differences) })}</strong>
          ) : (
            <Link href={href({ run: run.id, cause: null })}>{t("differences.all", { count: fmt.number(run.differences) })}</Link>
          )}
          {diff.causes.map(([cause, n]) => (
            <span key={cause}>
              {" · "}
              {diff.cause === cause ? (
                <strong>{t("cause.count", { count: fmt.number(n), cause: causeText(cause) })}</strong>
              ) : (
                <Link href={href({ run: run.id, cause })}>{t("cause.count", { count: fmt.number(n), cause: causeText(cause) })}</Link>
              )}
            </span>
          ))}
        </p>
      )}
      <p data-testid="shadow-total">{t("differences.total", { total: diff.total, from: fmt.number(first), to: fmt.number(last) })}</p>
      {diff.rows.length > 0 && (
        <SimpleTable
          className="shadow-differences"
          rows={diff.rows}
          rowKey={(d) => `${d.objectId}:${d.stateId}`}
          empty=""
          columns={[
            {
              header: t("differences.columns.object"),
              cell: (d) =>
                d.name === null ? (
                  t("differences.unknownObject", { id: String(d.objectId) })
                ) : (
                  <Link href={`/objects/${d.objectId}`}>{d.name}</Link>
                ),
            },
            { header: t("differences.columns.state"), cell: (d) => d.state, className: "mono" },
            { header: t("differences.columns.instant"), cell: (d) => fmt.instant(d.instant), className: "nowrap" },
            { header: t("differences.columns.console"), cell: consoleSays },
            {
              header: t("differences.columns.fred"),
              cell: (d) => (d.fredHas ? t("differences.fredHas") : t("differences.fredHasNot")),
            },
            {
              header: t("differences.columns.cause"),
              cell: (d) => <span className={d.cause === "unexplained" ? "result-error" : undefined}>{causeText(d.cause)}</span>,
            },
          ]}
        />
      )}
      {diff.pages > 1 && (
        <nav className="pager" aria-label={t("differences.pages")}>
          {diff.page > 1 && (
            <a className="pager-link" href={href({ run: run.id, page: diff.page - 1 })}>
              {t("differences.previous")}
            </a>
          )}
          {diff.page < diff.pages && (
            <a className="pager-link" href={href({ run: run.id, page: diff.page + 1 })}>
              {t("differences.next")}
            </a>
          )}
        </nav>
      )}
    </section>
  );
}
