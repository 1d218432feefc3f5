"use server";

import { revalidatePath } from "next/cache";
import { type ActionResult, toActionResult } from "@/lib/actions/result";
import { type BulkResult, bulkStateChange } from "@/lib/requests/bulk";

/** A bulk dry run or apply from /requests/bulk; the data-access layer checks role and every rule. */
export async function bulkAction(_previous: ActionResult<BulkResult> | null, form: FormData): Promise<ActionResult<BulkResult>> {
  const text = (name: string) => form.get(name) ?? undefined;
  const result = await toActionResult(async () => {
    const outcome = await bulkStateChange({
      names: text("names"),
      filter: text("filter"),
      type: text("type"),
      kind: text("kind"),
      state: text("state"),
      from: text("from"),
      to: text("to"),
      prohibitions: form.getAll("prohibitions").map(String),
      reason: text("reason"),
      apply: text("apply") === "1",
      batchId: text("batchId"),
      caseId: text("caseId") || undefined,
    });
    return { message: outcome.message, data: outcome };
  });
  if (result.ok && result.data?.applied) revalidatePath("/requests");
  return result;
}
