"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { type ActionResult, toActionResult } from "@/lib/actions/result";
import { openCase, reviewCase } from "@/lib/cases/cases";
import { approveBatch, approveChange, editChange, endCase, rejectChange, submitChange, withdrawChange } from "@/lib/cases/pending";
import { objectIdByName } from "@/lib/objects/detail";

// Form posts from /cases, a case's page and /approvals. The data-access layer checks the caller's
// role, the approval policy and every rule of the change, and audits the outcome.

const field = (form: FormData, name: string) => form.get(name) ?? undefined;
const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

function refresh(caseId: FormDataEntryValue | undefined) {
  revalidatePath("/cases");
  revalidatePath("/approvals");
  if (typeof caseId === "string" && /^\d+$/.test(caseId)) revalidatePath(`/cases/${caseId}`);
}

export async function openCaseAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  let opened: number | null = null;
  const result = await toActionResult<undefined>(async () => {
    const r = await openCase({
      kind: field(form, "kind"),
      reference: field(form, "reference"),
      requestedBy: field(form, "requestedBy"),
      description: field(form, "description"),
      reviewBy: field(form, "reviewBy"),
      idempotencyKey: field(form, "idempotencyKey") || undefined,
    });
    opened = r.caseId;
    return r;
  });
  if (result.ok) refresh(undefined);
  // Opened for an object (from its page): back to it, the new case chosen for its block and request forms.
  const forObject = text(form, "forObject");
  if (opened !== null && /^\d{1,10}$/.test(forObject)) redirect(`/objects/${forObject}?case=${opened}#blocking`);
  return result;
}

/** A block or request in a case (from its page): made at once, or proposed when the policy asks for approval. */
export async function caseChangeAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(async () => {
    const kind = text(form, "change");
    const objectId = (await objectIdByName(text(form, "object").trim(), null)) ?? 0;
    const common = { objectId, from: text(form, "from"), to: text(form, "to"), reason: field(form, "reason") };
    return submitChange({
      command: kind === "block" ? "block.create" : "request.create",
      caseId: field(form, "caseId"),
      input: kind === "block" ? common : { ...common, state: kind },
    });
  });
  if (result.ok) refresh(field(form, "caseId"));
  return result;
}

export async function reviewCaseAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(() =>
    reviewCase({ caseId: field(form, "caseId"), note: field(form, "note"), nextReview: field(form, "nextReview") }),
  );
  if (result.ok) refresh(field(form, "caseId"));
  return result;
}

export async function approveChangeAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(() =>
    approveChange({ pendingId: field(form, "pendingId"), version: field(form, "version"), fromNow: form.get("fromNow") === "1" }),
  );
  if (result.ok) refresh(field(form, "caseId"));
  return result;
}

export async function rejectChangeAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(() =>
    rejectChange({ pendingId: field(form, "pendingId"), reason: field(form, "reason") }),
  );
  if (result.ok) refresh(field(form, "caseId"));
  return result;
}

export async function withdrawChangeAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(() => withdrawChange({ pendingId: field(form, "pendingId") }));
  if (result.ok) refresh(field(form, "caseId"));
  return result;
}

/** Its proposer's edit of a waiting change (period, reason): approval starts again. */
export async function editChangeAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(() =>
    editChange({
      pendingId: field(form, "pendingId"),
      version: field(form, "version"),
      from: form.has("from") ? text(form, "from") : undefined,
      to: form.has("to") ? text(form, "to") : undefined,
      reason: field(form, "reason"),
    }),
  );
  if (result.ok) refresh(field(form, "caseId"));
  return result;
}

/** Ends a case: lifts what it holds (or proposes the lifts the policy gives to a second person). */
export async function endCaseAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(() => endCase({ caseId: field(form, "caseId"), reason: field(form, "reason") }));
  if (result.ok) refresh(field(form, "caseId"));
  return result;
}

/** Approves every waiting change of one batch the approver did not propose. */
export async function approveBatchAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(() =>
    approveBatch({ batchId: field(form, "batchId"), fromNow: form.get("fromNow") === "1" }),
  );
  if (result.ok) refresh(field(form, "caseId"));
  return result;
}
