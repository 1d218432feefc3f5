import type { ICUArgs, NestedValueOf } from "use-intl/core";
import type { Locale } from "./config";
import type { Messages } from "./messages";

// A message of the catalogue and its values, before it is put into a language: what the
// data-access layer says. Pure: the rendering (lib/actions/message.ts) needs the request's
// language and so the session; this module needs nothing, so the guard can name a Message
// without importing the rendering.

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
export type Args<K extends MessageKey> = Partial<Values<K>> extends Values<K> ? [values?: Values<K>] : [values: Values<K>];

/** A message with its values, checked against the English catalogue (the key, and every placeholder). */
export function msg<K extends MessageKey>(key: K, ...[values]: Args<K>): Message {
  return values ? { key, values: values as Record<string, MessageValue> } : { key };
}
