import { readConfig } from "@/lib/config";
import { getFormat, getTranslations } from "@/lib/i18n/server";
import type { StateFilter } from "@/lib/objects/filter";

/**
 * Above a list filtered by an instant or a window (issue 41, item 5): what its "when" columns hold,
 * in which time zone, and for "had at" the instant its States then are of.
 */
export async function WhenCaption({ state, states }: { state: StateFilter; states: string[] }) {
  const [t, fmt] = await Promise.all([getTranslations("objects"), getFormat()]);
  return (
    <p className="when-caption">
      {t.rich("table.whenCaption", {
        states: states.join(", "),
        zone: readConfig().registryTimeZone,
        at: state.mode === "at" && state.at ? fmt.instant(state.at.toISOString()) : "none",
        b: (chunks) => <b>{chunks}</b>,
        ahead: (chunks) => <span className="ahead">{chunks}</span>,
      })}
    </p>
  );
}
