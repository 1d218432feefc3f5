"use client";

import type { ReactNode } from "react";
import { IntlProvider } from "use-intl/react";
import type { Locale } from "@/lib/i18n/config";
import type { Messages } from "@/lib/i18n/messages";

/** What client components may translate: the server's messages and the state reasons stay on the server. */
export type ClientMessages = Omit<Messages, "server" | "reasons">;

/** The language, its messages and the registry's time zone for the client components below. */
export function I18nProvider({
  locale,
  messages,
  timeZone,
  children,
}: {
  locale: Locale;
  messages: ClientMessages;
  timeZone: string;
  children: ReactNode;
}) {
  return (
    <IntlProvider locale={locale} messages={messages as Messages} timeZone={timeZone}>
      {children}
    </IntlProvider>
  );
}
