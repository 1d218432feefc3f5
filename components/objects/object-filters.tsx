"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { WallTimeInput } from "@/components/wall-time-input";
import { useTranslations } from "@/lib/i18n/client";
import { fromStart, listHref } from "@/lib/objects/url";

interface FilterFormValues {
  [key: string]: string | string[] | undefined;
}

interface ObjectFiltersProps {
  /** The URL's parameters: the form shows what was asked for. */
  values: FilterFormValues;
  types: string[];
  registrars: string[];
  states: { name: string; description: string; types: string[]; manual: boolean }[];
  pageSizes: readonly number[];
  timeZone: string;
}

/** The state filter's modes, as the URL names them; their labels are the catalogue's filters.modes. */
const MODES = ["now", "at", "during", "entered", "left", "not"] as const;

/** A labelled select of names; `empty`: a first choice meaning "not set"; `show`: a choice's label (default: itself). */
function ChoiceSelect({
  label,
  name,
  value,
  empty,
  choices,
  show = (choice) => choice,
  onChange,
}: {
  label: string;
  name: string;
  value: string;
  empty?: string;
  choices: string[];
  show?: (choice: string) => string;
  onChange?: (value: string) => void;
}) {
  return (
    <label>
      {label}
      <select aria-label={label} name={name} defaultValue={value} onChange={onChange && ((e) => onChange(e.target.value))}>
        {empty !== undefined && <option value="">{empty}</option>}
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {show(choice)}
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
      <WallTimeInput name={name} withTime={withTime ?? false} defaultValue={text(values[name])} />
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
  const t = useTranslations("objects");
  const tc = useTranslations("common");
  // Each type's name once, not once per state and type (about 80 translations a page).
  const typeNames = new Map(types.map((type) => [type, t("typeName", { type })]));
  const typeName = (type: string) => typeNames.get(type) ?? t("typeName", { type });
  const chosenStates = new Set(
    [values.states ?? []]
      .flat()
      .join(",")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
  // Controlled: the words of "all of" / "any of" follow the chosen mode.
  const [mode, setMode] = useState(text(values.mode) || "now");
  // The state choices follow the chosen type: a domain is never offered a contact's states. A chosen
  // state stays offered (and checked) whatever the type, so nothing chosen disappears unseen.
  const [type, setType] = useState(text(values.type));
  const offered = states
    .filter((s) => chosenStates.has(s.name) || !type || s.types.includes(type))
    .sort((a, b) => a.name.localeCompare(b.name));
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
    <form className="filters" method="get" action="/objects" onSubmit={submit} aria-label={t("filters.label")}>
      <div className="filter-row">
        <ChoiceSelect
          label={t("filters.type")}
          name="type"
          value={text(values.type)}
          empty={t("filters.allTypes")}
          choices={types}
          show={typeName}
          onChange={setType}
        />
        <label className="grow">
          {t("filters.name")}
          <input name="q" type="search" defaultValue={text(values.q)} placeholder={t("filters.namePlaceholder")} maxLength={255} />
        </label>
        <label>
          {t("filters.match")}
          <select aria-label={t("filters.match")} name="match" defaultValue={text(values.match) || "contains"}>
            <option value="contains">{t("filters.contains")}</option>
            <option value="prefix">{t("filters.prefix")}</option>
          </select>
        </label>
        <ChoiceSelect
          label={t("filters.registrar")}
          name="registrar"
          value={text(values.registrar)}
          empty={t("filters.anyRegistrar")}
          choices={registrars}
        />
      </div>

      <fieldset className="state-filter">
        <legend>{t("filters.states")}</legend>
        <div className="state-mode">
          <span className="muted">{t("filters.theObject")}</span>
          {MODES.map((m) => (
            <label key={m} className="inline">
              <input type="radio" name="mode" value={m} checked={mode === m} onChange={() => setMode(m)} />
              {t(`filters.modes.${m}`)}
            </label>
          ))}
          <label className="inline">
            <select name="state_match" defaultValue={text(values.state_match) || "all"} aria-label={t("filters.severalStates")}>
              {/* "does not have now" is the opposite of "has now": not all of = lacks at least one, not any of = has none. */}
              <option value="all">{t(mode === "not" ? "filters.notAllOf" : "filters.allOf")}</option>
              <option value="any">{t(mode === "not" ? "filters.notAnyOf" : "filters.anyOf")}</option>
            </select>
          </label>
          <span className="muted">{t("filters.chosenStates")}</span>
        </div>
        {/* Only the instants the chosen mode reads: "at" an instant, or a window for the others. */}
        {mode !== "now" && mode !== "not" && (
          <div className="state-when">
            {mode === "at" ? (
              <label>
                {t("filters.hadAt", { zone: timeZone })}
                <WallTimeInput name="at" defaultValue={text(values.at)} />
              </label>
            ) : (
              <>
                <WhenField label={t("filters.rangeFrom")} name="from" withTime values={values} />
                <WhenField label={t("filters.rangeTo")} name="to" withTime values={values} />
              </>
            )}
          </div>
        )}
        {/* Closed (the list starts on the first screen); its summary names the chosen states. */}
        <details className="state-picker">
          <summary>
            {chosenStates.size === 0 ? t("filters.chooseStates") : t("filters.statesChosen", { states: [...chosenStates].join(", ") })}
          </summary>
          <div className="state-choices">
            {offered.map((s) => (
              <label key={s.name} className="inline" title={`${s.description} (${s.types.map(typeName).join(", ")})`}>
                <input type="checkbox" name="states" value={s.name} defaultChecked={chosenStates.has(s.name)} />
                {s.name}
              </label>
            ))}
          </div>
        </details>
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
        <summary>{t("filters.more")}</summary>
        <div className="filter-row">
          <WhenField label={t("filters.createdFrom")} name="created_from" values={values} />
          <WhenField label={t("filters.createdTo")} name="created_to" values={values} />
          <WhenField label={t("filters.expiresFrom")} name="expires_from" values={values} />
          <WhenField label={t("filters.expiresTo")} name="expires_to" values={values} />
          <label>
            {t("filters.deleted")}
            <select aria-label={t("filters.deleted")} name="deleted" defaultValue={text(values.deleted) || "exclude"}>
              <option value="exclude">{t("filters.deletedExclude")}</option>
              <option value="include">{t("filters.deletedInclude")}</option>
              <option value="only">{t("filters.deletedOnly")}</option>
            </select>
          </label>
        </div>
        <div className="filter-row">
          <label className="inline">
            <input type="checkbox" name="pending" value="1" defaultChecked={text(values.pending) === "1"} />
            {t("filters.pending")}
          </label>
          <ChoiceSelect
            label={t("filters.requestFor")}
            name="request_state"
            value={text(values.request_state)}
            empty={tc("none")}
            // Requests are for manual states only.
            choices={states.filter((s) => s.manual).map((s) => s.name)}
          />
          <WhenField label={t("filters.requestFrom")} name="request_from" values={values} />
          <WhenField label={t("filters.requestTo")} name="request_to" values={values} />
        </div>
      </details>

      <div className="filter-actions">
        <ChoiceSelect label={t("filters.pageSize")} name="size" value={text(values.size) || "50"} choices={pageSizes.map(String)} />
        <button type="submit">{t("filters.apply")}</button>
        <a href="/objects">{t("filters.clear")}</a>
      </div>
    </form>
  );
}
