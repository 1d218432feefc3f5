// The object list's filters: read from URL parameters (every bad value becomes a notice and a
// default, never an error) and turned into one parameterised SQL condition. Pure: the catalogue
// (state and type names) is passed in, read from the database by the caller. Dates and times
// without an offset are read in the registry's time zone, also passed in. Notices are messages,
// put into the reader's language by the page that shows them.

import { LOCALES, type Locale } from "../i18n/config";
import { type Message, msg, type Translated } from "../i18n/message";
import { MESSAGES } from "../i18n/messages";
import { type Params, readParams } from "../input/params";
import { parseDate, readInstant } from "../input/values";

export type { Params } from "../input/params";
// The date and instant rules are lib/input/values.ts's; exported here too for the request forms.
export { parseDate, parseInstant } from "../input/values";

type StateMode = "now" | "at" | "during" | "entered" | "left" | "not";
type DeletedMode = "exclude" | "include" | "only";

export interface StateFilter {
  /** State ids, from the catalogue. */
  states: number[];
  mode: StateMode;
  /** all: every listed state; any: at least one. With "not" the opposite: lacks at least one / has none. */
  match: "all" | "any";
  /** The instant for "at"; the range [from, to) for "during", "entered" and "left". */
  at?: Date;
  from?: Date;
  to?: Date;
}

export interface ObjectFilter {
  type: number | null;
  name: { text: string; match: "prefix" | "contains" } | null;
  /** The sponsoring registrar's handle, as the registry spells it, and its id. */
  registrar: string | null;
  registrarId: number | null;
  created: { from?: Date; to?: Date };
  expires: { from?: string; to?: string };
  deleted: DeletedMode;
  state: StateFilter | null;
  pendingRequest: boolean;
  /** Requests for this state whose start falls in [from, to). */
  request: { state: number; from?: Date; to?: Date } | null;
}

export interface Catalogue {
  types: { id: number; name: string }[];
  states: { id: number; name: string }[];
  registrars: { id: number; handle: string }[];
}

const NAME_MAX = 255;
/** Every URL parameter parseFilter reads (the list adds its paging and sorting ones). */
export const FILTER_PARAMS = [
  "type",
  "q",
  "match",
  "registrar",
  "created_from",
  "created_to",
  "expires_from",
  "expires_to",
  "deleted",
  "states",
  "mode",
  "state_match",
  "at",
  "from",
  "to",
  "pending",
  "request_state",
  "request_from",
  "request_to",
];

const STATE_MODES: StateMode[] = ["now", "at", "during", "entered", "left", "not"];

/** A word of the filter form (objects.filters) in each language: notices name things as the form does. */
const formWords = (pick: (filters: (typeof MESSAGES)[Locale]["objects"]["filters"]) => string): Translated =>
  Object.fromEntries(LOCALES.map((locale) => [locale, pick(MESSAGES[locale].objects.filters)])) as Record<Locale, string>;

/** A filter with nothing chosen: every live object. */
export function noFilter(): ObjectFilter {
  return {
    type: null,
    name: null,
    registrar: null,
    registrarId: null,
    created: {},
    expires: {},
    deleted: "exclude",
    state: null,
    pendingRequest: false,
    request: null,
  };
}

