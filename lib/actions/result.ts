import type * as z from "zod";
import { type Message, msg, type Text } from "../i18n/message";
import { getLocale } from "../i18n/server";
import { MAX_JSON_DEPTH } from "../input/body";
import { hasNul } from "../input/values";
import { answerLocale, answerTo } from "./answer";
import { InputError } from "./input-error";
import { english, render, schemaMessage, zodOwnMessage } from "./message";

export type { Text } from "../i18n/message";
export { InputError } from "./input-error";
export { english } from "./message";

export type ActionResult<T = undefined> =
  | { ok: true; message: string; data?: T }
  | {
      ok: false;
      code: "unauthenticated" | "forbidden" | "invalid" | "unavailable" | "error";
      error: string;
      fieldErrors?: Record<string, string[]>;
    };

/**
 * Turns the outcome of a data-access call into what a form shows, in the request's language
 * (lib/actions/answer.ts decides what each error is); unexpected errors stay in the log.
 */
export async function toActionResult<T>(work: () => Promise<{ message: Text; data?: T }>): Promise<ActionResult<T>> {
  try {
    const { message, data } = await work();
    return { ok: true, message: render(message, await getLocale()), data };
  } catch (error) {
    const answer = answerTo(error);
    const locale = await answerLocale(answer);
    if (answer.code !== "invalid") return { ok: false, code: answer.code, error: render(answer.text, locale) };
    const fieldErrors = Object.fromEntries(
      Object.entries(answer.fieldErrors).map(([field, texts]) => [field, texts.map((text) => render(text, locale))]),
    );
    return { ok: false, code: "invalid", error: render(answer.text, locale), fieldErrors };
  }
}

/**
 * What no input may have, found before the schema walks it: a text holding a NUL character
 * (PostgreSQL refuses them in text), or arrays and objects nested deeper than MAX_JSON_DEPTH (a
 * walk of those could overflow the stack). One pass without recursion.
 */
function inputProblem(input: unknown): "nul" | "deep" | null {
  const pending: [unknown, number][] = [[input, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, depth] = next;
    if (typeof value === "string") {
      if (hasNul(value)) return "nul";
    } else if (value !== null && typeof value === "object") {
      if (depth >= MAX_JSON_DEPTH) return "deep";
      for (const inner of Object.values(value)) pending.push([inner, depth + 1]);
    }
  }
  return null;
}

/** The input parsed by `schema`, or an InputError with a message per field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const problem = inputProblem(input);
  if (problem === "nul") throw new InputError(msg("common.errors.nul"));
  if (problem === "deep") throw new InputError(msg("common.errors.deep", { max: MAX_JSON_DEPTH }));
  // Checks without a message of ours get zod's own, in each language.
  const own = new Map<string, Message>();
  const parsed = schema.safeParse(input, {
    error: (issue) => {
      const message = zodOwnMessage(issue);
      const text = english(message);
      own.set(text, message);
      return text;
    },
  });
  if (parsed.success) return parsed.data;
  const said = (text: string) => own.get(text) ?? schemaMessage(text);
  const fieldErrors: Record<string, Text[]> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? "form");
    fieldErrors[field] = [...(fieldErrors[field] ?? []), said(issue.message)];
  }
  const first = parsed.error.issues[0];
  throw new InputError(first ? said(first.message) : msg("common.errors.invalid"), fieldErrors);
}
