"use server";

import { type ActionResult, toActionResult } from "@/lib/actions/result";
import { changeOwnPassword } from "@/lib/users/own-password";
import { setOwnHiddenColumns, setOwnLanguage } from "@/lib/users/preferences";

// The signed-in person's own settings; the data-access layer checks the session.

// The language switch in the header.
export async function setLanguageAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return toActionResult<undefined>(() => setOwnLanguage({ locale: form.get("locale") ?? undefined }));
}

// The password form of /preferences: needs the current password; ends the person's other sessions.
export async function changeOwnPasswordAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return toActionResult<undefined>(() =>
    changeOwnPassword({
      currentPassword: form.get("currentPassword") ?? undefined,
      newPassword: form.get("newPassword") ?? undefined,
      confirmPassword: form.get("confirmPassword") ?? undefined,
    }),
  );
}

// A table's column picker: which columns the person hides, kept with their user.
export async function setHiddenColumnsAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return toActionResult<undefined>(async () => {
    const { message } = await setOwnHiddenColumns({ table: form.get("table") ?? undefined, hidden: form.getAll("hidden").map(String) });
    return { message };
  });
}
