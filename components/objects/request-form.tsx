"use client";

import { type ReactNode, startTransition, useActionState, useEffect, useRef, useState } from "react";
import { ActionMessage } from "@/components/action-form";
import { WallTimeInput } from "@/components/wall-time-input";
import type { ActionResult } from "@/lib/actions/result";
import { wallPeriodEnd, wallTime, zonedTimeToInstant } from "@/lib/format/instant";
import { useFormat, useTranslations } from "@/lib/i18n/client";
import { START_GRACE_MS } from "@/lib/requests/limits";

type FormAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

interface RequestFormProps {
  action: FormAction;
  preview: FormAction;
  objectId: number;
  objectName: string;
  states: { name: string; description: string; refuses: string[] }[];
  timeZone: string;
  reasonMax: number;
  /** The case the request is made in (components/cases/case-choice.tsx). */
  caseChoice?: ReactNode;
}

const newKey = () => crypto.randomUUID();

/** The common periods the end field offers (their labels are the catalogue's quickEnds). */
const QUICK_ENDS = ["days7", "days30", "monthEnd"] as const;

/**
 * Create a manual state request: state (none chosen at first), start (empty = now, confirmed before
 * it is sent), optional end, reason. A summary says what will be asked for, and what about the period
 * would be refused, before it is sent; the server checks every rule again. Each submission
 * carries a key of its own, so a double click or a retry creates one request.
 */
