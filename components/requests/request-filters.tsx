import { WallTimeInput } from "@/components/wall-time-input";
import { getTranslations } from "@/lib/i18n/server";
import { PHASES, type Phase, type RequestList } from "@/lib/requests/read";

/** A phase's message key ("in force" has a space, its key does not). */
export const phaseKey = (phase: Phase) => (phase === "in force" ? "inForce" : phase);

/** The request list's views (all, upcoming, each phase) and its filter form; `f`: the filter in force. */
export async function RequestFilters({ f, states }: { f: RequestList["filter"]; states: string[] }) {
  const t = await getTranslations("requests");
  return (
    <>
      <nav className="type-filter" aria-label={t("list.views.label")}>
        <a href="/requests" aria-current={!f.upcoming && !f.phase ? "page" : undefined}>
          {t("list.views.all")}
        </a>
        <a href="/requests?upcoming=1" aria-current={f.upcoming ? "page" : undefined}>
          {t("list.views.upcoming")}
        </a>
        {PHASES.map((phase) => (
          <a
            key={phase}
            href={`/requests?phase=${encodeURIComponent(phase)}`}
            aria-current={f.phase === phase && !f.upcoming ? "page" : undefined}
          >
            {t(`list.views.phases.${phaseKey(phase)}`)}
          </a>
        ))}
      </nav>
      <form className="filters" method="get" action="/requests" aria-label={t("list.filters.label")}>
        <div className="filter-row">
          <label>
            {t("list.filters.phase")}
            <select aria-label={t("list.filters.phase")} name="phase" defaultValue={f.phase ?? ""}>
              <option value="">{t("list.filters.anyPhase")}</option>
              {PHASES.map((phase) => (
                <option key={phase} value={phase}>
                  {t(`phases.${phaseKey(phase)}`)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("list.filters.state")}
            <select aria-label={t("list.filters.state")} name="state" defaultValue={f.state ?? ""}>
              <option value="">{t("list.filters.anyState")}</option>
              {states.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
          <label>
            {t("list.filters.author")}
            <input name="author" defaultValue={f.author ?? ""} maxLength={64} />
          </label>
          <label>
            {t("list.filters.from")}
            <WallTimeInput name="from" withTime={false} defaultValue={f.from ?? ""} />
          </label>
          <label>
            {t("list.filters.to")}
            <WallTimeInput name="to" withTime={false} defaultValue={f.to ?? ""} />
          </label>
          <label>
            {t("list.filters.object")}
            <input name="object" defaultValue={f.object ?? ""} maxLength={255} />
          </label>
          <label>
            {t("list.filters.id")}
            <input name="id" inputMode="numeric" defaultValue={f.id ?? ""} maxLength={9} />
          </label>
          <label>
            {t("list.filters.batch")}
            <input name="batch" defaultValue={f.batch ?? ""} maxLength={36} />
          </label>
          {f.upcoming && <input type="hidden" name="upcoming" value="1" />}
          {f.sort !== "-start" && <input type="hidden" name="sort" value={f.sort} />}
          <button type="submit">{t("list.filters.apply")}</button>
        </div>
      </form>
    </>
  );
}
