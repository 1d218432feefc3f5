"use client";

import { IntlProvider } from "use-intl/react";
import { PageError } from "@/components/page-error";
import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, type Locale, negotiateLocale } from "@/lib/i18n/config";
import type { Messages } from "@/lib/i18n/messages";
import { common as cs } from "@/lib/i18n/messages/cs/common";
import { common as en } from "@/lib/i18n/messages/en/common";

/** The browser's language (its cookie, else its own), since the layout that knows the person's failed. */
function browserLocale(): Locale {
  if (typeof document === "undefined") return DEFAULT_LOCALE;
  const cookie = document.cookie.match(new RegExp(`(?:^|; )${LOCALE_COOKIE}=([^;]*)`))?.[1];
  if (isLocale(cookie)) return cookie;
  // The browser's languages, chosen by the rule the server applies to its Accept-Language.
  return negotiateLocale(navigator.languages.join(",")) ?? DEFAULT_LOCALE;
}

/** When the root layout itself fails: a whole document of its own. */
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const locale = browserLocale();
  return (
    <html lang={locale}>
      <body>
        <IntlProvider locale={locale} messages={{ common: (locale === "cs" ? cs : en) as Messages["common"] }} timeZone="UTC">
          <PageError error={error} reset={reset} />
        </IntlProvider>
      </body>
    </html>
  );
}
