"use client";

import type { ReactNode } from "react";
import { IntlProvider } from "use-intl/react";
import type { Locale } from "@/lib/i18n/config";
import type { Messages } from "@/lib/i18n/messages";

/** The language, its messages and the registry's time zone for the client components below. */
export function I18nProvider({
  locale,
  messages,
  timeZone,
  children,
}: {
  locale: Locale;
  messages: Messages;
  timeZone: string;
  children: ReactNode;
}) {
  return (
    <IntlProvider locale={locale} messages={messages} timeZone={timeZone}>
      {children}
    </IntlProvider>
  );
}
