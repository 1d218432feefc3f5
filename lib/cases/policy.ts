import "server-only";
import * as z from "zod";
import { auditedChange } from "../actions/change";
import { zodError } from "../actions/message";
import { InputError } from "../actions/result";
import { authorize } from "../auth/guard";
import type { SqlExecutor } from "../db/driver";
import { type Message, msg } from "../i18n/message";
import { caseKinds } from "./cases";

// Which changes need a second person (four-eyes approval, issue 42): rules administrators set, each
// matching a state (or any), a kind of change (making, changing, lifting; or any) and a kind of case
// (or any, changes made without a case included). The rule itself is console.change_needs_approval.

const CHANGE_KINDS = ["make", "change", "lift"] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface ApprovalRule {
  id: number;
  state: string | null;
  change: ChangeKind | null;
  caseKind: string | null;
  createdBy: string;
  createdAt: Date;
}

/** The rules in force, most general first. */
async function approvalRules(db: SqlExecutor): Promise<ApprovalRule[]> {
  return db.query<ApprovalRule>(
    `SELECT id, state, change, case_kind AS "caseKind", created_by AS "createdBy", created_at AS "createdAt"
       FROM console.approval_rules ORDER BY state NULLS FIRST, change NULLS FIRST, case_kind NULLS FIRST, id`,
  );
}

/** Whether a change of `state` of kind `change`, in a case of `caseKind` (null: none), waits for a second person. */
export async function needsApproval(db: SqlExecutor, state: string, change: ChangeKind, caseKind: string | null): Promise<boolean> {
  const [row] = await db.query<{ needs: boolean }>("SELECT console.change_needs_approval($1, $2, $3) AS needs", [state, change, caseKind]);
  return row.needs;
}

/**
 * Refuses a change the policy gives to a second person unless it is applied on approval
 * (`approvedBy`): every path that makes a block or request checks here, so none goes around it.
 */
export async function requireApproval(
  db: SqlExecutor,
  change: { state: string; change: ChangeKind; caseKind: string | null; object: string },
  approvedBy: string | null | undefined,
): Promise<void> {
  if (approvedBy) return;
  if (await needsApproval(db, change.state, change.change, change.caseKind))
    throw new InputError(msg("case.approvalNeeded", { state: change.state, change: change.change, object: change.object }));
}

/** A rule's field as its form sends it: a name, or "any" (a rule matching anything is chosen field by field, never by leaving one out). */
const choice = (max: number, missing: "case.ruleChooseState" | "case.ruleChooseKind") =>
  z
    .string({ error: zodError(missing) })
    .trim()
    .min(1, { error: zodError(missing) })
    .max(max, { error: zodError("field.invalid") })
    .transform((v) => (v === "any" ? null : v));

const approvalRuleSchema = z.object({
  state: choice(50, "case.ruleChooseState"),
  change: z
    .enum(["any", ...CHANGE_KINDS], { error: zodError("case.changeKindUnknown") })
    .transform((v) => (v === "any" ? null : (v as ChangeKind))),
  caseKind: choice(40, "case.ruleChooseKind"),
});

const ruleIdSchema = z.object({
  ruleId: z.coerce
    .number({ error: zodError("case.ruleUnknown") })
    .int()
    .positive()
    .max(2_147_483_647),
});

/** Adds a rule (administrators). Its state must be a manual one, its case kind one that exists. */
export function addApprovalRule(input: unknown): Promise<{ message: Message; ruleId: number }> {
  return auditedChange("cases.policy", "approval.rule.add", approvalRuleSchema, input, async (tx, data, actor) => {
    if (data.state !== null) {
      const [state] = await tx.query<{ manual: boolean }>("SELECT manual FROM enum_object_states WHERE name = $1", [data.state]);
      if (!state?.manual)
        throw new InputError(msg("case.ruleStateNotManual", { state: data.state }), { state: [msg("field.unknownState")] });
    }
    if (data.caseKind !== null) {
      const [kind] = await tx.query("SELECT 1 FROM console.case_kinds WHERE code = $1 AND retired_at IS NULL", [data.caseKind]);
      if (!kind) throw new InputError(msg("case.kindUnknown", { kind: data.caseKind }), { caseKind: [msg("field.invalid")] });
    }
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO console.approval_rules (state, change, case_kind, created_by, created_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT DO NOTHING RETURNING id`,
      [data.state, data.change, data.caseKind, actor.username],
    );
    if (!row) throw new InputError(msg("case.ruleExists"));
    return {
      result: { message: msg("case.ruleAdded", { id: String(row.id) }), ruleId: row.id },
      audit: { input: { ruleId: row.id, state: data.state, change: data.change, caseKind: data.caseKind } },
    };
  });
}

/** Removes a rule (administrators): what it held back is no longer held back. */
export function removeApprovalRule(input: unknown): Promise<{ message: Message }> {
  return auditedChange("cases.policy", "approval.rule.remove", ruleIdSchema, input, async (tx, data) => {
    const [row] = await tx.query<{ id: number; state: string | null; change: string | null; case_kind: string | null }>(
      "DELETE FROM console.approval_rules WHERE id = $1 RETURNING id, state, change, case_kind",
      [data.ruleId],
    );
    if (!row) throw new InputError(msg("case.ruleUnknown"));
    return {
      result: { message: msg("case.ruleRemoved", { id: String(row.id) }) },
      audit: { input: { ruleId: row.id, state: row.state, change: row.change, caseKind: row.case_kind } },
    };
  });
}

/** The settings page: the rules, and what a new rule may name (manual states, kinds of case). */
export async function approvalPolicyPage(): Promise<{
  rules: ApprovalRule[];
  states: string[];
  kinds: { code: string; nameEn: string; nameCs: string; retired: boolean }[];
}> {
  const { db } = await authorize("cases.policy", "approval.read");
  const [rules, states, kinds] = await Promise.all([
    approvalRules(db.sql),
    db.sql.query<{ name: string }>("SELECT name FROM enum_object_states WHERE manual ORDER BY name"),
    caseKinds(db.sql, true),
  ]);
  return { rules, states: states.map((s) => s.name), kinds };
}