/** Reads the filters from URL parameters; each bad value is named in a notice and left out. */
export function parseFilter(params: Params, catalogue: Catalogue, timeZone = "UTC"): { filter: ObjectFilter; notices: Message[] } {
  const notices: Message[] = [];
  const first = readParams(params, notices);
  const filter = noFilter();
  // Parameters that belong to a part of the filter that was not chosen: named, and left out.
  const unusedWithout = (keys: string[], message: "filter.withoutStates" | "filter.withoutRequestState") => {
    const unused = keys.filter((key) => first(key));
    if (unused.length > 0) notices.push(msg(message, { names: unused.join(", "), count: unused.length }));
  };

  const type = first("type");
  if (type) {
    const known = catalogue.types.find((t) => t.name === type);
    if (known) filter.type = known.id;
    else notices.push(msg("filter.unknownType", { type }));
  }

  const name = searchedName(first("q") ?? "");
  if (!name && first("match")) notices.push(msg("filter.withoutName"));
  if (name) {
    if (name.length > NAME_MAX) notices.push(msg("filter.nameTooLong", { max: NAME_MAX }));
    else {
      const match = first("match") ?? "contains";
      if (match !== "prefix" && match !== "contains") notices.push(msg("filter.nameMatch", { match }));
      filter.name = { text: name, match: match === "prefix" ? "prefix" : "contains" };
    }
  }

  const registrar = first("registrar");
  if (registrar) {
    const known = catalogue.registrars.find((r) => r.handle.toLowerCase() === registrar.toLowerCase());
    if (registrar.length > 64 || !/^[\w.-]+$/.test(registrar)) notices.push(msg("filter.notRegistrarHandle", { registrar }));
    else if (!known) notices.push(msg("filter.noRegistrar", { registrar }));
    else {
      filter.registrar = known.handle;
      filter.registrarId = known.id;
    }
  }

  // A parameter that must parse; a value that does not is named in a notice (with the filter's label) and left out.
  type Label = Message | Translated;
  const parsedParam = <T>(key: string, label: Label, parse: (text: string) => T | undefined, expected: "filter.notDate"): T | undefined => {
    const text = first(key);
    if (!text) return undefined;
    const value = parse(text);
    if (!value) notices.push(msg(expected, { label, text }));
    return value;
  };
  // An instant within INSTANT_SPAN_YEARS of now (readInstant), else named in a notice and left out.
  const instantParam = (key: string, label: Label): Date | undefined => {
    const text = first(key);
    if (!text) return undefined;
    const read = readInstant(text, timeZone);
    if (read.problem === "notInstant") notices.push(msg("filter.notInstant", { label, text }));
    else if (read.problem === "tooFar")
      notices.push(msg("filter.instantTooFar", { label, text, years: read.years, earliest: read.earliest, latest: read.latest }));
    return read.instant;
  };
  const dateParam = (key: string, label: Label) => parsedParam(key, label, parseDate, "filter.notDate");

  // Labelled as the form labels them.
  const formLabel = (field: "createdFrom" | "createdTo" | "expiresFrom" | "expiresTo") => formWords((f) => f[field]);
  filter.created = { from: instantParam("created_from", formLabel("createdFrom")), to: instantParam("created_to", formLabel("createdTo")) };
  filter.expires = { from: dateParam("expires_from", formLabel("expiresFrom")), to: dateParam("expires_to", formLabel("expiresTo")) };

  const deleted = first("deleted");
  if (deleted) {
    if (deleted === "include" || deleted === "only" || deleted === "exclude") filter.deleted = deleted;
    else notices.push(msg("filter.deletedMode", { deleted }));
  }

  const stateIds = (text: string | undefined): number[] => {
    if (!text) return [];
    const ids: number[] = [];
    for (const stateName of text
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)) {
      const known = catalogue.states.find((s) => s.name === stateName);
      if (known) ids.push(known.id);
      else notices.push(msg("filter.unknownState", { state: stateName.slice(0, 64) }));
    }
    return [...new Set(ids)];
  };

  // One comma-separated value, or the parameter repeated (a form's checkboxes).
  const states = stateIds(first.all("states").join(",") || undefined);
  if (states.length > 0) {
    let mode = (first("mode") ?? "now") as StateMode;
    if (!STATE_MODES.includes(mode)) {
      notices.push(msg("filter.stateMode", { mode, modes: STATE_MODES.join(", ") }));
      mode = "now";
    }
    const matchText = first("state_match") ?? "all";
    if (matchText !== "all" && matchText !== "any") notices.push(msg("filter.stateMatch", { match: matchText }));
    const state: StateFilter = { states, mode, match: matchText === "any" ? "any" : "all" };
    if (mode === "at") {
      state.at = instantParam("at", msg("filter.label.at"));
      if (!state.at) {
        notices.push(msg("filter.needsInstant", { mode: formWords((f) => f.modes.at) }));
        state.mode = "now";
      }
    }
    if (mode === "during" || mode === "entered" || mode === "left") {
      state.from = instantParam("from", msg("filter.label.from"));
      state.to = instantParam("to", msg("filter.label.to"));
      if (!state.from || !state.to || state.from >= state.to) {
        if (state.from && state.to) notices.push(msg("filter.rangeReversed"));
        else notices.push(msg("filter.needsRange", { mode: formWords((f) => f.modes[mode]) }));
        state.mode = "now";
        delete state.from;
        delete state.to;
      }
    }
    filter.state = state;
  } else unusedWithout(["mode", "state_match", "at", "from", "to"], "filter.withoutStates");

  const pending = first("pending");
  if (pending) {
    if (pending === "1" || pending === "yes") filter.pendingRequest = true;
    else notices.push(msg("filter.pending", { pending }));
  }

  const requestState = first("request_state");
  if (!requestState) unusedWithout(["request_from", "request_to"], "filter.withoutRequestState");
  else {
    const [id] = stateIds(requestState);
    if (id !== undefined)
      filter.request = {
        state: id,
        from: instantParam("request_from", msg("filter.label.requestFrom")),
        to: instantParam("request_to", msg("filter.label.requestTo")),
      };
  }
  return { filter, notices };
}

