"use client";

import { ActionForm } from "@/components/action-form";
import { ProhibitionChoices } from "@/components/objects/prohibition-choices";
import { WallTimeInput } from "@/components/wall-time-input";
import type { ActionResult } from "@/lib/actions/result";
import { formatWallInput } from "@/lib/format/wall-input";
import { useLocale, useTranslations } from "@/lib/i18n/client";
import type { Locale } from "@/lib/i18n/config";
import { blockChanges, changesNothing } from "@/lib/requests/block-change";

type FormAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

/**
 * The change of a block, filled with what it is now: its start (when still ahead), its end and its
 * prohibitions. What the person leaves stays as it is; before sending, the confirmation lists what
 * changes, before → after, and what is kept.
 */
export function ChangeBlockForm({
  action,
  objectId,
  objectName,
  block,
  ahead,
  current,
  choices,
  labels,
  reasonMax,
}: {
  action: FormAction;
  objectId: number;
  objectName: string;
  /** The console's id, or the serverBlocked request of a block FRED made (id null). */
  block: { id: number | null; requestId: number };
  /** Not begun yet: its start may move. */
  ahead: boolean;
  /** Its start and end as wall times of the registry's zone, to the minute ("" for no end); its prohibitions. */
  current: { from: string; to: string; prohibitions: string[] };
  /** The prohibitions it may set. */
  choices: string[];
  labels: { start: string; end: string; reason: string; submit: string };
  reasonMax: number;
}) {
  const t = useTranslations("object.blockChange");
  const locale = useLocale() as Locale;
  const shown = (wall: string | null) => (wall ? formatWallInput(wall, locale, true) : t("noEnd"));

  const question = (data: FormData): string | null => {
    const text = (name: string) => String(data.get(name) ?? "");
    const changes = blockChanges(
      { from: current.from, to: current.to || null, prohibitions: current.prohibitions },
      { from: ahead ? text("from") || current.from : null, to: text("to") || null, prohibitions: data.getAll("prohibitions").map(String) },
    );
    // Nothing changes: the server says so, and changes nothing.
    if (changesNothing(changes)) return null;
    const lines = [block.id === null ? t("confirmFred", { name: objectName }) : t("confirm", { id: String(block.id), name: objectName })];
    if (changes.added.length) lines.push(t("added", { states: changes.added.join(", ") }));
    if (changes.removed.length) lines.push(t("removed", { states: changes.removed.join(", ") }));
    if (changes.kept.length) lines.push(t("kept", { states: changes.kept.join(", ") }));
    if (ahead)
      lines.push(
        changes.from
          ? t("start", { before: shown(changes.from.before), after: shown(changes.from.after) })
          : t("startKept", { start: shown(current.from) }),
      );
    lines.push(
      changes.to
        ? t("end", { before: shown(changes.to.before), after: shown(changes.to.after) })
        : t("endKept", { end: shown(current.to) }),
    );
    lines.push(t("reason", { reason: text("reason") }));
    return lines.join("\n");
  };

  return (
    <ActionForm action={action} className="block-form" confirm={question}>
      {block.id === null ? (
        <input type="hidden" name="blockRequestId" value={block.requestId} />
      ) : (
        <input type="hidden" name="blockId" value={block.id} />
      )}
      <input type="hidden" name="objectId" value={objectId} />
      <div className="filter-row">
        {ahead && (
          <label>
            {labels.start}
            <WallTimeInput name="from" defaultValue={current.from} />
          </label>
        )}
        <label>
          {labels.end}
          <WallTimeInput name="to" defaultValue={current.to} />
        </label>
      </div>
      <ProhibitionChoices choices={choices.map((name) => ({ name, checked: current.prohibitions.includes(name) }))} />
      <label className="reason">
        {labels.reason}
        <input name="reason" required maxLength={reasonMax} />
      </label>
      <button type="submit">{labels.submit}</button>
    </ActionForm>
  );
}
