import { useMemo } from "react";
import { createTranslator, type NamespaceKeys, type NestedKeyOf } from "use-intl/core";
import { useLocale, useMessages, useTimeZone } from "use-intl/react";
import { type ConsoleFormat, consoleFormat } from "../format/instant";
import { compiledFor } from "./compiled";
import type { Messages } from "./messages";
import "./app-config";

export { useLocale } from "use-intl/react";

/**
 * Translations for a client component, from the provider's language and messages. Unlike
 * use-intl's own hook (whose compiled messages live as long as one provider, i.e. one server
 * render), the compiled messages are shared by every render of the process.
 */
export function useTranslations<NS extends NamespaceKeys<Messages, NestedKeyOf<Messages>> = never>(namespace?: NS) {
  const locale = useLocale();
  const messages = useMessages();
  const timeZone = useTimeZone();
  return useMemo(
    () =>
      createTranslator<Messages, NS>({
        locale,
        messages: messages as Messages,
        namespace,
        timeZone,
        ...compiledFor(locale),
        onError: (error) => console.error(error),
      }),
    [locale, messages, namespace, timeZone],
  );
}

/** Dates and numbers as the page's language writes them, in the registry's time zone (client components). */
export function useFormat(): ConsoleFormat {
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  return useMemo(() => consoleFormat(locale, timeZone), [locale, timeZone]);
}