/**
 * The name searched for in `text`: without the spaces around it, and a domain name written with
 * its trailing dot (the root: `advokat-brno.cz.`) without that dot, as the registry stores it.
 */
export function searchedName(text: string): string {
  const name = text.trim();
  return /^[^.\s]+(\.[^.\s]+)+\.$/.test(name) ? name.slice(0, -1) : name;
}

/**
 * Whether `text` has the shape of a repository object id (ROID) as FRED writes one and the object
 * page shows it: a type letter, digits, a hyphen and the registry's suffix (`D0000019547-CZ`).
 */
export const ROID_SHAPE = /^[A-Za-z]\d{1,20}-[A-Za-z0-9]{1,20}$/;

/**
 * Whether the filter is a bare name search: a name (and perhaps a type) and nothing else chosen.
 * Only such a search may go straight to the object of that exact name: with any other filter the
 * person asked for a list, and the list answers (issue 41, item 3).
 */
export function isBareNameSearch(filter: ObjectFilter): boolean {
  return (
    filter.name !== null &&
    filter.registrarId === null &&
    filter.created.from === undefined &&
    filter.created.to === undefined &&
    filter.expires.from === undefined &&
    filter.expires.to === undefined &&
    filter.deleted === "exclude" &&
    filter.state === null &&
    !filter.pendingRequest &&
    filter.request === null
  );
}

/** LIKE pattern for text taken literally. */
export function likePattern(text: string, match: "prefix" | "contains"): string {
  const literal = text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return match === "prefix" ? `${literal}%` : `%${literal}%`;
}

/** Whether a state filter reaches past `now`: its instant or its range's end is later. */
export function reachesFuture(state: StateFilter | null, now: Date): boolean {
  if (!state || state.mode === "now" || state.mode === "not") return false;
  return ((state.mode === "at" ? state.at : state.to) as Date) > now;
}

export type Param = (value: unknown) => string;

/** When a recorded history row `os` counts, for the part of the filter up to now. */
function history(state: StateFilter, from: Date, to: Date, now: Date, p: Param): string {
  if (state.mode === "at") {
    const at = p(from);
    return `os.valid_from <= ${at} AND (os.valid_to IS NULL OR os.valid_to > ${at})`;
  }
  // Up to now: a row that begins (ends) later is the forecast's to tell.
  const until = p(to < now ? to : now);
  if (state.mode === "during") return `os.valid_from < ${until} AND (os.valid_to IS NULL OR os.valid_to > ${p(from)})`;
  // A history row that begins (ends) in the range: the state was entered (left) then.
  if (state.mode === "entered") return `os.valid_from >= ${p(from)} AND os.valid_from < ${until}`;
  return `os.valid_to >= ${p(from)} AND os.valid_to < ${until}`;
}

/** The forecast's window and when one of its periods `f` counts, for the part of the filter from `from` (now at the earliest). */
function forecast(state: StateFilter, from: Date, to: Date, p: Param): { from: string; to: string; when: string } {
  const a = `${p(from)}::timestamptz`;
  if (state.mode === "at") return { from: a, to: a, when: `f.valid_from <= ${a} AND (f.valid_to IS NULL OR f.valid_to > ${a})` };
  const b = `${p(to)}::timestamptz`;
  if (state.mode === "during") return { from: a, to: b, when: `f.valid_from < ${b} AND (f.valid_to IS NULL OR f.valid_to > ${a})` };
  if (state.mode === "entered") return { from: a, to: b, when: `f.valid_from >= ${a} AND f.valid_from < ${b}` };
  return { from: a, to: b, when: `f.valid_to >= ${a} AND f.valid_to < ${b}` };
}

