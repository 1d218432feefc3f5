import { readConfig } from "../config";

// Reading the configuration validates the whole environment: done again only when the zone's variable changes.
let zoneCache: { env: string | undefined; zone: string } | null = null;
function registryZone(): string {
  const env = process.env.REGISTRY_TIMEZONE;
  if (!zoneCache || zoneCache.env !== env) zoneCache = { env, zone: readConfig().registryTimeZone };
  return zoneCache.zone;
}

// Building an Intl.DateTimeFormat costs far more than using one: one per time zone, kept.
const formats = new Map<string, Intl.DateTimeFormat>();

/** An instant in the registry's time zone, with the zone shown: "2026-11-22 14:05 CET". */
export function formatInstant(iso: string, timeZone: string = registryZone()): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    });
    formats.set(timeZone, format);
  }
  const parts = format.formatToParts(new Date(iso));
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")} ${get("timeZoneName")}`;
}

/** The offset of `timeZone` from UTC at an instant, in minutes. */
function zoneOffsetMinutes(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return Math.round((wall - Math.floor(instant / 1000) * 1000) / 60_000);
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

/** A period from `from` to `to` (null: no end) in the registry's time zone: "2026-11-29 10:00 CET → open-ended". */
export function formatPeriod(from: string, to: string | null): string {
  return `${formatInstant(from)} → ${to ? formatInstant(to) : "open-ended"}`;
}

/** When a request was canceled, by whom and why, as the request lists show it; "—" when it was not. */
export function formatCancellation(r: { canceled: string | null; canceledBy: string | null; cancelReason: string | null }): string {
  if (!r.canceled) return "—";
  return `${formatInstant(r.canceled)}${r.canceledBy ? ` by ${r.canceledBy}` : ""}${r.cancelReason ? `: ${r.cancelReason}` : ""}`;
}
