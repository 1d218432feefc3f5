"use server";

import { type ActionResult, toActionResult } from "@/lib/actions/result";
import { setOwnLanguage } from "@/lib/users/preferences";

// The language switch in the header, for signed-in people; the data-access layer checks the session.
export async function setLanguageAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return toActionResult<undefined>(() => setOwnLanguage({ locale: form.get("locale") ?? undefined }));
}