/**
 * How a list asks the forecast past now (filterSql):
 * - "set": as one set (console.state_forecast), joined to the objects it names, which are then
 *   sorted: its cost is each match's.
 * - "walk": the same set, but as a test of each object the page walks past in its order, until the
 *   page is full: its cost is the objects walked past, about (page size / share that matches).
 * - "object": object by object (console.state_forecast_of), for the objects the page walks past:
 *   no set at all, for a filter that many objects match.
 * At 1.5 million domains: 5,024 domains enter outzone in a week (set: 45 ms, walk: 30 ms); 391,000
 * objects have deleteCandidate 30 days ahead (set: 2.7 s, object: 12 ms).
 */
export type ForecastForm = "set" | "walk" | "object";

/**
 * SQL (parameters from $1) that gives, for a filter past now, the number of the stored plan's
 * periods that match (n, counted no further than k), with k and m: from k = √(500 · objects)
 * matches (kept within 1,000 to 50,000) the form is "object", from m = √(5 · objects) "walk", below
 * that "set" (chooseForecastForm). Null for a filter with no forecast. With the plan not trusted
 * (beside, in shadow, or not yet written) the form is "set": the plan's counts say nothing.
 */
export function forecastProbeSql(state: StateFilter | null, now: Date): { sql: string; params: unknown[] } | null {
  if (!state || !reachesFuture(state, now)) return null;
  const params: unknown[] = [];
  const p: Param = (value) => {
    params.push(value);
    return `$${params.length}`;
  };
  const { from, to } = span(state);
  const foreseen = forecast(state, from > now ? from : now, to, p);
  // The plan's periods are counted only when it is trusted (beside it may hold a stale copy).
  const sql = `WITH r AS (SELECT greatest(c.reltuples, 0) AS objects FROM pg_class c WHERE c.oid = 'console.object_key'::regclass),
                    b AS (SELECT greatest(1000, least(50000, sqrt(500 * r.objects)))::int AS k, sqrt(5 * r.objects)::int AS m FROM r),
                    t AS (SELECT console.state_plan_trusted() AS trusted)
               SELECT t.trusted, b.k, b.m,
                      CASE WHEN t.trusted THEN (SELECT count(*)::int FROM (SELECT 1 FROM console.state_plan f
                                                   WHERE f.state_id = ANY (${p(state.states)}::int[]) AND ${foreseen.when}
                                                   LIMIT b.k) x) END AS n
                 FROM b CROSS JOIN t`;
  return { sql, params };
}

/** The form forecastProbeSql's figures choose. */
export function chooseForecastForm(probe: { trusted: boolean; k: number; m: number; n: number | null } | undefined): ForecastForm {
  if (!probe?.trusted || probe.n === null) return "set";
  if (probe.n >= probe.k) return "object";
  return probe.n >= probe.m ? "walk" : "set";
}

/** Whether a state filter is about an instant or a window (the list then says when: whenSql). */
export const saysWhen = (state: StateFilter | null): state is StateFilter & { mode: "at" | "during" | "entered" | "left" } =>
  state !== null && state.mode !== "now" && state.mode !== "not";

/** The instants a state filter asks about: [from, to] (from = to for "at"). */
function span(state: StateFilter): { from: Date; to: Date } {
  return state.mode === "at" ? { from: state.at as Date, to: state.at as Date } : { from: state.from as Date, to: state.to as Date };
}

/** Whether the part of a state filter up to now is read from the recorded history (else only the forecast). */
const readsHistory = (state: StateFilter, from: Date, now: Date) => from < now || (state.mode === "at" && from.getTime() === now.getTime());

/** Whether the "when" columns need the object's forecast periods (`fc`): for a filter that reaches past now. */
export const needsForecast = (state: StateFilter, now: Date): boolean => span(state).to > now;

