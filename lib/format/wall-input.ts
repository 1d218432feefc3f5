import type { Locale } from "../i18n/config";

/**
 * A date or a date and time typed into a form, as the console's language writes it rather than as
 * the browser's language does (a native date field in Chromium shows mm/dd/yyyy AM to an English
 * browser, even inside the Czech interface). The value the form sends is the same wall time in ISO
 * form that a native field sends ("2026-11-30T14:05", or "2026-11-30" for a date), read by the
 * server in the registry's zone as before.
 *
 * English writes "2026-11-30 14:05", Czech "30. 11. 2026 14:05"; both forms are read in either
 * language, and the ISO form with "T" too (what a link or a pasted value holds).
 */

/** The written form of an ISO wall time ("" stays ""). */
export function formatWallInput(iso: string, locale: Locale, withTime: boolean): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?/.exec(iso);
  if (!match) return iso;
  const [, year, month, day, hour = "00", minute = "00"] = match;
  const date = locale === "cs" ? `${Number(day)}. ${Number(month)}. ${year}` : `${year}-${month}-${day}`;
  return withTime ? `${date} ${hour}:${minute}` : date;
}

/** What a person writes, in their language: the placeholder of an empty field. */
export function wallInputPattern(locale: Locale, withTime: boolean): string {
  const date = locale === "cs" ? "d. m. rrrr" : "yyyy-mm-dd";
  return withTime ? `${date} hh:mm` : date;
}

export type WallInput = { ok: true; iso: string } | { ok: false; problem: "format" | "date" | "time" };

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * The ISO wall time of what was typed: "" for nothing; a date without a time is its midnight when
 * the field takes times. Refused: anything else, a day the calendar lacks (2026-02-30), a time past
 * 23:59, and a time where only a date is asked for.
 */
export function parseWallInput(text: string, withTime: boolean): WallInput {
  const value = text.trim();
  if (value === "") return { ok: true, iso: "" };
  const time = String.raw`(?:(?:\s*T\s*|\s+)(\d{1,2}):(\d{2}))?`;
  const iso = new RegExp(String.raw`^(\d{4})-(\d{1,2})-(\d{1,2})${time}$`).exec(value);
  const czech = new RegExp(String.raw`^(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})${time}$`).exec(value);
  if (!iso && !czech) return { ok: false, problem: "format" };
  const [year, month, day, hour, minute] = iso
    ? [iso[1], iso[2], iso[3], iso[4], iso[5]]
    : [(czech as RegExpExecArray)[3], (czech as RegExpExecArray)[2], (czech as RegExpExecArray)[1], czech?.[4], czech?.[5]];
  const [y, m, d] = [Number(year), Number(month), Number(day)];
  const calendar = new Date(Date.UTC(y, m - 1, d));
  if (m < 1 || m > 12 || calendar.getUTCFullYear() !== y || calendar.getUTCMonth() !== m - 1 || calendar.getUTCDate() !== d)
    return { ok: false, problem: "date" };
  const date = `${year}-${pad(m)}-${pad(d)}`;
  if (hour === undefined) return { ok: true, iso: withTime ? `${date}T00:00` : date };
  if (!withTime) return { ok: false, problem: "format" };
  const [h, min] = [Number(hour), Number(minute)];
  if (h > 23 || min > 59) return { ok: false, problem: "time" };
  return { ok: true, iso: `${date}T${pad(h)}:${pad(min)}` };
}
