import { _createCache, _createIntlFormatters } from "use-intl/core";
import type { Locale } from "./config";

type Compiled = { cache: ReturnType<typeof _createCache>; formatters: ReturnType<typeof _createIntlFormatters> };

// Compiled messages and Intl formatters, kept per language for the life of the process (and of the
// page in a browser): compiling an ICU message costs far more than formatting it, and a page formats
// hundreds. use-intl keys them by the message's text, so every translator of a language can share them.
const compiled = new Map<Locale, Compiled>();

export function compiledFor(locale: Locale): { _cache: Compiled["cache"]; _formatters: Compiled["formatters"] } {
  let entry = compiled.get(locale);
  if (!entry) {
    const cache = _createCache();
    entry = { cache, formatters: _createIntlFormatters(cache) };
    compiled.set(locale, entry);
  }
  return { _cache: entry.cache, _formatters: entry.formatters };
}
