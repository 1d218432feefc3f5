import * as z from "zod";
import { zodError } from "../actions/message";
import { InputError, parseInput } from "../actions/result";
import { authorize } from "../auth/guard";
import { readConfig } from "../config";
import { LOCALE_COOKIE, LOCALES, type Locale, localeCookieOptions } from "../i18n/config";
import { type Message, msg } from "../i18n/message";
import { translator } from "../i18n/server";
import { type HiddenColumns, hiddenColumnsOf, TABLE_COLUMNS, type TableName } from "../tables/columns";

const languageSchema = z.object({ locale: z.enum(LOCALES, { error: zodError("language.choose") }) });

/** Keeps the language in the browser too, so the sign-in page speaks it after signing out. */
async function rememberInBrowser(locale: Locale): Promise<void> {
  try {
    const { cookies } = await import("next/headers");
    (await cookies()).set(LOCALE_COOKIE, locale, localeCookieOptions(readConfig().httpsOnly));
  } catch {
    // Outside a Next request (tests, the command line) there is no browser to tell.
  }
}

/** The signed-in person's language, kept with their user so every browser they sign in on speaks it. */
export async function setOwnLanguage(input: { locale?: unknown }): Promise<{ message: string }> {
  const { actor, db } = await authorize("self.preferences", "language.set");
  const { locale } = parseInput(languageSchema, input);
  await db.prisma.user.update({ where: { id: actor.userId }, data: { locale }, select: { id: true } });
  await rememberInBrowser(locale);
  return { message: translator(locale, "common")("language.changed") };
}

const columnsSchema = z.object({
  table: z.enum(Object.keys(TABLE_COLUMNS) as [TableName, ...TableName[]], { error: zodError("columns.table") }),
  hidden: z.array(z.string().max(40)).max(20),
});

/** The columns the signed-in person hides in `table` (theirs, on every browser). */
export async function ownHiddenColumns(table: TableName): Promise<HiddenColumns> {
  const { actor, db } = await authorize("self.preferences", "columns.read");
  const row = await db.prisma.user.findUnique({ where: { id: actor.userId }, select: { tableColumns: true } });
  return hiddenColumnsOf(table, row?.tableColumns);
}

/**
 * Keeps which columns of a table the signed-in person hides. Every column named must be one of the
 * table's, and its key column (the first) cannot be hidden.
 */
export async function setOwnHiddenColumns(input: {
  table?: unknown;
  hidden?: unknown;
}): Promise<{ message: Message; hidden: HiddenColumns }> {
  const { actor, db } = await authorize("self.preferences", "columns.set");
  const { table, hidden } = parseInput(columnsSchema, input);
  const [key, ...rest] = TABLE_COLUMNS[table] as readonly string[];
  const unknown = hidden.filter((column) => !rest.includes(column));
  if (unknown.length > 0)
    throw new InputError(msg("columns.unknown", { columns: unknown.join(", "), key, allowed: rest.join(", ") }), {
      hidden: [msg("field.invalid")],
    });
  const choice: HiddenColumns = Object.fromEntries(hidden.map((column) => [column, false] as const));
  // Raw: jsonb_set changes this table's entry alone, so two browsers saving two tables at once keep both.
  await db.sql.query("UPDATE console.users SET table_columns = jsonb_set(table_columns, ARRAY[$2::text], $3::jsonb) WHERE id = $1", [
    actor.userId,
    table,
    JSON.stringify(choice),
  ]);
  return { message: msg("columns.saved"), hidden: choice };
}
