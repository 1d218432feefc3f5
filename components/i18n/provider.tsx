"use client";

import type { ReactNode } from "react";
import { IntlProvider } from "use-intl/react";
import type { Locale } from "@/lib/i18n/config";
import type { Messages } from "@/lib/i18n/messages";
import { clientMessages } from "@/lib/i18n/messages/client";

/**
 * The language, its messages and the registry's time zone for the client components below. The
 * messages come with the browser's bundle (lib/i18n/messages/client), not with every page.
 */
export function I18nProvider({ locale, timeZone, children }: { locale: Locale; timeZone: string; children: ReactNode }) {
  return (
    <IntlProvider locale={locale} messages={clientMessages(locale) as Messages} timeZone={timeZone}>
      {children}
    </IntlProvider>
  );
}
