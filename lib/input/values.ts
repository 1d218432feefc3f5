// What an id, a date, an instant, a cursor's value or a text must be before it goes into SQL: the
// one place these rules live. URL parameters (lib/input/params.ts, the lists, the audit log, the
// object pages) and form inputs (lib/actions: idSchema, parseInput) are read with them, so a value
// PostgreSQL would refuse (an integer out of range, 2026-13-45, a NUL character in text) becomes
// a notice or a refusal that changes nothing, never an error from the database.
import { zonedTimeToInstant } from "../format/instant";

/** The largest value of PostgreSQL's `integer`, which every registry row id is. */
export const DB_INT_MAX = 2_147_483_647;

/** PostgreSQL refuses NUL in text (and no name, id or date holds one). */
export const hasNul = (text: string): boolean => text.includes("\u0000");

/** A UTF-16 surrogate without its pair: no UTF-8 text has one (encoders turn it into U+FFFD, silently another text). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** C0 and C1 control characters and DEL. */
const CONTROL = /\p{Cc}/u;

/**
 * What of `text` no name can hold: "nul" (PostgreSQL refuses it), "surrogate" (broken Unicode),
 * "control" (a control character: tab, newline, escape, DEL and the like; only with `controls`).
 * Null when there is none.
 */
export function badCharacter(text: string, options: { controls: boolean }): "nul" | "surrogate" | "control" | null {
  if (hasNul(text)) return "nul";
  if (LONE_SURROGATE.test(text)) return "surrogate";
  return options.controls && CONTROL.test(text) ? "control" : null;
}

/** `text` with each character badCharacter finds (NUL, a lone surrogate, a control character) shown as U+FFFD, for logs and the audit log. */
export function shownText(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\p{Cc}/gu, "\uFFFD");
}

/** A URL's %-encoded text decoded, or null when its encoding is broken (no UTF-8 behind a %E0%A4%A). */
export function percentDecoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * A row id written as decimal digits: a whole number from 1 to `max` (an `integer` column's
 * largest value unless said otherwise, e.g. Number.MAX_SAFE_INTEGER for a `bigint`); undefined otherwise.
 */
export function parseId(text: string, max: number = DB_INT_MAX): number | undefined {
  if (!/^\d{1,16}$/.test(text)) return undefined;
  const id = Number(text);
  return id >= 1 && id <= max ? id : undefined;
}

/** A row id that is already a number (a cursor's): a whole number from 1 to `max`. */
export const isId = (value: unknown, max: number = DB_INT_MAX): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= max;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date (YYYY-MM-DD, years 1–9999) that exists; undefined otherwise. */
export function parseDate(text: string): string | undefined {
  if (!ISO_DATE.test(text) || text.startsWith("0000")) return undefined;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text ? text : undefined;
}

/** HH:MM[:SS[.fraction]] of a day: hours 0–23, minutes and seconds 0–59. */
function isWallTime(time: string): boolean {
  const match = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?$/.exec(time);
  if (!match) return false;
  const [, h, m, s = "0"] = match;
  return Number(h) < 24 && Number(m) < 60 && Number(s) < 60;
}

/**
 * An instant: an ISO date-time with offset or Z; a date-time without one (a form's
 * datetime-local), read in `timeZone`; or a date, its midnight in `timeZone`. Only real calendar
 * days and wall times (no 2026-02-30, no 24:00, no 10:60).
 */
export function parseInstant(text: string, timeZone = "UTC"): Date | undefined {
  if (parseDate(text)) return zonedTimeToInstant(`${text}T00:00`, timeZone);
  if (!parseDate(text.slice(0, 10)) || text[10] !== "T") return undefined;
  const local = /^\d{4}-\d{2}-\d{2}T(\d{2}:\d{2}(?::\d{2})?)$/.exec(text);
  if (local) return isWallTime(local[1]) ? zonedTimeToInstant(text, timeZone) : undefined;
  const zoned = /^\d{4}-\d{2}-\d{2}T(\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)(Z|[+-](\d{2}):(\d{2}))$/.exec(text);
  if (!zoned || !isWallTime(zoned[1])) return undefined;
  if (zoned[3] !== undefined && (Number(zoned[3]) > 15 || Number(zoned[4]) > 59)) return undefined;
  const instant = new Date(text);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}

/** How far from now an instant a person gives (a request's start or end, a list's or the audit log's filter) may lie, either way. */
export const INSTANT_SPAN_YEARS = 100;

/** The earliest and the latest instant a person may give at `now`: INSTANT_SPAN_YEARS before and after it. */
export function instantBounds(now: Date): { earliest: Date; latest: Date } {
  const earliest = new Date(now.getTime());
  earliest.setUTCFullYear(now.getUTCFullYear() - INSTANT_SPAN_YEARS);
  const latest = new Date(now.getTime());
  latest.setUTCFullYear(now.getUTCFullYear() + INSTANT_SPAN_YEARS);
  return { earliest, latest };
}

/** What readInstant made of a text: the instant, or why there is none (with the bounds when it lies too far). */
export type InstantReading =
  | { instant: Date; problem?: undefined }
  | { instant?: undefined; problem: "notInstant" }
  | { instant?: undefined; problem: "tooFar"; at: Date; years: number; earliest: Date; latest: Date };

/**
 * An instant a person gives (parseInstant), within INSTANT_SPAN_YEARS of `now`: the one rule for
 * every instant of a form or a URL (requests and blocks, the object list's, the request list's and
 * the audit log's filters). A year 9999 is a date, but no request ends then and no filter needs it.
 */
export function readInstant(text: string, timeZone = "UTC", now: Date = new Date()): InstantReading {
  const instant = parseInstant(text, timeZone);
  if (!instant) return { problem: "notInstant" };
  const { earliest, latest } = instantBounds(now);
  if (instant < earliest || instant > latest) return { problem: "tooFar", at: instant, years: INSTANT_SPAN_YEARS, earliest, latest };
  return { instant };
}

/**
 * A `timestamp` as PostgreSQL prints one (YYYY-MM-DD HH:MM:SS[.ffffff], no zone), e.g. a list
 * cursor's sort value, when it names a real day and time; undefined otherwise.
 */
export function parseTimestampText(text: string): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?)$/.exec(text);
  return match && parseDate(match[1]) && isWallTime(match[2]) ? text : undefined;
}
