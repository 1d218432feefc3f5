import { AccessError } from "../auth/guard";
import { currentRequest } from "../auth/request-context";
import { isDatabaseUnavailable } from "../db/errors";
import { DEFAULT_LOCALE, type Locale } from "../i18n/config";
import { msg, type Text } from "../i18n/message";
import { getLocale } from "../i18n/server";
import { logUnexpected } from "../log";
import { InputError } from "./input-error";
import { render } from "./message";

/**
 * The one place where an error from the data-access layer becomes what a person or a client is
 * told: forms (toActionResult), pages (forPage), the CSV export and the API routes all ask here.
 *
 * - not signed in / not allowed: 401 / 403 with the refusal's text;
 * - bad input: 400, nothing changed, with a text per form field;
 * - the database cannot be reached: 503 ("try again"), said in the browser's language, since the
 *   person's saved one is in the database that did not answer;
 * - anything else: 500, logged (rate-limited), and a general text (the cause stays in the log).
 */
export type Answer =
  | { code: "unauthenticated" | "forbidden"; status: 401 | 403; text: Text }
  | { code: "invalid"; status: 400; text: Text; fieldErrors: Record<string, Text[]> }
  | { code: "unavailable"; status: 503; text: Text }
  | { code: "error"; status: 500; text: Text };

export function answerTo(error: unknown): Answer {
  if (error instanceof AccessError) return { code: error.code, status: error.status, text: error.text };
  if (error instanceof InputError) return { code: "invalid", status: 400, text: error.text, fieldErrors: error.fieldErrors };
  // Logged with its stack, a few a minute (lib/log.ts): anyone may send what causes it again and again.
  if (isDatabaseUnavailable(error)) {
    logUnexpected("request.unavailable", error);
    return { code: "unavailable", status: 503, text: msg("common.errors.unavailable") };
  }
  logUnexpected("request.error", error);
  return { code: "error", status: 500, text: msg("common.errors.failed") };
}

/** The language to say `answer` in: the person's, or the browser's when the database is away. */
export async function answerLocale(answer: Answer): Promise<Locale> {
  if (answer.code === "unavailable") return (await currentRequest().catch(() => null))?.locale ?? DEFAULT_LOCALE;
  return getLocale();
}

/** `answer` as plain text in the request's language, with its HTTP status (CSV export, API). */
export async function answerText(answer: Answer): Promise<string> {
  return render(answer.text, await answerLocale(answer));
}

/** Headers an answer's status needs: a client told "unavailable" may come back in a few seconds. */
export function answerHeaders(answer: Answer): Record<string, string> {
  return answer.status === 503 ? { "Retry-After": "5" } : {};
}
