import type * as z from "zod";
import { AccessError } from "../auth/guard";
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from "../db/errors";

/** Bad input: nothing was changed. Field errors name the form fields at fault. */
export class InputError extends Error {
  override name = "InputError";
  constructor(
    message: string,
    readonly fieldErrors: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

export type ActionResult<T = undefined> =
  | { ok: true; message: string; data?: T }
  | {
      ok: false;
      code: "unauthenticated" | "forbidden" | "invalid" | "unavailable" | "error";
      error: string;
      fieldErrors?: Record<string, string[]>;
    };

/** Turns the outcome of a data-access call into what a form shows; unexpected errors stay in the log. */
export async function toActionResult<T>(work: () => Promise<{ message: string; data?: T }>): Promise<ActionResult<T>> {
  try {
    const { message, data } = await work();
    return { ok: true, message, data };
  } catch (error) {
    if (error instanceof AccessError) return { ok: false, code: error.code, error: error.message };
    if (error instanceof InputError) return { ok: false, code: "invalid", error: error.message, fieldErrors: error.fieldErrors };
    console.error(error);
    if (isDatabaseUnavailable(error)) return { ok: false, code: "unavailable", error: DATABASE_UNAVAILABLE };
    return {
      ok: false,
      code: "error",
      error: "The change failed and nothing was changed. Try again, or ask an administrator to check the log.",
    };
  }
}

/** Whether any text in the input holds a NUL character (PostgreSQL refuses them in text). */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (depth > 4 || value === null || typeof value !== "object") return false;
  return Object.values(value).some((inner) => hasNul(inner, depth + 1));
}

/** The input parsed by `schema`, or an InputError with a message per field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  if (hasNul(input)) throw new InputError("The form holds a NUL character (\\0), which no field may contain; nothing was changed.");
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? "form");
    fieldErrors[field] = [...(fieldErrors[field] ?? []), issue.message];
  }
  throw new InputError(parsed.error.issues[0]?.message ?? "The input is not valid.", fieldErrors);
}