/**
 * For the list's "when" columns (issue 41, item 5): SQL over object `o` and, when needsForecast,
 * `fc.periods` (its console.state_forecast_of periods, console.state_period[]) giving one row, the period of a filtered
 * state that the filter matched first, with the same conditions as filterSql: state_id, valid_from,
 * valid_to (null: no end recorded or foreseen) and whether valid_to is the forecast's. For "left"
 * the period that left first, else the one that began first. A recorded period still open ends where
 * the forecast ends it. Parameters numbered as `p` numbers them.
 */
export function whenSql(state: StateFilter, now: Date, p: Param): string {
  const { from, to } = span(state);
  const states = `${p(state.states)}::int[]`;
  const at = `${p(now)}::timestamptz`;
  const parts: string[] = [];
  if (readsHistory(state, from, now))
    parts.push(`SELECT os.state_id, os.valid_from AT TIME ZONE 'UTC' AS valid_from, os.valid_to AT TIME ZONE 'UTC' AS valid_to,
                       os.valid_to IS NULL AS open
                  FROM object_state os WHERE os.object_id = o.id AND os.state_id = ANY (${states}) AND ${history(state, from, to, now, p)}`);
  if (to > now) {
    const foreseen = forecast(state, from > now ? from : now, to, p);
    parts.push(
      `SELECT f.state_id, f.valid_from, f.valid_to, false AS open FROM unnest(fc.periods) f (state_id, valid_from, valid_to) WHERE f.state_id = ANY (${states}) AND ${foreseen.when}`,
    );
  }
  const order = firstMatched(state, "m");
  // An open recorded row's end: the forecast's end of the period that holds now (a foreseen period's
  // own end is the forecast's already; none: no end the rules see).
  // A filter wholly in the past has no `fc` (the rules are asked only for such an open row).
  const periods = to > now ? "unnest(fc.periods) f" : "console.state_forecast_of(o.id, ARRAY[m.state_id]) f (state_id, lo, hi)";
  const foreseenEnd = `(SELECT f.hi FROM ${periods} WHERE f.state_id = m.state_id AND f.lo <= ${at} AND (f.hi IS NULL OR f.hi > ${at})
                         ORDER BY f.lo LIMIT 1)`;
  return `SELECT m.state_id, m.valid_from, CASE WHEN m.open THEN ${foreseenEnd} ELSE m.valid_to END AS valid_to
            FROM (${parts.join(" UNION ALL ")}) m ORDER BY ${order}, m.state_id LIMIT 1`;
}

/** Which of an object's matched periods (alias `m`) the "when" columns show: for "left" the one that left first, else the one that began first. */
const firstMatched = (state: StateFilter, m: string) => (state.mode === "left" ? `${m}.valid_to` : `${m}.valid_from`);

/**
 * whenSql's period for every object at once, as a set with object_id, for a filter wholly before
 * now or wholly ahead of it (else null: a filter across now is read object by object). Sorting by
 * when reads every match's period before the first page, and asking each object's forecast
 * (console.state_forecast_of) cost 65-86 µs a match at 1.5 million domains: 326 ms for the 5,024
 * domains entering outzone in a week, 1,023 ms for the 11,912 that had serverBlocked at an instant
 * last week. Past now it gives whenSql's period only while the stored plan is trusted (`planTrusted`,
 * forecastProbeSql's): the rules' registry-wide forecast ends the periods of objects with nothing
 * due in the window at the window, not where they end.
 */
