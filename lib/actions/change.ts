import "server-only";
import type * as z from "zod";
import { audit } from "../audit/log";
import { refusalInput } from "../audit/said";
import { authorize } from "../auth/guard";
import type { Permission } from "../auth/roles";
import type { Actor } from "../auth/sessions";
import type { ConsoleExecutor } from "../db/driver";
import { InputError, parseInput } from "./result";

/**
 * Every change the console makes: authorize, validate, then change and write the audit row in one
 * transaction, so the row exists exactly when the change does. A refusal of the input is audited
 * and changes nothing.
 */
export async function auditedChange<S extends z.ZodType, T>(
  permission: Permission,
  action: string,
  schema: S,
  input: unknown,
  work: (
    tx: ConsoleExecutor,
    data: z.output<S>,
    actor: Actor,
  ) => Promise<{ result: T; audit: { objectIds?: number[]; input: Record<string, unknown> } }>,
): Promise<T> {
  const { actor, db } = await authorize(permission, action);
  try {
    const data = parseInput(schema, input);
    return await db.sql.transaction(async (tx) => {
      const { result, audit: entry } = await work(tx, data, actor);
      await audit(tx, { action, result: "ok", actor, objectIds: entry.objectIds, input: entry.input });
      return result;
    });
  } catch (error) {
    if (error instanceof InputError)
      await audit(db.sql, {
        action,
        result: "refused",
        errorCode: "invalid",
        actor,
        // The object the refused change was for, when the input names one (a request, a block).
        objectIds: objectOf(input),
        // Its text in English and as the message, which the log says in its reader's language.
        input: refusalInput(error.text),
      });
    throw error;
  }
}

/** The object id an input names (its objectId field, a positive whole number), for the audit row. */
function objectOf(input: unknown): number[] | undefined {
  const value = typeof input === "object" && input !== null ? (input as { objectId?: unknown }).objectId : undefined;
  const id = typeof value === "number" ? value : typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? [id] : undefined;
}
