"use server";

import { revalidatePath } from "next/cache";
import { type ActionResult, type Text, toActionResult } from "@/lib/actions/result";
import { submitLift, submitMake } from "@/lib/cases/pending";
import { changeBlock } from "@/lib/requests/change-block";
import { previewStateRequest } from "@/lib/requests/preview";

// Form posts from an object's page. The data-access layer checks the caller's role, every rule of
// the request (also held by database constraints) and audits the outcome.

const field = (form: FormData, name: string) => form.get(name) ?? undefined;

async function run(objectId: FormDataEntryValue | undefined, work: () => Promise<{ message: Text }>): Promise<ActionResult> {
  const result = await toActionResult<undefined>(work);
  if (result.ok && typeof objectId === "string" && /^\d+$/.test(objectId)) revalidatePath(`/objects/${objectId}`);
  return result;
}

export async function createRequestAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return run(field(form, "objectId"), () =>
    // Made at once, or proposed when the approval policy gives it to a second person (issue 42); in the case chosen, if any.
    submitMake("request.create", {
      caseId: field(form, "caseId"),
      objectId: field(form, "objectId"),
      state: field(form, "state"),
      from: field(form, "from"),
      to: field(form, "to"),
      reason: field(form, "reason"),
      idempotencyKey: field(form, "idempotencyKey"),
    }),
  );
}

/** What the request in the form would do; changes nothing. */
export async function previewRequestAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return toActionResult(() =>
    previewStateRequest({
      objectId: field(form, "objectId"),
      state: field(form, "state"),
      from: field(form, "from"),
      to: field(form, "to"),
      reason: field(form, "reason"),
    }),
  );
}

export async function cancelRequestAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return run(field(form, "objectId"), () =>
    // Canceled at once, or proposed when the approval policy gives it to a second person (issue 42).
    submitLift("request.cancel", {
      requestId: field(form, "requestId"),
      reason: field(form, "reason"),
      idempotencyKey: field(form, "idempotencyKey"),
    }),
  );
}

export async function blockAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return run(field(form, "objectId"), () =>
    // Made at once, or proposed when the approval policy gives it to a second person (issue 42); in the case chosen, if any.
    submitMake("block.create", {
      caseId: field(form, "caseId"),
      objectId: field(form, "objectId"),
      from: field(form, "from"),
      to: field(form, "to"),
      prohibitions: form.getAll("prohibitions").map(String),
      reason: field(form, "reason"),
      idempotencyKey: field(form, "idempotencyKey"),
    }),
  );
}

export async function unblockAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return run(field(form, "objectId"), () =>
    // Lifted at once, or proposed when the approval policy gives it to a second person (issue 42).
    submitLift("block.lift", {
      blockId: field(form, "blockId"),
      blockRequestId: field(form, "blockRequestId"),
      reason: field(form, "reason"),
    }),
  );
}

export async function changeBlockAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return run(field(form, "objectId"), () =>
    changeBlock({
      blockId: field(form, "blockId"),
      blockRequestId: field(form, "blockRequestId"),
      from: field(form, "from"),
      to: field(form, "to"),
      prohibitions: form.getAll("prohibitions").map(String),
      reason: field(form, "reason"),
    }),
  );
}
