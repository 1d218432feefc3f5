"use client";

import { startTransition, useActionState, useEffect, useRef, useState } from "react";
import { ProhibitionChoices } from "@/components/objects/prohibition-choices";
import { ActionMessage } from "@/components/users/action-form";
import type { ActionResult } from "@/lib/actions/result";
import type { BulkResult } from "@/lib/requests/bulk";

interface BulkFormProps {
  action: (previous: ActionResult<BulkResult> | null, form: FormData) => Promise<ActionResult<BulkResult>>;
  types: string[];
  states: string[];
  prohibitions: { name: string; checked: boolean }[];
  timeZone: string;
  max: number;
  /** The object list's filter to start from (its query string), instead of pasted names. */
  filter: string;
}

/**
 * A request or a block for many objects: paste names, dry-run, then apply to all. The dry run and
 * the apply send the same fields; only "apply" differs. The batch key stays the same until a batch
 * is applied, so a repeated apply does nothing new.
 */
export function BulkForm({ action, types, states, prohibitions, timeZone, max, filter }: BulkFormProps) {
  const [result, dispatch, pending] = useActionState(action, null);
  const [batchId, setBatchId] = useState(() => crypto.randomUUID());
  const [kind, setKind] = useState("block");
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
    const what = filter ? "the objects the filter matches" : `${count.current} objects`;
    if (apply && !window.confirm(`Apply to all ${what}? All or nothing: if one is refused, nothing changes.`)) return;
    data.set("apply", apply ? "1" : "0");
    setApplying(apply);
    startTransition(() => dispatch(data));
  };
  const outcomes = result?.ok ? (result.data?.outcomes ?? []) : [];

  return (
    <form ref={form} className="request-form" aria-label="Bulk change" onSubmit={(e) => e.preventDefault()}>
      <input type="hidden" name="batchId" value={batchId} />
      <fieldset disabled={pending} className="plain">
        {filter ? (
          <p className="preview">
            <input type="hidden" name="filter" value={filter} />
            Objects: those the list filter <code>{filter}</code> matches (at most {max.toLocaleString("en")}).{" "}
            <a href="/requests/bulk">Paste names instead</a>
          </p>
        ) : (
          <label className="reason">
            Names or handles (one per line, or separated by spaces or commas; at most {max.toLocaleString("en")})
            <textarea name="names" rows={5} required />
          </label>
        )}
        <div className="filter-row">
          <label>
            Type
            <select name="type" defaultValue="">
              <option value="">any type</option>
              {types.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </label>
          <label>
            Change
            <select name="kind" value={kind} onChange={(e) => setKind(e.target.value)}>
              <option value="block">administrative block</option>
              <option value="request">a state request</option>
            </select>
          </label>
          {kind === "request" && (
            <label>
              State
              <select name="state">
                {states.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </label>
          )}
          <label>
            Start ({timeZone}; empty: now)
            <input name="from" type="datetime-local" step="1" />
          </label>
          <label>
            End (optional)
            <input name="to" type="datetime-local" step="1" />
          </label>
        </div>
        {kind === "block" && <ProhibitionChoices choices={prohibitions} />}
        <label className="reason">
          Reason
          <input name="reason" required maxLength={300} />
        </label>
        <div className="filter-actions">
          <button type="button" className="secondary" onClick={() => send(false)}>
            Dry run
          </button>
          <button type="button" onClick={() => send(true)}>
            Apply to all
          </button>
        </div>
        {pending && (
          <p role="status">
            <progress aria-label="Bulk progress" /> {applying ? "Applying to" : "Trying"}{" "}
            {filter ? "the matching objects" : `${count.current.toLocaleString("en")} objects`}…
          </p>
        )}
      </fieldset>
      {!pending && <ActionMessage result={result} />}
      {!pending && outcomes.length > 0 && (
        <table className="data-table bulk-outcomes">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {outcomes.map((o) => (
              <tr key={o.name} className={o.ok ? "ok" : "refused"}>
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