export function whenSetSql(state: StateFilter, now: Date, p: Param, planTrusted: boolean): string | null {
  const { from, to } = span(state);
  const past = readsHistory(state, from, now);
  if (past && to > now) return null;
  if (!past) {
    if (!planTrusted) return null;
    const foreseen = forecast(state, from, to, p);
    return `SELECT DISTINCT ON (f.object_id) f.object_id, f.state_id, f.valid_from, f.valid_to
              FROM console.state_forecast(${foreseen.from}, ${foreseen.to}, ${p(state.states)}::int[]) f
             WHERE ${foreseen.when}
             ORDER BY f.object_id, ${firstMatched(state, "f")}, f.state_id`;
  }
  // As whenSql: a recorded row still open ends where the forecast ends it. With the stored plan
  // trusted, that is the registry-wide forecast's period holding now, read as one set
  // (console.state_forecast over the instant: the plan, and the rules for the objects it does not
  // hold); otherwise each open row's own forecast.
  const at = `${p(now)}::timestamptz`;
  const states = `${p(state.states)}::int[]`;
  const end = planTrusted
    ? "CASE WHEN h.open THEN fe.valid_to ELSE h.valid_to END"
    : `CASE WHEN h.open THEN (SELECT f.hi FROM console.state_forecast_of(h.object_id, ARRAY[h.state_id]) f (state_id, lo, hi)
                               WHERE f.state_id = h.state_id AND f.lo <= ${at} AND (f.hi IS NULL OR f.hi > ${at}) ORDER BY f.lo LIMIT 1)
            ELSE h.valid_to END`;
  const foreseenEnds = planTrusted
    ? `LEFT JOIN (SELECT DISTINCT ON (f.object_id, f.state_id) f.object_id, f.state_id, f.valid_to
                    FROM console.state_forecast(${at}, ${at}, ${states}) f
                   WHERE f.valid_from <= ${at} AND (f.valid_to IS NULL OR f.valid_to > ${at})
                   ORDER BY f.object_id, f.state_id, f.valid_from) fe ON fe.object_id = h.object_id AND fe.state_id = h.state_id`
    : "";
  return `SELECT h.object_id, h.state_id, h.valid_from, ${end} AS valid_to
            FROM (SELECT DISTINCT ON (os.object_id) os.object_id, os.state_id, os.valid_from AT TIME ZONE 'UTC' AS valid_from,
                         os.valid_to AT TIME ZONE 'UTC' AS valid_to, os.valid_to IS NULL AS open
                    FROM object_state os
                   WHERE os.state_id = ANY (${states}) AND ${history(state, from, to, now, p)}
                   ORDER BY os.object_id, ${firstMatched(state, "os")}, os.state_id) h
            ${foreseenEnds}`;
}

/** SQL for the states `o` held at a state filter's instant ("at"): recorded up to now, else foreseen (fc.periods). */
export function statesAtSql(state: StateFilter, now: Date, p: Param): string | null {
  if (state.mode !== "at") return null;
  const at = state.at as Date;
  const t = p(at);
  const held =
    at <= now
      ? `SELECT os.state_id FROM object_state os WHERE os.object_id = o.id AND os.valid_from <= ${t} AND (os.valid_to IS NULL OR os.valid_to > ${t})`
      : `SELECT f.state_id FROM unnest(fc.periods) f WHERE f.lo <= ${t}::timestamptz AND (f.hi IS NULL OR f.hi > ${t}::timestamptz)`;
  return `ARRAY(SELECT s.name FROM enum_object_states s WHERE s.id IN (${held}) ORDER BY s.importance DESC NULLS LAST, s.id)`;
}

/**
 * The SQL condition on `o` (object_registry) for a filter, with its parameters numbered from
 * `offset + 1`. Only parameters carry values; the SQL text depends on the filter's shape and on
 * which side of `now` its instants lie (the recorded history before, the forecast after).
 */
