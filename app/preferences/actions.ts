"use server";

import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import { revalidatePath } from "next/cache";
import { type ActionResult, toActionResult } from "@/lib/actions/result";
import { msg } from "@/lib/i18n/message";
import { changeOwnPassword, setOwnEmail } from "@/lib/users/own-password";
import { endOwnSession } from "@/lib/users/own-sessions";
import { setOwnHiddenColumns, setOwnLanguage } from "@/lib/users/preferences";
import { confirmSecondFactor, removeOwnSecondFactor, renewRecoveryCodes, startSecondFactor } from "@/lib/users/second-factor";
import { addSecurityKey, removeSecurityKey, securityKeyOptions } from "@/lib/users/security-keys";

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

// Where notices of changes to how the person signs in are mailed: with the current password.
export async function setOwnEmailAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(() =>
    setOwnEmail({ email: form.get("email") ?? undefined, currentPassword: form.get("currentPassword") ?? undefined }),
  );
  revalidatePath("/preferences");
  return result;
}

// The person's own sessions: end one (named by its handle; another person's cannot be named).
export async function endOwnSessionAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(() => endOwnSession({ session: form.get("session") ?? undefined }));
  revalidatePath("/preferences");
  return result;
}

// Two-step sign-in on /preferences: start (a new key for the app), then confirm with a code and the
// current password; turning it off and new recovery codes also need the current password.
export async function startSecondFactorAction(_previous: ActionResult | null, _form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(() => startSecondFactor());
  revalidatePath("/preferences");
  return result;
}

export async function confirmSecondFactorAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(async () => {
    const { message } = await confirmSecondFactor({
      code: form.get("code") ?? undefined,
      currentPassword: form.get("currentPassword") ?? undefined,
    });
    return { message };
  });
  // Not revalidated: the page keeps the answer with the recovery codes until the person moves on.
  return result;
}

export async function renewRecoveryCodesAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  // Not revalidated: the answer shows the new codes until the person moves on.
  return toActionResult<undefined>(async () => {
    const { message } = await renewRecoveryCodes({ currentPassword: form.get("currentPassword") ?? undefined });
    return { message };
  });
}

export async function removeOwnSecondFactorAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(() =>
    removeOwnSecondFactor({ currentPassword: form.get("currentPassword") ?? undefined }),
  );
  revalidatePath("/preferences");
  return result;
}

// Security keys on /preferences: the options for the browser's registration, then its answer.
export async function securityKeyOptionsAction(
  _previous: ActionResult<PublicKeyCredentialCreationOptionsJSON> | null,
  _form: FormData,
): Promise<ActionResult<PublicKeyCredentialCreationOptionsJSON>> {
  return toActionResult(async () => ({ message: msg("securityKeys.touch"), data: await securityKeyOptions() }));
}

export async function addSecurityKeyAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(() =>
    addSecurityKey({
      name: form.get("name") ?? undefined,
      response: form.get("response") ?? undefined,
      currentPassword: form.get("currentPassword") ?? undefined,
    }),
  );
  revalidatePath("/preferences");
  return result;
}

export async function removeSecurityKeyAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  const result = await toActionResult<undefined>(() =>
    removeSecurityKey({ keyId: form.get("keyId") ?? undefined, currentPassword: form.get("currentPassword") ?? undefined }),
  );
  revalidatePath("/preferences");
  return result;
}
