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

/** An instant exactly as Intl writes it (formatToParts): the reference formatInstant is checked against. */
export function formatInstantIntl(value: string | Date, locale: Locale, timeZone: string): string {
  const parts = instantFormat(locale, timeZone).formatToParts(typeof value === "string" ? new Date(value) : value);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  if (locale === "en") return `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")} ${get("timeZoneName")}`;
  return `${get("day")}. ${get("month")}. ${get("year")} ${get("hour")}:${get("minute")} ${get("timeZoneName")}`;
}

const DAY = 86_400_000;
const SINCE_1970 = 0;
/** A UTC day in a zone: its offset (minutes) and abbreviation, when neither changes during the day. */
type ZoneDay = { offset: number; name: string } | null;
// Per language and zone, per UTC day; cleared when it grows past a few decades of days.
const zoneDays = new Map<string, Map<number, ZoneDay>>();

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** The offset of `timeZone` from UTC at an instant, in minutes. */
export function zoneOffsetMinutes(instant: number, timeZone: string): number {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    offsetFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return Math.round((wall - Math.floor(instant / 1000) * 1000) / 60_000);
}

/** An instant as the wall time of `timeZone`, as a datetime-local field writes it: YYYY-MM-DDTHH:MM:SS. */
export function wallTime(instant: number, timeZone: string): string {
  return new Date(instant + zoneOffsetMinutes(instant, timeZone) * 60_000).toISOString().slice(0, 19);
}

/**
 * The instant a wall-clock time (YYYY-MM-DDTHH:MM[:SS]) names in `timeZone`. In the hour a DST
 * change skips, the time is read with the offset before the change; in the hour it repeats, the
 * first occurrence is taken. The inverse of wallTime (pure: the request form reads typed times with it too).
 */
export function zonedTimeToInstant(wallTime: string, timeZone: string): Date {
  const asUtc = Date.parse(`${wallTime}Z`);
  const before = zoneOffsetMinutes(asUtc - 86_400_000, timeZone);
  const after = zoneOffsetMinutes(asUtc + 86_400_000, timeZone);
  // Try both offsets around the instant; the one that maps back to the wall time wins.
  for (const offset of before >= after ? [before, after] : [after, before]) {
    const instant = asUtc - offset * 60_000;
    if (zoneOffsetMinutes(instant, timeZone) === offset) return new Date(instant);
  }
  return new Date(asUtc - before * 60_000);
}

/** The zone's offset (minutes) and its abbreviation in the language at an instant. */
function zoneAt(instant: number, locale: Locale, timeZone: string): { offset: number; name: string } {
  const parts = instantFormat(locale, timeZone).formatToParts(instant);
  return { offset: zoneOffsetMinutes(instant, timeZone), name: parts.find((p) => p.type === "timeZoneName")?.value ?? "" };
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * An instant in `timeZone` (the registry's), with the zone shown, as the language writes it:
 * English "2026-11-22 14:05 CET" (ISO order, sortable, what registry staff exchange), Czech
 * "22. 11. 2026 14:05 SEČ". Pages write thousands, so Intl is asked once per zone and day (its
 * offset and abbreviation at the day's first and last minute); on a day they differ (a change
 * of summer time) and before 1970, every instant is asked for. Equal to formatInstantIntl
 * (checked in instant.test.ts).
 */
export function formatInstant(value: string | Date, locale: Locale, timeZone: string): string {
  const instant = typeof value === "string" ? Date.parse(value) : value.getTime();
  if (!(instant >= SINCE_1970)) return formatInstantIntl(value, locale, timeZone);
  const key = `${locale} ${timeZone}`;
  let days = zoneDays.get(key);
  if (!days) {
    days = new Map();
    zoneDays.set(key, days);
  }
  const day = Math.floor(instant / DAY);
  let zone = days.get(day);
  if (zone === undefined) {
    const first = zoneAt(day * DAY, locale, timeZone);
    const last = zoneAt(day * DAY + DAY - 60_000, locale, timeZone);
    zone = first.offset === last.offset && first.name === last.name ? first : null;
    if (days.size >= 20_000) days.clear();
    days.set(day, zone);
  }
  if (!zone) return formatInstantIntl(value, locale, timeZone);
  const wall = new Date(instant + zone.offset * 60_000);
  const [year, month, date] = [wall.getUTCFullYear(), wall.getUTCMonth() + 1, wall.getUTCDate()];
  const time = `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}`;
  return locale === "en" ? `${year}-${pad(month)}-${pad(date)} ${time} ${zone.name}` : `${date}. ${month}. ${year} ${time} ${zone.name}`;
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
  const match = /^(\d{4,})-(\d{2})-(\d{2})$/.exec(value);
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

/**
 * The end of a common period from a wall time ("2026-11-29T10:00", as a datetime-local field holds
 * it): whole days later at the same wall time, or the first instant of the next month. Wall times
 * count calendar days, so a period over a clock change keeps its hour.
 */
export function wallPeriodEnd(choice: "days7" | "days30" | "monthEnd", start: string): string {
  // The wall time read as if it were UTC: calendar arithmetic without the zone's offsets.
  const at = new Date(Date.parse(`${start}Z`));
  if (choice === "monthEnd") return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)).toISOString().slice(0, 16);
  at.setUTCDate(at.getUTCDate() + (choice === "days7" ? 7 : 30));
  return at.toISOString().slice(0, 16);
}
