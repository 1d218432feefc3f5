import type { ReactNode } from "react";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import type { ObjectDetail } from "@/lib/objects/detail";

/**
 * Beside FRED and in shadow: the object's automatic states that FRED's regular procedure has not
 * recorded as the rules give them now, each with the rules' instant and why (its next run, one of
 * FRED's known bugs, or neither), and when the procedure last ran and is next expected; nothing
 * when they agree, and nothing in charge.
 */
export async function FredProcedureNotice({ object }: { object: Pick<ObjectDetail, "fredProcedure"> }) {
  const notice = object.fredProcedure;
  if (!notice || notice.states.length === 0) return null;
  const [t, fmt] = await Promise.all([getTranslations("object"), getFormat()]);
  const b = (chunks: ReactNode) => <strong>{chunks}</strong>;
  return (
    <section className="notice fred-procedure" aria-labelledby="fred-procedure" data-testid="fred-procedure">
      <h3 id="fred-procedure">{t("fredProcedure.title", { mode: notice.mode })}</h3>
      <ul>
        {notice.states.map((s) => {
          const at = s.instant ? fmt.instant(s.instant) : "";
          const has = s.consoleHas ? "rules" : "fred";
          return (
            <li key={s.state}>
              {s.cause === "fred_bug"
                ? t.rich("fredProcedure.bug", { state: s.state, has, bug: s.bug ?? "", b })
                : s.cause === "unexplained"
                  ? t.rich("fredProcedure.unexplained", { state: s.state, has, from: s.instant ? "yes" : "none", fromAt: at, b })
                  : s.consoleHas
                    ? t.rich("fredProcedure.starts", { state: s.state, from: at, b })
                    : t.rich("fredProcedure.ends", { state: s.state, to: s.instant ? "yes" : "none", toAt: at, b })}
            </li>
          );
        })}
      </ul>
      <p>
        {t("fredProcedure.run", {
          last: notice.lastRun ? "yes" : "none",
          lastAt: notice.lastRun ? fmt.instant(notice.lastRun) : "",
          next: notice.nextRun ? "yes" : "none",
          nextAt: notice.nextRun ? fmt.instant(notice.nextRun) : "",
        })}
      </p>
    </section>
  );
}
