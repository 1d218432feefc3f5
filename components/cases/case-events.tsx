import { Link } from "@/components/link";
import { render } from "@/lib/actions/message";
import { restoredMessage } from "@/lib/audit/said";
import type { CaseEvent } from "@/lib/cases/detail";
import { getFormat, getLocale, getTranslations } from "@/lib/i18n/server";

/** A case's record, in order: who did what, when, on which object. */
export async function CaseEvents({ events }: { events: CaseEvent[] }) {
  const [t, fmt, locale] = await Promise.all([getTranslations("cases.event"), getFormat(), getLocale()]);
  // A change's summary is kept with its instants marked (lib/audit/said.ts): said in the reader's language and zone.
  const said = (value: unknown) => {
    const message = restoredMessage(value);
    return message ? render(message, locale) : value == null || typeof value === "object" ? "" : String(value);
  };
  return (
    <ol className="case-events">
      {events.map((e) => (
        <li key={e.id} data-event={e.event}>
          <time dateTime={new Date(e.at).toISOString()}>{fmt.instant(e.at)}</time> <strong>{e.actor}</strong>{" "}
          {(t as unknown as (key: string, values: Record<string, string>) => string)(e.event, {
            note: said(e.detail.note),
            summary: said(e.detail.summary),
            reason: said(e.detail.reason),
            proposedBy: said(e.detail.proposedBy),
            why: said(e.detail.why),
          })}
          {e.object && e.objectId && (
            <>
              {" "}
              (<Link href={`/objects/${e.objectId}`}>{e.object}</Link>)
            </>
          )}
        </li>
      ))}
    </ol>
  );
}
