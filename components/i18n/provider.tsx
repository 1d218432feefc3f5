"use client";

import type { ReactNode } from "react";
import { IntlProvider } from "use-intl/react";
import type { Locale } from "@/lib/i18n/config";
import type { clientMessages, Messages } from "@/lib/i18n/messages";

/** The language, its messages and the registry's time zone for the client components below. */
export function I18nProvider({
  locale,
  messages,
  timeZone,
  children,
}: {
  locale: Locale;
  /** The parts client components translate (lib/i18n/messages CLIENT_NAMESPACES). */
  messages: ReturnType<typeof clientMessages>;
  timeZone: string;
  children: ReactNode;
}) {
  return (
    <IntlProvider locale={locale} messages={messages as Messages} timeZone={timeZone}>
      {children}
    </IntlProvider>
  );
}
