/**
 * What a list's URL asks for: the catalogues it is read with, the filter and sort order read from
 * it (with a notice for every bad value), and the WHERE condition the filter gives.
 */
import "server-only";
import { readConfig } from "../config";
import type { SqlExecutor } from "../db/driver";
import { DEFAULT_LOCALE, descriptionLang, type Locale } from "../i18n/config";
import type { Message } from "../i18n/message";
import { readParams } from "../input/params";
import type { MatchCount } from "./count-text";
import { type ForecastForm, filterSql, type ObjectFilter, type Params, parseFilter, saysWhen } from "./filter";
import { parseSort, type Sort } from "./paging";

export interface ListRequest {
  filter: ObjectFilter;
  sort: Sort;
  notices: Message[];
  /** Filter first, then sort (see NAME_FIRST_LIMIT). */
  nameFirst: boolean;
  /** Walk the name order without the trigram index: a common fragment (see NAME_WALK_FROM). */
  nameWalk?: boolean;
  /**
   * A search by name alone: what the probe counted is the list's count ("more than NAME_WALK_FROM"
   * when it found more), so the list is not counted again.
   */
  nameCount?: MatchCount;
  /** The list's copy of the keys may be behind FRED's (filterSql). */
  keysBehind: boolean;
  /** How the forecast is asked (filterSql, forecastFormOf). */
  forecastForm?: ForecastForm;
  /** The stored plan is trusted (console.state_plan_trusted): sorting by when may read the periods ahead, and the ends of those holding now, as one set (whenSetSql). */
  planTrusted?: boolean;
}

export type ListCatalogue = Awaited<ReturnType<typeof readCatalogue>>;

/**
 * The catalogues the list reads its URL with; state descriptions in `locale` (else English). One
 * statement, not four: every list page and export reads them, and each round trip costs the
 * console's one Node thread and the database more than these small tables do.
 */
export async function readCatalogue(db: SqlExecutor, locale: Locale = DEFAULT_LOCALE) {
  const [row] = await db.query<{
    types: { id: number; name: string }[];
    states: { id: number; name: string; description: string | null; manual: boolean; external: boolean; types: string[] }[];
    registrars: { id: number; handle: string }[];
    behind: boolean;
  }>(
    `SELECT (SELECT coalesce(json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY t.id), '[]') FROM enum_object_type t) AS types,
            (SELECT coalesce(json_agg(json_build_object(
                      'id', s.id, 'name', s.name, 'description', coalesce(d.description, en.description), 'manual', s.manual, 'external', s.external,
                      'types', ARRAY(SELECT t.name FROM enum_object_type t WHERE t.id = ANY (s.types) ORDER BY t.id))
                    ORDER BY s.importance DESC NULLS LAST, s.id), '[]')
               FROM enum_object_states s
               LEFT JOIN enum_object_states_desc d ON d.state_id = s.id AND d.lang = $1
               LEFT JOIN enum_object_states_desc en ON en.state_id = s.id AND en.lang = 'EN') AS states,
            (SELECT coalesce(json_agg(json_build_object('id', r.id, 'handle', r.handle) ORDER BY r.handle), '[]') FROM registrar r) AS registrars,
            -- Beside and in shadow the list's copy of the keys follows FRED's by the scheduler's passes (filterSql).
            coalesce((SELECT origin = 'adopted' AND mode <> 'charge' FROM console.registry_origin), false) AS behind`,
    [descriptionLang(locale)],
  );
  return { types: row.types, states: row.states, registrars: row.registrars, keysBehind: row.behind === true };
}

/** Reads the URL into a filter and a sort order; every bad value is a notice. */
export function parseRequest(params: Params, catalogue: ListCatalogue): ListRequest {
  const { filter, notices } = parseFilter(params, catalogue, readConfig().registryTimeZone);
  const domainType = catalogue.types.find((t) => t.name === "domain")?.id;
  const sort = parseSort(readParams(params, notices)("sort"), filter.type === domainType, notices, saysWhen(filter.state));
  return { filter, sort, notices, nameFirst: false, keysBehind: catalogue.keysBehind };
}

/** The WHERE condition of a request, parameters from $1. */
export function whereOf(request: Pick<ListRequest, "filter"> & Partial<Pick<ListRequest, "keysBehind" | "forecastForm">>, now: Date) {
  return filterSql(request.filter, now, 0, { keysBehind: request.keysBehind, forecastForm: request.forecastForm });
}
