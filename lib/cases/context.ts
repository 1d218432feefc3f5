import "server-only";
import * as z from "zod";
import { InputError, parseInput } from "../actions/result";
import type { SqlExecutor } from "../db/driver";
import { msg } from "../i18n/message";
import { REASON_MAX } from "../requests/limits";
import { caseIdSchema, caseOf } from "./cases";
import { type ChangeKind, requireApproval } from "./policy";

/**
 * What a block or request is made under (issue 42): the case it belongs to, who approved it when it
 * waited for a second person, and the kind of change (for the approval policy). Every command that
 * makes one passes it to the work function, which checks the policy and records the case.
 */
export interface ChangeContext {
  case?: { id: number; kind: string; reference: string } | null;
  /** The person who approved it; absent: made at once, which the policy must allow. */
  approvedBy?: string | null;
  /** A dry run (a proposal's): the policy is not asked, nothing is kept. */
  dryRun?: boolean;
  change?: ChangeKind;
}

/** The reason as FRED's reason row keeps it: the case's label first, so FRED's own admin shows it. */
export function reasonIn(context: ChangeContext, reason: string): string {
  if (!context.case) return reason;
  const tagged = `Case ${context.case.id} (${context.case.reference}): ${reason}`;
  if (tagged.length > REASON_MAX)
    throw new InputError(msg("case.reasonTooLong", { max: REASON_MAX - (tagged.length - reason.length) }), {
      reason: [msg("field.invalid")],
    });
  return tagged;
}

/** The policy's check for this change (see requireApproval), unless it is a dry run. */
export async function checkPolicy(tx: SqlExecutor, context: ChangeContext, state: string, object: string): Promise<void> {
  if (context.dryRun) return;
  await requireApproval(tx, { state, change: context.change ?? "make", caseKind: context.case?.kind ?? null, object }, context.approvedBy);
}

/** The columns request_meta keeps of the context: (case_id, approved_by). */
export const metaOf = (context: ChangeContext): [number | null, string | null] => [context.case?.id ?? null, context.approvedBy ?? null];

/** The case a block or request was made in, if any (its kind for the policy, its reference for FRED's reasons). */
export async function caseOfItem(
  tx: SqlExecutor,
  item: "block" | "request",
  id: number,
): Promise<{ id: number; kind: string; reference: string } | null> {
  const [row] = await tx.query<{ id: number; kind: string; reference: string }>(
    item === "block"
      ? "SELECT c.id, c.kind, c.reference FROM console.blocks b JOIN console.cases c ON c.id = b.case_id WHERE b.id = $1"
      : "SELECT c.id, c.kind, c.reference FROM console.request_meta m JOIN console.cases c ON c.id = m.case_id WHERE m.request_id = $1",
    [id],
  );
  return row ?? null;
}

/** The case a form names for its change, if any (an empty choice: none). */
export const inCaseSchema = z.object({
  caseId: z.preprocess((v) => (v === "" || v === null ? undefined : v), caseIdSchema.optional()),
});

/**
 * The context of a change a form makes at once (the object page's block and request forms): the case
 * it names, which must be open and is held open (FOR SHARE, after the object's lock) until the change commits.
 */
export async function formContext(tx: SqlExecutor, input: unknown): Promise<ChangeContext> {
  const { caseId } = parseInput(inCaseSchema, input);
  return caseId === undefined ? {} : { case: await caseOf(tx, caseId, { open: true, share: true }) };
}
