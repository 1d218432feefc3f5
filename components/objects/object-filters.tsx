"use client";

import { useRouter } from "next/navigation";
import type { FormEvent } from "react";
import { fromStart, listHref } from "@/lib/objects/url";

export interface FilterFormValues {
  [key: string]: string | string[] | undefined;
}

interface ObjectFiltersProps {
  /** The URL's parameters: the form shows what was asked for. */
  values: FilterFormValues;
  types: string[];
  registrars: string[];
  states: { name: string; description: string; types: string[] }[];
  pageSizes: readonly number[];
  timeZone: string;
}

const MODES = [
  { value: "now", label: "has now" },
  { value: "at", label: "had at" },
  { value: "during", label: "had at any time in" },
  { value: "entered", label: "entered in" },
  { value: "left", label: "left in" },
  { value: "not", label: "does not have now" },
];

/** A labelled select of names; `empty`: a first choice meaning "not set". */
function ChoiceSelect({
  label,
  name,
  value,
  empty,
  choices,
}: {
  label: string;
  name: string;
  value: string;
  empty?: string;
  choices: string[];
}) {
  return (
    <label>
      {label}
      <select name={name} defaultValue={value}>
        {empty !== undefined && <option value="">{empty}</option>}
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A date (or date and time) input; `values` are the URL's. */
function WhenField({ label, name, withTime, values }: { label: string; name: string; withTime?: boolean; values: FilterFormValues }) {
  return (
    <label>
      {label}
      <input name={name} type={withTime ? "datetime-local" : "date"} step={withTime ? 1 : undefined} defaultValue={text(values[name])} />
    </label>
  );
}

const text = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";

/**
 * The list's filters as a GET form: it works as a plain form, and with JavaScript it drops empty
 * fields from the URL and starts from the first page. The server reads and checks every value.
 */
export function ObjectFilters({ values, types, registrars, states, pageSizes, timeZone }: ObjectFiltersProps) {
  const router = useRouter();
  const chosenStates = new Set(
    [values.states ?? []]
      .flat()
      .join(",")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
  const mode = text(values.mode) || "now";
  const sort = text(values.sort);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const changes: Record<string, string> = {};
    for (const [key, value] of form.entries()) if (typeof value === "string" && key !== "states") changes[key] = value.trim();
    changes.states = form.getAll("states").join(",");
    // Only what the chosen state mode uses.
    if (changes.mode !== "at") changes.at = "";
    if (!["during", "entered", "left"].includes(changes.mode ?? "")) Object.assign(changes, { from: "", to: "" });
    if (changes.mode === "now") changes.mode = "";
    if (changes.match === "contains") changes.match = "";
    if (changes.state_match === "all") changes.state_match = "";
    if (changes.deleted === "exclude") changes.deleted = "";
    if (changes.size === "50") changes.size = "";
    if (!changes.states) Object.assign(changes, { mode: "", at: "", from: "", to: "", state_match: "" });
    router.push(listHref({}, fromStart({ ...changes, sort: sort || null, jump: null })));
  };

  return (
    <form className="filters" method="get" action="/objects" onSubmit={submit} aria-label="Filter objects">
      <div className="filter-row">
        <ChoiceSelect label="Type" name="type" value={text(values.type)} empty="all types" choices={types} />
        <label className="grow">
          Name or handle
          <input name="q" type="search" defaultValue={text(values.q)} placeholder="e.g. example.cz or CID-" maxLength={255} />
        </label>
        <label>
          Match
          <select name="match" defaultValue={text(values.match) || "contains"}>
            <option value="contains">contains</option>
            <option value="prefix">starts with</option>
          </select>
        </label>
        <ChoiceSelect
          label="Sponsoring registrar"
          name="registrar"
          value={text(values.registrar)}
          empty="any registrar"
          choices={registrars}
        />
      </div>

      <fieldset className="state-filter">
        <legend>States</legend>
        <div className="state-mode">
          <span className="muted">The object</span>
          {MODES.map((m) => (
            <label key={m.value} className="inline">
              <input type="radio" name="mode" value={m.value} defaultChecked={mode === m.value} />
              {m.label}
            </label>
          ))}
          <label className="inline">
            <select name="state_match" defaultValue={text(values.state_match) || "all"} aria-label="Several states">
              <option value="all">all of</option>
              <option value="any">any of</option>
            </select>
          </label>
          <span className="muted">the chosen states</span>
        </div>
        <div className="state-when">
          <label>
            Had at ({timeZone})
            <input name="at" type="datetime-local" step="1" defaultValue={text(values.at)} />
          </label>
          <WhenField label="Any time from" name="from" withTime values={values} />
          <WhenField label="until" name="to" withTime values={values} />
        </div>
        <div className="state-choices">
          {states.map((s) => (
            <label key={s.name} className="inline" title={`${s.description} (${s.types.join(", ")})`}>
              <input type="checkbox" name="states" value={s.name} defaultChecked={chosenStates.has(s.name)} />
              {s.name}
            </label>
          ))}
        </div>
      </fieldset>

      <details
        className="more-filters"
        open={Boolean(
          values.created_from ||
            values.created_to ||
            values.expires_from ||
            values.expires_to ||
            values.deleted ||
            values.pending ||
            values.request_state,
        )}
      >
        <summary>Dates, deleted objects and requests</summary>
        <div className="filter-row">
          <WhenField label="Created from" name="created_from" values={values} />
          <WhenField label="Created before" name="created_to" values={values} />
          <WhenField label="Expires from" name="expires_from" values={values} />
          <WhenField label="Expires before" name="expires_to" values={values} />
          <label>
            Deleted objects
            <select name="deleted" defaultValue={text(values.deleted) || "exclude"}>
              <option value="exclude">left out</option>
              <option value="include">included</option>
              <option value="only">only deleted</option>
            </select>
          </label>
        </div>
        <div className="filter-row">
          <label className="inline">
            <input type="checkbox" name="pending" value="1" defaultChecked={text(values.pending) === "1"} />
            has a pending request
          </label>
          <ChoiceSelect
            label="Has a request for"
            name="request_state"
            value={text(values.request_state)}
            empty="—"
            choices={states.map((s) => s.name)}
          />
          <WhenField label="starting from" name="request_from" values={values} />
          <WhenField label="before" name="request_to" values={values} />
        </div>
      </details>

      <div className="filter-actions">
        <ChoiceSelect label="Rows per page" name="size" value={text(values.size) || "50"} choices={pageSizes.map(String)} />
        <button type="submit">Apply filters</button>
        <a href="/objects">Clear all</a>
      </div>
    </form>
  );
}
