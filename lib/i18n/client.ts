import { useMemo } from "react";
import { useLocale, useTimeZone } from "use-intl/react";
import { type ConsoleFormat, consoleFormat } from "../format/instant";
import "./app-config";

export { useLocale, useTranslations } from "use-intl/react";

/** Dates and numbers as the page's language writes them, in the registry's time zone (client components). */
export function useFormat(): ConsoleFormat {
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  return useMemo(() => consoleFormat(locale, timeZone), [locale, timeZone]);
}