export function filterSql(
  filter: ObjectFilter,
  now: Date,
  offset = 0,
  /**
   * The list's copy of the keys may be behind FRED's object_registry (beside and in shadow, where the
   * scheduler's pass and hourly sweep keep it): whether an object is alive is then asked of FRED's row.
   */
  options: {
    keysBehind?: boolean;
    /** How the forecast is asked (ForecastForm; forecastProbeSql chooses). */
    forecastForm?: ForecastForm;
  } = {},
): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${offset + params.length}`;
  };
  const where: string[] = [];

  // The copy's erdate is only ever behind FRED's: a live object is live in it, and its partial indexes
  // serve. Deleted ones, beside: those the last sweep saw (FRED leaves no other trace to find them by).
  if (filter.deleted === "exclude")
    where.push(
      options.keysBehind
        ? "o.erdate IS NULL AND EXISTS (SELECT 1 FROM object_registry r WHERE r.id = o.id AND r.erdate IS NULL)"
        : "o.erdate IS NULL",
    );
  if (filter.deleted === "only") where.push("o.erdate IS NOT NULL");
  if (filter.type !== null) where.push(`o.type = ${p(filter.type)}`);
  if (filter.name) {
    const like = `lower(o.name) LIKE ${p(likePattern(filter.name.text, filter.name.match))}`;
    // Text shaped like a ROID also finds the object with that ROID (FRED's unique index on it): an id
    // list the planner can join to the name's index with a bitmap OR.
    if (ROID_SHAPE.test(filter.name.text)) {
      const roid = p(filter.name.text);
      where.push(
        `(${like} OR o.id = ANY (ARRAY(SELECT r.id FROM object_registry r WHERE r.roid IN (${roid}::varchar, upper(${roid})::varchar))))`,
      );
    } else where.push(like);
  }
  if (filter.registrarId !== null) where.push(`EXISTS (SELECT 1 FROM object ob WHERE ob.id = o.id AND ob.clid = ${p(filter.registrarId)})`);
  if (filter.created.from) where.push(`o.crdate >= ${p(filter.created.from)}`);
  if (filter.created.to) where.push(`o.crdate < ${p(filter.created.to)}`);
  if (filter.expires.from || filter.expires.to) {
    const range = [
      filter.expires.from ? `d.exdate >= ${p(filter.expires.from)}::date` : null,
      filter.expires.to ? `d.exdate < ${p(filter.expires.to)}::date` : null,
    ].filter(Boolean);
    where.push(`EXISTS (SELECT 1 FROM domain d WHERE d.id = o.id AND ${range.join(" AND ")})`);
  }

  const state = filter.state;
  if (state) {
    const row = (stateSql: string, when: string) =>
      `EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = o.id AND os.state_id ${stateSql} AND ${when})`;
    if (state.mode === "now" || state.mode === "not") {
      const open = "os.valid_to IS NULL";
      if (state.mode === "not") {
        // "does not have now" is the exact opposite of "has now", read with the same words:
        // not all of them = lacks at least one; not any of them = has none.
        if (state.match === "any") where.push(`NOT ${row(`= ANY (${p(state.states)}::int[])`, open)}`);
        else where.push(`(${state.states.map((id) => `NOT ${row(`= ${p(id)}`, open)}`).join(" OR ")})`);
      } else if (state.match === "any") where.push(row(`= ANY (${p(state.states)}::int[])`, open));
      else for (const id of state.states) where.push(row(`= ${p(id)}`, open));
    } else {
      // An instant or a range: what is recorded up to now, and past now the forecast
      // (console.state_forecast: the engine's rules and the requests as they stand).
      const { from, to } = span(state);
      const recorded = readsHistory(state, from, now) ? history(state, from, to, now, p) : null;
      const foreseen = to > now ? forecast(state, from > now ? from : now, to, p) : null;
      const matches = (states: number[]) => {
        const ahead = (window: NonNullable<typeof foreseen>) => {
          if (options.forecastForm === "object")
            return `EXISTS (SELECT 1 FROM console.state_forecast_of(o.id, ${p(states)}::int[]) f WHERE ${window.when})`;
          const set = `o.id IN (SELECT f.object_id FROM console.state_forecast(${window.from}, ${window.to}, ${p(states)}::int[]) f WHERE ${window.when})`;
          // "walk": not a join the planner may turn around, but a test of each object the page walks past.
          return options.forecastForm === "walk" ? `(${set}) IS TRUE` : set;
        };
        const parts = [recorded && row(`= ANY (${p(states)}::int[])`, recorded), foreseen && ahead(foreseen)].filter(Boolean);
        return parts.length === 1 ? (parts[0] as string) : `(${parts.join(" OR ")})`;
      };
      if (state.match === "any") where.push(matches(state.states));
      else for (const id of state.states) where.push(matches([id]));
    }
  }

  if (filter.pendingRequest)
    where.push(
      `EXISTS (SELECT 1 FROM object_state_request r WHERE r.object_id = o.id AND r.canceled IS NULL AND r.valid_from > ${p(now)})`,
    );
  if (filter.request) {
    const range = [
      filter.request.from ? `r.valid_from >= ${p(filter.request.from)}` : null,
      filter.request.to ? `r.valid_from < ${p(filter.request.to)}` : null,
    ].filter(Boolean);
    where.push(
      `EXISTS (SELECT 1 FROM object_state_request r WHERE r.object_id = o.id AND r.state_id = ${p(filter.request.state)} AND r.canceled IS NULL${range.map((c) => ` AND ${c}`).join("")})`,
    );
  }
  return { where: where.length ? where.join(" AND ") : "true", params };
}
