import { readConfig } from "../config";
import type { Locale } from "../i18n/config";
import { formatInstant as formatIn, zoneOffsetMinutes } from "./instant";

/** The registry's time zone (REGISTRY_TIMEZONE): every instant the console shows is in it. */
export function registryZone(): string {
  return readConfig().registryTimeZone;
}

/** An instant in the registry's time zone, in `locale` (English by default): see ./instant. */
export function formatInstant(value: string | Date, locale: Locale = "en", timeZone: string = registryZone()): string {
  return formatIn(value, locale, timeZone);
}

/**
 * The instant a wall-clock time (YYYY-MM-DDTHH:MM[:SS]) names in `timeZone`. In the hour a DST
 * change skips, the time is read with the offset before the change; in the hour it repeats, the
 * first occurrence is taken.
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
