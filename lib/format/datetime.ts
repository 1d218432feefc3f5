import { readConfig } from "../config";
import type { Locale } from "../i18n/config";
import { formatInstant as formatIn } from "./instant";

/** The registry's time zone (REGISTRY_TIMEZONE): every instant the console shows is in it. */
export function registryZone(): string {
  return readConfig().registryTimeZone;
}

/** An instant in the registry's time zone, in `locale` (English by default): see ./instant. */
export function formatInstant(value: string | Date, locale: Locale = "en", timeZone: string = registryZone()): string {
  return formatIn(value, locale, timeZone);
}
