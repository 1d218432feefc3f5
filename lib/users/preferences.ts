import * as z from "zod";
import { zodError } from "../actions/message";
import { parseInput } from "../actions/result";
import { authorize } from "../auth/guard";
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, LOCALES, type Locale } from "../i18n/config";
import { translator } from "../i18n/server";

const languageSchema = z.object({ locale: z.enum(LOCALES, { error: zodError("language.choose") }) });

/** Keeps the language in the browser too, so the sign-in page speaks it after signing out. */
async function rememberInBrowser(locale: Locale): Promise<void> {
  try {
    const { cookies } = await import("next/headers");
    (await cookies()).set(LOCALE_COOKIE, locale, { path: "/", maxAge: LOCALE_COOKIE_MAX_AGE, sameSite: "lax", httpOnly: false });
  } catch {
    // Outside a Next request (tests, the command line) there is no browser to tell.
  }
}

/** The signed-in person's language, kept with their user so every browser they sign in on speaks it. */
export async function setOwnLanguage(input: { locale?: unknown }): Promise<{ message: string }> {
  const { actor, db } = await authorize("self.preferences", "language.set");
  const { locale } = parseInput(languageSchema, input);
  await db.sql.query("UPDATE console.users SET locale = $2 WHERE id = $1", [actor.userId, locale]);
  await rememberInBrowser(locale);
  return { message: translator(locale, "common")("language.changed") };
}
