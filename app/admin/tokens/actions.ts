"use server";

import { revalidatePath } from "next/cache";
import { type ActionResult, toActionResult } from "@/lib/actions/result";
import { createApiToken, revokeApiToken } from "@/lib/tokens";

// Form posts from /admin/tokens; the data-access layer checks the caller's role and audits.

export async function createApiTokenAction(
  _previous: ActionResult<{ token: string }> | null,
  form: FormData,
): Promise<ActionResult<{ token: string }>> {
  const result = await toActionResult(async () => {
    const { message, token } = await createApiToken({ name: form.get("name") ?? undefined });
    return { message, data: { token } };
  });
  if (result.ok) revalidatePath("/admin/tokens");
  return result;
}

export async function revokeApiTokenAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(() => revokeApiToken({ tokenId: form.get("tokenId") ?? undefined }));
  if (result.ok) revalidatePath("/admin/tokens");
  return result;
}
