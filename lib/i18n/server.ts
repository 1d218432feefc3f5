import { cache } from "react";
import { createTranslator, type NamespaceKeys, type NestedKeyOf } from "use-intl/core";
import { renderingActor } from "../auth/guard";
import { currentRequest } from "../auth/request-context";
import { registryZone } from "../format/datetime";
import { type ConsoleFormat, consoleFormat } from "../format/instant";
import { compiledFor } from "./compiled";
import { DEFAULT_LOCALE, type Locale } from "./config";
import { MESSAGES, type Messages } from "./messages";
import "./app-config";

/**
 * The language of the current request: the signed-in person's choice, else the browser's (its
 * console-locale cookie, else Accept-Language), else English. Outside a request (tests, the
 * command line) English, unless the test's request context names a language.
 */
export const getLocale = cache(async (): Promise<Locale> => {
  const actor = await renderingActor();
  if (actor?.locale) return actor.locale;
  const request = await currentRequest().catch(() => null);
  return request?.locale ?? DEFAULT_LOCALE;
});

/** A translator of `locale`'s messages, optionally within one namespace; a missing message shows its key. */
export function translator<NS extends NamespaceKeys<Messages, NestedKeyOf<Messages>> = never>(locale: Locale, namespace?: NS) {
  return createTranslator<Messages, NS>({
    locale,
    messages: MESSAGES[locale] as Messages,
    namespace,
    timeZone: registryZone(),
    ...compiledFor(locale),
    onError: (error) => console.error(error),
  });
}

/** Translations for a server component, server action or route: the current request's language. */
export async function getTranslations<NS extends NamespaceKeys<Messages, NestedKeyOf<Messages>> = never>(namespace?: NS) {
  return translator<NS>(await getLocale(), namespace);
}

/** Dates and numbers as the current request's language writes them, in the registry's time zone. */
export async function getFormat(): Promise<ConsoleFormat> {
  return consoleFormat(await getLocale(), registryZone());
}

/** When a request was canceled, by whom and why, as every page writes it; null when it was not. */
export async function getCancellationFormat(): Promise<
  (r: { canceled: string | null; canceledBy: string | null; cancelReason: string | null }) => string | null
> {
  const [tc, fmt] = await Promise.all([getTranslations("common"), getFormat()]);
  return ({ canceled, canceledBy: who, cancelReason: reason }) => {
    if (!canceled) return null;
    const when = fmt.instant(canceled);
    if (who && reason) return tc("cancellation.full", { when, who, reason });
    if (who) return tc("cancellation.by", { when, who });
    if (reason) return tc("cancellation.reason", { when, reason });
    return tc("cancellation.plain", { when });
  };
}

/** A period as every page writes it: "from → to", or "from → open-ended", in the request's language and the registry's zone. */
export async function getPeriodFormat(): Promise<(from: string, to: string | null) => string> {
  const [tc, fmt] = await Promise.all([getTranslations("common"), getFormat()]);
  return (from, to) => tc("period", { from: fmt.instant(from), to: to ? fmt.instant(to) : tc("openEnded") });
}
