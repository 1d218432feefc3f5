import * as z from "zod";
import { formatInstant } from "../format/datetime";
import type { Locale } from "../i18n/config";
import { type Args, type Message, type MessageKey, msg, type Text, type Translated } from "../i18n/message";
import { translator } from "../i18n/server";

export type { Message, MessageKey, Text } from "../i18n/message";

type Render = (key: string, values?: Record<string, string | number>) => string;
// One translator per language, kept: it keeps the messages it has compiled.
const translators = new Map<Locale, Render>();

/** `text` in `locale`: a message with its instants in the registry's time zone as the language writes them. */
export function render(text: Text, locale: Locale): string {
  if (typeof text === "string") return text;
  let t = translators.get(locale);
  if (!t) {
    t = translator(locale) as unknown as Render;
    translators.set(locale, t);
  }
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(text.values ?? {}))
    values[name] =
      value instanceof Date
        ? formatInstant(value, locale)
        : typeof value !== "object"
          ? value
          : "key" in value
            ? render(value as Message, locale)
            : (value as Translated)[locale];
  return t(text.key.startsWith("common.") ? text.key : `server.${text.key}`, values);
}

/** The English text of a message: what logs, the audit log and tests read. */
export const english = (text: Text): string => render(text, "en");

// The English text of every schema message given by zodError, and its message: parseInput turns a
// schema's refusal back into the message to say it in the request's language.
const SCHEMA_MESSAGES = new Map<string, Message>();

/**
 * A schema's error (zod's `error` option) as a message: zod reports the English text (what the
 * schema said before), and parseInput finds the message again by it. Rendered when an input is
 * checked, not when the module loads. Values must be constants (the map holds one entry per text).
 */
export function zodError<K extends MessageKey>(key: K, ...values: Args<K>) {
  return (): string => {
    const message = msg(key, ...values);
    const text = english(message);
    SCHEMA_MESSAGES.set(text, message);
    return text;
  };
}

/** The message of a schema refusal's text (see zodError); the text itself when there is none. */
export function schemaMessage(text: string): Text {
  return SCHEMA_MESSAGES.get(text) ?? text;
}

const zodEnglish = z.locales.en().localeError;
const zodCzech = z.locales.cs().localeError;
const unwrap = (said: ReturnType<typeof zodEnglish>) => (typeof said === "string" ? said : said?.message);

/**
 * zod's own message for a check that has none of ours (a field of the wrong type, say: only a
 * forged form sends one): in English as zod gives it, in Czech from zod's Czech locale.
 */
export function zodOwnMessage(issue: Parameters<typeof zodEnglish>[0]): Message {
  const en = unwrap(zodEnglish(issue)) ?? "Invalid input";
  return msg("input.checked", { text: { en, cs: unwrap(zodCzech(issue)) ?? "Neplatný vstup" } });
}
