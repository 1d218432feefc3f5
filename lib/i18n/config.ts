/** The console's languages. The registry's state descriptions (enum_object_states_desc) carry the same two. */
export const LOCALES = ["en", "cs"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** Where a browser keeps its language before sign-in (and for people who have not chosen one). */
export const LOCALE_COOKIE = "console-locale";
/** How long a browser keeps it (seconds): a year. */
export const LOCALE_COOKIE_MAX_AGE = 365 * 86_400;

/**
 * The language cookie's attributes, as the server sets it. `secure` (an https NEXTAUTH_URL, as for
 * the session cookie): the browser sends it over HTTPS only. Readable by the page's script, which
 * sets it before sign-in: it holds a language, nothing else.
 */
export function localeCookieOptions(secure: boolean) {
  return { path: "/", maxAge: LOCALE_COOKIE_MAX_AGE, sameSite: "lax" as const, httpOnly: false, secure };
}

/** The same cookie as the browser's script writes it to document.cookie. */
export function localeCookieText(locale: Locale, secure: boolean): string {
  return `${LOCALE_COOKIE}=${locale}; path=/; max-age=${LOCALE_COOKIE_MAX_AGE}; samesite=lax${secure ? "; secure" : ""}`;
}

/** Each language's name in itself, as the switch offers it. */
export const LANGUAGE_NAMES: Record<Locale, string> = { en: "English", cs: "Čeština" };

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** A person's chosen language (a users row's locale), else the console's default. */
export const localeOrDefault = (value: unknown): Locale => (isLocale(value) ? value : DEFAULT_LOCALE);

/** The language code of enum_object_states_desc.lang for a console language ('EN', 'CS'). */
export function descriptionLang(locale: Locale): string {
  return locale.toUpperCase();
}

/**
 * The console language an Accept-Language header prefers, or null when it names none of them:
 * "cs-CZ,cs;q=0.9,en;q=0.8" → cs. Ranges are compared by their primary subtag; q=0 excludes.
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale | null {
  if (!acceptLanguage) return null;
  const ranked = acceptLanguage
    .slice(0, 500)
    .split(",")
    .map((part, index) => {
      const [range = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { language: range.trim().toLowerCase().split("-")[0] ?? "", weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((r) => r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranked.map((r) => r.language).find(isLocale) ?? null;
}
