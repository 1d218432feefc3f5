"use server";

import { revalidatePath } from "next/cache";
import { type ActionResult, toActionResult } from "@/lib/actions/result";
import { retireCaseKind, saveCaseKind } from "@/lib/cases/kinds";
import { addApprovalRule, removeApprovalRule } from "@/lib/cases/policy";

// Form posts from /admin/approvals (the approval policy and the kinds of case); the data-access layer checks that the caller is an administrator and audits.

export async function addApprovalRuleAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(() =>
    addApprovalRule({
      state: form.get("state") ?? undefined,
      change: form.get("change") ?? undefined,
      caseKind: form.get("caseKind") ?? undefined,
    }),
  );
  if (result.ok) revalidatePath("/admin/approvals");
  return result;
}

export async function removeApprovalRuleAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(() => removeApprovalRule({ ruleId: form.get("ruleId") ?? undefined }));
  if (result.ok) revalidatePath("/admin/approvals");
  return result;
}

export async function saveCaseKindAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(() =>
    saveCaseKind({
      code: form.get("code") ?? undefined,
      nameEn: form.get("nameEn") ?? undefined,
      nameCs: form.get("nameCs") ?? undefined,
      position: form.get("position") ?? undefined,
      isNew: form.get("isNew") === "1",
    }),
  );
  if (result.ok) revalidatePath("/admin/approvals");
  return result;
}

export async function retireCaseKindAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(() =>
    retireCaseKind({ code: form.get("code") ?? undefined, retire: form.get("retire") === "1" }),
  );
  if (result.ok) revalidatePath("/admin/approvals");
  return result;
}