export function RequestForm({
  action,
  preview,
  objectId,
  objectName,
  states: requestable,
  timeZone,
  reasonMax,
  caseChoice,
}: RequestFormProps) {
  // serverBlocked belongs to the block action (with its prohibitions); the server refuses it here too.
  const states = requestable.filter((s) => s.name !== "serverBlocked");
  const blockElsewhere = states.length < requestable.length;
  const t = useTranslations("object.form");
  const fmt = useFormat();
  const [result, formAction, pending] = useActionState(action, null);
  const [previewed, previewAction, previewing] = useActionState(preview, null);
  const [key, setKey] = useState(newKey);
  // No state chosen at first: a reason and Enter must not request whatever happens to be first.
  const [state, setState] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  // Controlled: a form action resets uncontrolled fields, and the preview must not wipe the reason.
  const [reason, setReason] = useState("");
  // A date and time typed only in part: the field's value is empty then, which would read as "now".
  const [fromTyping, setFromTyping] = useState(false);
  const [toTyping, setToTyping] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  // A new request gets a new key; a failed one keeps its key, so resending it stays idempotent.
  useEffect(() => {
    if (result?.ok) {
      // The form was reset after sending: the fields start afresh.
      setKey(newKey());
      setReason("");
      setFrom("");
      setTo("");
      setState("");
    }
  }, [result]);
  const chosen = states.find((s) => s.name === state);
  // The wall time typed, as every time on the console's pages: English "2026-11-29 10:00 CET",
  // Czech "29. 11. 2026 10:00 SEČ" (the zone's abbreviation at that instant).
  const show = (value: string) => fmt.instant(zonedTimeToInstant(value, timeZone));
  // A preview belongs to what was typed when it was asked for: a change or a new request hides it.
  const fields = [key, state, from, to, reason].join("\u0000");
  const [previewedFields, setPreviewedFields] = useState<string | null>(null);
  const showPreview = previewed && !previewing && previewedFields === fields;
  // What the server would refuse about the period, said while typing (wall times in the registry's zone).
  const wall = (value: string) => (value.length === 16 ? `${value}:00` : value);
  const now = wallTime(Date.now(), timeZone);
  // The server takes a start up to a minute ago as now (the form took a moment to send); an earlier
  // one it refuses, so it is said here instead of asking "from now?" first.
  const graceStart = wallTime(Date.now() - START_GRACE_MS, timeZone);
  const period = fromTyping
    ? t("startIncomplete")
    : toTyping
      ? t("endIncomplete")
      : from && wall(from) < graceStart
        ? t("startInPast", { from: show(from) })
        : to && from && wall(to) <= wall(from)
          ? t("endBeforeStart", { to: show(to), from: show(from) })
          : to && wall(to) <= now
            ? t("endInPast", { to: show(to) })
            : null;
  const startsNow = !from || wall(from) <= now;

  return (
    <form
      ref={formRef}
      action={formAction}
      className="request-form"
      aria-label={t("label")}
      onSubmit={(event) => {
        // Sent here, not by the form action, which would reset the fields afterwards even when the
        // server refuses (the state select then showed "choose a state" under a summary naming it).
        event.preventDefault();
        // A request from now takes effect at once: asked for once more before it is sent.
        if (chosen && startsNow && !window.confirm(t("confirmNow", { state: chosen.name, name: objectName }))) return;
        const data = new FormData(event.currentTarget);
        startTransition(() => formAction(data));
      }}
    >
      <input type="hidden" name="objectId" value={objectId} />
      <input type="hidden" name="idempotencyKey" value={key} />
      <fieldset disabled={pending || previewing} className="plain">
        <div className="filter-row">
          <label>
            {t("state")}
            <select aria-label={t("state")} name="state" value={state} required onChange={(e) => setState(e.target.value)}>
              <option value="">{t("chooseState")}</option>
              {states.map((s) => (
                <option key={s.name} value={s.name}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          <WallTimeField label={t("start", { zone: timeZone })} name="from" value={from} onValue={setFrom} onPartial={setFromTyping} />
          <WallTimeField label={t("end")} name="to" value={to} onValue={setTo} onPartial={setToTyping} />
          {/* Common periods, counted from the start (or from now) in the registry's wall time. */}
          <fieldset className="quick-ends">
            <legend className="visually-hidden">{t("quickEnd")}</legend>
            {QUICK_ENDS.map((choice) => (
              <button
                key={choice}
                type="button"
                className="secondary"
                onClick={() => {
                  setTo(wallPeriodEnd(choice, from || now.slice(0, 16)));
                  setToTyping(false);
                }}
              >
                {t(`quickEnds.${choice}`)}
              </button>
            ))}
          </fieldset>
        </div>
        {caseChoice}
        <label className="reason">
          {t("reason", { max: reasonMax })}
          <textarea name="reason" maxLength={reasonMax} required rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
        {blockElsewhere && <p className="muted">{t("blockElsewhere")}</p>}
        {chosen && (
          <p className="preview" role="status" aria-live="polite">
            {t.rich("preview", {
              name: objectName,
              state: chosen.name,
              description: chosen.description,
              start: fromTyping ? t("fromIncomplete") : from ? t("fromWhen", { when: show(from) }) : t("fromNow"),
              end: toTyping ? t("untilIncomplete") : to ? t("untilWhen", { when: show(to) }) : t("noEnd"),
              refusal: chosen.refuses.length > 0 ? t("refusal", { commands: chosen.refuses.join(", ") }) : "",
              b: (chunks) => <strong>{chunks}</strong>,
            })}
          </p>
        )}
        {period && (
          <p className="form-error" role="alert">
            {period}
          </p>
        )}
        <div className="filter-actions">
          <button
            type="button"
            className="secondary"
            // Not a form action: those reset the form afterwards, and a preview must keep what was typed.
            onClick={() => {
              const form = formRef.current;
              if (!form) return;
              setPreviewedFields(fields);
              startTransition(() => previewAction(new FormData(form)));
            }}
          >
            {t("previewButton")}
          </button>
          <button type="submit" disabled={period !== null}>
            {t("submit")}
          </button>
        </div>
        {showPreview && (
          <div className={previewed.ok ? "preview-result" : "form-error"} role={previewed.ok ? "status" : "alert"}>
            <strong>{t("previewResult")}</strong>
            {previewed.ok ? previewed.message : previewed.error}
          </div>
        )}
      </fieldset>
      <ActionMessage result={result} />
    </form>
  );
}

/**
 * A date and time field that also says when it holds a date typed only in part (its value is empty
 * then, which would read as "now"). Chrome fires no input event while a date is incomplete, so the
 * field is also checked on key-up and on leaving it.
 */
function WallTimeField({
  label,
  name,
  value,
  onValue,
  onPartial,
}: {
  label: string;
  name: string;
  value: string;
  onValue: (value: string) => void;
  onPartial: (partial: boolean) => void;
}) {
  return (
    <label>
      {label}
      <WallTimeInput name={name} value={value} onValue={onValue} onPartial={onPartial} />
    </label>
  );
}
