// What the audit log keeps of a message the console said (a refusal's text): its English, as
// before, and the message itself (key and values), so the log can say it again in its reader's
// language. An entry recorded before the message was kept, or a text that is no message of the
// console's catalogue (a field's name, a library's words), is shown as it was recorded; an English
// text that is one of the catalogue's messages without values is found by its words.
import { english, type Message, render, type Text } from "../actions/message";
import type { Locale } from "../i18n/config";
import type { MessageKey, MessageValue, Translated } from "../i18n/message";
import { MESSAGES } from "../i18n/messages";

/** A message's value as JSON: an instant as { instant: ISO 8601 }, a nested message as a stored message. */
type StoredValue = string | number | { instant: string } | StoredMessage | Translated;
export interface StoredMessage {
  key: string;
  values?: Record<string, StoredValue>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The catalogue's English text at `key` (a server message, or common.…), or undefined when there is none. */
function catalogueText(key: string): string | undefined {
  const [root, path] = key.startsWith("common.") ? [MESSAGES.en.common, key.slice(7)] : [MESSAGES.en.server, key];
  let node: unknown = root;
  for (const part of path.split(".")) node = isObject(node) && Object.hasOwn(node, part) ? node[part] : undefined;
  return typeof node === "string" ? node : undefined;
}

function storedValue(value: MessageValue): StoredValue {
  if (value instanceof Date) return { instant: value.toISOString() };
  if (typeof value !== "object") return value;
  return "key" in value ? storedMessage(value as Message) : { ...(value as Translated) };
}

/** A message as the audit log keeps it (JSON). */
export function storedMessage(message: Message): StoredMessage {
  return message.values
    ? { key: message.key, values: Object.fromEntries(Object.entries(message.values).map(([name, value]) => [name, storedValue(value)])) }
    : { key: message.key };
}

function restoredValue(value: unknown): MessageValue | undefined {
  if (typeof value === "string" || typeof value === "number") return value;
  if (!isObject(value)) return undefined;
  if (typeof value.instant === "string") {
    const at = new Date(value.instant);
    return Number.isNaN(at.getTime()) ? undefined : at;
  }
  if (typeof value.key === "string") return restoredMessage(value);
  return typeof value.en === "string" && typeof value.cs === "string" ? { en: value.en, cs: value.cs } : undefined;
}

/** The message an audit row keeps, when it is one of the catalogue's with values of the kinds messages take; undefined otherwise. */
export function restoredMessage(stored: unknown): Message | undefined {
  if (!isObject(stored) || typeof stored.key !== "string" || catalogueText(stored.key) === undefined) return undefined;
  if (stored.values === undefined) return { key: stored.key as MessageKey };
  if (!isObject(stored.values)) return undefined;
  const values: Record<string, MessageValue> = {};
  for (const [name, value] of Object.entries(stored.values)) {
    const restored = restoredValue(value);
    if (restored === undefined) return undefined;
    values[name] = restored;
  }
  return { key: stored.key as MessageKey, values };
}

/** A refusal's text as an audit row's input keeps it: `error`, its English; `errorMessage`, the message to say it again. */
export function refusalInput(text: Text): { error: string; errorMessage?: StoredMessage } {
  return typeof text === "string" ? { error: text } : { error: english(text), errorMessage: storedMessage(text) };
}

// The catalogue's messages without values, by their English text: what an entry recorded before
// messages were kept says, when it said one of them.
let plainMessages: Map<string, MessageKey> | undefined;
function plainMessage(text: string): MessageKey | undefined {
  if (!plainMessages) {
    plainMessages = new Map();
    const walk = (node: unknown, path: string) => {
      if (typeof node === "string") {
        if (!node.includes("{")) plainMessages?.set(node, path as MessageKey);
      } else if (isObject(node)) for (const [name, child] of Object.entries(node)) walk(child, path ? `${path}.${name}` : name);
    };
    walk(MESSAGES.en.server, "");
  }
  return plainMessages.get(text);
}

/**
 * An audit row's input as its reader sees it: the refusal's text (`error`) in the reader's
 * language when it is a message of the console's catalogue, the message kept for it left out;
 * every other value as recorded.
 */
export function shownInput(input: Record<string, unknown>, locale: Locale): [string, unknown][] {
  const entries = Object.entries(input).filter(([key]) => key !== "errorMessage");
  if (typeof input.error !== "string") return entries;
  const recorded = input.error;
  const key = plainMessage(recorded);
  const message = restoredMessage(input.errorMessage) ?? (key ? { key } : undefined);
  let said = recorded;
  if (message) {
    const rendered = render(message, locale);
    // A message whose values no longer fit its text (the catalogue changed since) renders as its key: as recorded then.
    if (rendered !== (message.key.startsWith("common.") ? message.key : `server.${message.key}`)) said = rendered;
  }
  return entries.map(([name, value]) => [name, name === "error" ? said : value]);
}
