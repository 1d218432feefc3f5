import { getFormat, getTranslations } from "@/lib/i18n/server";
import type { ObjectDetail, StateRequest } from "@/lib/objects/detail";

/** The lifecycle steps the page foresees, in their usual order, when the object does not hold them yet. */
const NEXT_STATES = ["outzoneUnguardedWarning", "outzone", "deleteWarning"] as const;

/** "What this means now": the zone, the refused commands, what comes next. `scheduled`: its scheduled requests, soonest first. */
export async function MeaningPanel({ object, scheduled }: { object: ObjectDetail; scheduled: StateRequest[] }) {
  const [t, fmt] = await Promise.all([getTranslations("object"), getFormat()]);
  return (
    <section className="panel meaning" aria-labelledby="meaning">
      <h2 id="meaning">{t("meaning.title")}</h2>
      <ul>
        {object.inZone !== null && <li>{object.inZone ? t("meaning.inZone") : t("meaning.outZone")}</li>}
        {object.refusals.length === 0 ? (
          <li>{t("meaning.noRefusals")}</li>
        ) : (
          object.refusals.map((r) => (
            <li key={r.command}>
              {t.rich("meaning.refused", { command: r.command, states: r.states.join(", "), b: (chunks) => <strong>{chunks}</strong> })}
            </li>
          ))
        )}
        {NEXT_STATES.map((state) => {
          // Nothing foreseen for a state it holds, and no warning that it leaves the zone while it is out of it.
          if (object.states.some((s) => s.name === state)) return null;
          if (state === "outzoneUnguardedWarning" && object.inZone === false) return null;
          const next = object.projected.find((p) => p.state === state);
          if (!next) return null;
          // A foreseen period out of the zone that ends (a scheduled serverOutzoneManual): when it returns too.
          return (
            <li key={state}>
              {state === "outzone" && next.to
                ? t("meaning.nextOutzonePeriod", { when: fmt.instant(next.from), until: fmt.instant(next.to) })
                : t(`meaning.next.${state}`, { when: fmt.instant(next.from) })}
            </li>
          );
        })}
        {object.metadata.deleteCandidateAt && (
          <li>{t("meaning.deleteCandidate", { when: fmt.instant(object.metadata.deleteCandidateAt) })}</li>
        )}
        {scheduled.map((r) => (
          <li key={r.id}>
            {t.rich("meaning.scheduled", {
              from: fmt.instant(r.from),
              until: r.to ? t("meaning.scheduledUntil", { to: fmt.instant(r.to) }) : "",
              state: r.state,
              id: String(r.id),
              block: r.blockId ? String(r.blockId) : "none",
              b: (chunks) => <strong>{chunks}</strong>,
            })}
          </li>
        ))}
      </ul>
    </section>
  );
}
