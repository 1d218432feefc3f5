import type { ReactNode } from "react";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import type { ObjectDetail, StateRequest } from "@/lib/objects/detail";

/** The lifecycle steps the page foresees, in their usual order, when the object does not hold them yet. */
const NEXT_STATES = ["outzoneUnguardedWarning", "outzone", "deleteWarning"] as const;

/**
 * Scheduled requests as the panel says them: one line per block (its states together, they begin
 * and end together), one per request outside a block; in the order they were given (soonest first).
 */
function scheduledLines(
  scheduled: StateRequest[],
): { from: string; to: string | null; blockId: number | null; states: string[]; ids: number[] }[] {
  const lines = new Map<string, { from: string; to: string | null; blockId: number | null; states: string[]; ids: number[] }>();
  for (const r of scheduled) {
    const key = r.blockId !== null ? `block ${r.blockId} ${r.from} ${r.to}` : `request ${r.id}`;
    const line = lines.get(key) ?? { from: r.from, to: r.to, blockId: r.blockId, states: [], ids: [] };
    line.states.push(r.state);
    line.ids.push(r.id);
    lines.set(key, line);
  }
  // serverBlocked names a block: first, the others by name.
  for (const line of lines.values())
    line.states.sort((a, b) => (a === "serverBlocked" ? -1 : b === "serverBlocked" ? 1 : a.localeCompare(b)));
  return [...lines.values()];
}

/**
 * "What this means now": the zone and the refused commands, then what comes next in date order
 * (the lifecycle's next steps, delete candidacy, scheduled requests). `scheduled`: its scheduled
 * requests, soonest first.
 */
export async function MeaningPanel({ object, scheduled }: { object: ObjectDetail; scheduled: StateRequest[] }) {
  const [t, fmt] = await Promise.all([getTranslations("object"), getFormat()]);
  const ahead: { at: number; key: string; node: ReactNode }[] = [];
  for (const state of NEXT_STATES) {
    // Nothing foreseen for a state it holds, and no warning that it leaves the zone while it is out of it.
    if (object.states.some((s) => s.name === state)) continue;
    if (state === "outzoneUnguardedWarning" && object.inZone === false) continue;
    const next = object.projected.find((p) => p.state === state);
    if (!next) continue;
    // A foreseen period out of the zone that ends (a scheduled serverOutzoneManual): when it returns too.
    ahead.push({
      at: Date.parse(next.from),
      key: state,
      node:
        state === "outzone" && next.to
          ? t("meaning.nextOutzonePeriod", { when: fmt.instant(next.from), until: fmt.instant(next.to) })
          : t(`meaning.next.${state}`, { when: fmt.instant(next.from) }),
    });
  }
  if (object.metadata.deleteCandidateAt)
    ahead.push({
      at: Date.parse(object.metadata.deleteCandidateAt),
      key: "deleteCandidate",
      node: t("meaning.deleteCandidate", { when: fmt.instant(object.metadata.deleteCandidateAt) }),
    });
  for (const line of scheduledLines(scheduled))
    ahead.push({
      at: Date.parse(line.from),
      key: `scheduled ${line.ids[0]}`,
      node: t.rich("meaning.scheduled", {
        from: fmt.instant(line.from),
        until: line.to ? t("meaning.scheduledUntil", { to: fmt.instant(line.to) }) : "",
        states: line.states.join(", "),
        count: line.ids.length,
        ids: line.ids.join(", "),
        block: line.blockId !== null ? String(line.blockId) : "none",
        b: (chunks) => <strong>{chunks}</strong>,
      }),
    });
  // Soonest first; equal instants keep the order above.
  ahead.sort((a, b) => a.at - b.at);
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
        {ahead.map((item) => (
          <li key={item.key}>{item.node}</li>
        ))}
      </ul>
    </section>
  );
}
