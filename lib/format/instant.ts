import type { Locale } from "../i18n/config";

// Building an Intl.DateTimeFormat costs far more than using one: one per language and time zone, kept.
const formats = new Map<string, Intl.DateTimeFormat>();

function instantFormat(locale: Locale, timeZone: string): Intl.DateTimeFormat {
  const key = `${locale} ${timeZone}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale === "en" ? "en-GB" : locale, {
      timeZone,
      year: "numeric",
      month: locale === "en" ? "2-digit" : "numeric",
      day: locale === "en" ? "2-digit" : "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    });
    formats.set(key, format);
  }
  return format;
}

/**
 * An instant in `timeZone` (the registry's), with the zone shown, as the language writes it:
 * English "2026-11-22 14:05 CET" (ISO order, sortable, what registry staff exchange), Czech
 * "22. 11. 2026 14:05 SEČ".
 */
export function formatInstant(value: string | Date, locale: Locale, timeZone: string): string {
  const parts = instantFormat(locale, timeZone).formatToParts(typeof value === "string" ? new Date(value) : value);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  if (locale === "en") return `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")} ${get("timeZoneName")}`;
  return `${get("day")}. ${get("month")}. ${get("year")} ${get("hour")}:${get("minute")} ${get("timeZoneName")}`;
}

const numbers = new Map<Locale, Intl.NumberFormat>();
/** A count as the language writes it: English "1,234,567", Czech "1 234 567". */
export function formatNumber(value: number, locale: Locale): string {
  let format = numbers.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale);
    numbers.set(locale, format);
  }
  return format.format(value);
}

/** A calendar date (YYYY-MM-DD, as the registry stores expirations) as the language writes it: English as is, Czech "22. 11. 2026". */
export function formatDay(value: string, locale: Locale): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match || locale === "en") return value;
  return `${Number(match[3])}. ${Number(match[2])}. ${match[1]}`;
}

/** The formatting of one language in the registry's time zone, for pages and components. */
export interface ConsoleFormat {
  locale: Locale;
  timeZone: string;
  instant(value: string | Date): string;
  /** A calendar date, YYYY-MM-DD. */
  day(value: string): string;
  number(value: number): string;
}

export function consoleFormat(locale: Locale, timeZone: string): ConsoleFormat {
  return {
    locale,
    timeZone,
    instant: (value) => formatInstant(value, locale, timeZone),
    day: (value) => formatDay(value, locale),
    number: (value) => formatNumber(value, locale),
  };
}
