"use client";

import { startTransition, useActionState, useEffect, useRef, useState } from "react";
import { ActionMessage } from "@/components/action-form";
import { ProhibitionChoices } from "@/components/objects/prohibition-choices";
import { WallTimeInput } from "@/components/wall-time-input";
import type { ActionResult } from "@/lib/actions/result";
import { useFormat, useTranslations } from "@/lib/i18n/client";
import type { BulkResult } from "@/lib/requests/bulk";

interface BulkFormProps {
  action: (previous: ActionResult<BulkResult> | null, form: FormData) => Promise<ActionResult<BulkResult>>;
  types: string[];
  /** The manual states, each with the object types it is valid for. */
  states: { name: string; types: string[] }[];
  prohibitions: { name: string; checked: boolean; types: string[] }[];
  timeZone: string;
  max: number;
  /** The object list's filter to start from (its query string), instead of pasted names. */
  filter: string;
  /** The objects chosen on the object list, as names (and their type when they share one); ids that name no live object are counted. */
  chosen?: { names: string[]; type: string | null; missing: number } | null;
  /** What that filter matches now: how many objects (more: past the limit) and its object type. */
  preview: { count: number; more: boolean; type: string | null } | null;
  /** The open cases the change may be made in, and the one chosen (from a case's page). */
  cases?: { id: number; label: string }[];
  caseId?: number | null;
}

/**
 * A request or a block for many objects: paste names, dry-run, then apply to all. The dry run and
 * the apply send the same fields; only "apply" differs. The batch key stays the same until a batch
 * is applied, so a repeated apply does nothing new.
 */
export function BulkForm({
  action,
  types,
  states,
  prohibitions,
  timeZone,
  max,
  filter,
  preview,
  chosen,
  cases = [],
  caseId = null,
}: BulkFormProps) {
  const t = useTranslations("requests.bulk.form");
  const fmt = useFormat();
  const [result, dispatch, pending] = useActionState(action, null);
  const [batchId, setBatchId] = useState(() => crypto.randomUUID());
  const [kind, setKind] = useState("block");
  // Offered only what the chosen type can have: a domain is offered no contact prohibitions.
  const [type, setType] = useState(preview?.type ?? chosen?.type ?? "");
  const [names, setNames] = useState(chosen?.names.length ?? 0);
  const valid = <T extends { types: string[] }>(list: T[]) => list.filter((s) => !type || s.types.includes(type));
  const [applying, setApplying] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const count = useRef(0);
  useEffect(() => {
    if (result?.ok && result.data?.applied) setBatchId(crypto.randomUUID());
  }, [result]);

  const send = (apply: boolean) => {
    if (!form.current?.reportValidity()) return;
    const data = new FormData(form.current);
    count.current = String(data.get("names") ?? "")
      .split(/[\s,;]+/)
      .filter(Boolean).length;
    const question = filter ? t("confirmFilter") : t("confirmCount", { count: count.current });
    if (apply && !window.confirm(question)) return;
    data.set("apply", apply ? "1" : "0");
    setApplying(apply);
    startTransition(() => dispatch(data));
  };
  const outcomes = result?.ok ? (result.data?.outcomes ?? []) : [];
  const refused = result?.ok ? (result.data?.refused ?? 0) : 0;

  return (
    <form ref={form} className="request-form bulk-form" aria-label={t("label")} onSubmit={(e) => e.preventDefault()}>
      <input type="hidden" name="batchId" value={batchId} />
      <fieldset disabled={pending} className="plain">
        {filter ? (
          <p className={preview?.more ? "form-warning" : "preview"}>
            <input type="hidden" name="filter" value={filter} />
            {preview?.more
              ? t("fromFilterTooMany", { max: fmt.number(max) })
              : t("fromFilterCount", { count: preview?.count ?? 0, n: fmt.number(preview?.count ?? 0) })}{" "}
            <a href={`/objects?${filter}`}>{t("seeThem")}</a> · <a href="/requests/bulk">{t("pasteInstead")}</a>
          </p>
        ) : (
          <label className="reason">
            {t("names", { max: fmt.number(max) })}
            <textarea
              name="names"
              rows={5}
              required
              defaultValue={chosen?.names.join("\n")}
              onChange={(e) => setNames(e.target.value.split(/[\s,;]+/).filter(Boolean).length)}
            />
            <span className="muted" aria-live="polite">
              {t("namesCount", { count: names, n: fmt.number(names) })}
              {chosen && chosen.missing > 0 && <> {t("chosenMissing", { count: chosen.missing })}</>}
            </span>
          </label>
        )}
        <div className="filter-row">
          <label>
            {t("type")}
            <select aria-label={t("type")} name="type" value={type} onChange={(e) => setType(e.target.value)}>
              <option value="">{t("anyType")}</option>
              {types.map((type) => (
                <option key={type} value={type}>
                  {t("typeOption", { type })}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("kind")}
            <select aria-label={t("kind")} name="kind" value={kind} onChange={(e) => setKind(e.target.value)}>
              <option value="block">{t("kindBlock")}</option>
              <option value="request">{t("kindRequest")}</option>
            </select>
          </label>
          {kind === "request" && (
            <label>
              {t("state")}
              <select aria-label={t("state")} name="state">
                {valid(states).map((s) => (
                  <option key={s.name}>{s.name}</option>
                ))}
              </select>
            </label>
          )}
          <label>
            {t("from", { zone: timeZone })}
            <WallTimeInput name="from" />
          </label>
          <label>
            {t("to")}
            <WallTimeInput name="to" />
          </label>
        </div>
        {kind === "block" && <ProhibitionChoices key={type} choices={valid(prohibitions)} />}
        {cases.length > 0 && (
          <label>
            {t("case")}
            <select name="caseId" defaultValue={caseId ?? ""}>
              <option value="">{t("noCase")}</option>
              {cases.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="reason">
          {t("reason")}
          <input name="reason" required maxLength={300} />
        </label>
        <div className="filter-actions">
          <button type="button" className="secondary" onClick={() => send(false)}>
            {t("dryRun")}
          </button>
          <button type="button" onClick={() => send(true)}>
            {t("apply")}
          </button>
        </div>
        {pending && (
          <p role="status">
            <progress aria-label={t("progress")} />{" "}
            {applying
              ? filter
                ? t("applyingFilter")
                : t("applyingCount", { count: count.current })
              : filter
                ? t("tryingFilter")
                : t("tryingCount", { count: count.current })}
          </p>
        )}
      </fieldset>
      {!pending &&
        (refused > 0 && result?.ok ? (
          // Some objects refused: nothing was changed, and the message says so as a warning.
          <p className="form-warning" role="alert">
            {result.message}
          </p>
        ) : (
          <ActionMessage result={result} />
        ))}
      {!pending && outcomes.length > 0 && (
        <table className="data-table bulk-outcomes">
          <thead>
            <tr>
              <th scope="col">{t("name")}</th>
              <th scope="col">{t("result")}</th>
            </tr>
          </thead>
          <tbody>
            {outcomes.map((o) => (
              <tr key={o.name} className={o.made || (o.ok && !refused) ? "ok" : o.ok ? "not-made" : "refused"}>
                <td>{o.objectId ? <a href={`/objects/${o.objectId}`}>{o.name}</a> : o.name}</td>
                <td>{o.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </form>
  );
}
