import type { ICUArgs, NestedValueOf } from "use-intl/core";
import * as z from "zod";
import { formatInstant } from "../format/datetime";
import type { Locale } from "../i18n/config";
import type { Messages } from "../i18n/messages";
import { translator } from "../i18n/server";

/** The dotted keys of a catalogue's messages. */
type Leaves<T, P extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

/** A message of the server namespace ("request.noObject"), or of common written with its namespace ("common.openEnded"). */
export type MessageKey = Leaves<Messages["server"]> | `common.${Leaves<Messages["common"]>}`;

/** A text given in each language (by a library that has its own translations). */
export type Translated = Readonly<Record<Locale, string>>;

/**
 * A value of a message: text as it is, a count or an instant (each formatted as the language
 * writes it), another message, or a text given in each language.
 */
export type MessageValue = string | number | Date | Message | Translated;

/**
 * What the data-access layer tells a person, before it is put into their language: a message of
 * the catalogue and its values. Ids go in as strings (never formatted as numbers).
 */
export interface Message {
  readonly key: MessageKey;
  readonly values?: Readonly<Record<string, MessageValue>>;
}

/** A message, or a text that is already in the request's language. */
export type Text = string | Message;

type Source<K extends MessageKey> = K extends `common.${infer C}`
  ? NestedValueOf<Messages["common"], C>
  : NestedValueOf<Messages["server"], K>;
type Values<K extends MessageKey> = ICUArgs<
  Source<K> & string,
  { ICUArgument: MessageValue; ICUNumberArgument: number; ICUDateArgument: Date }
>;

/** The values of a message: none for a message without placeholders. */
type Args<K extends MessageKey> = Partial<Values<K>> extends Values<K> ? [values?: Values<K>] : [values: Values<K>];

/** A message with its values, checked against the English catalogue (the key, and every placeholder). */
export function msg<K extends MessageKey>(key: K, ...[values]: Args<K>): Message {
  return values ? { key, values: values as Record<string, MessageValue> } : { key };
}

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
