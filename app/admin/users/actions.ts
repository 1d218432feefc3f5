"use server";

import { revalidatePath } from "next/cache";
import { type ActionResult, type Text, toActionResult } from "@/lib/actions/result";
import { allowAccountLink, createUser, disableUser, enableUser, forceSignOut, setUserPassword, setUserRole } from "@/lib/users/admin";
import { resetSecondFactor } from "@/lib/users/second-factor";

// Form posts from /admin/users. Each one goes through the data-access layer, which checks the
// caller's session and role, validates the input and audits the outcome.

async function run(work: () => Promise<{ message: Text }>): Promise<ActionResult> {
  const result = await toActionResult<undefined>(work);
  if (result.ok) revalidatePath("/admin/users");
  return result;
}

const field = (form: FormData, name: string) => form.get(name) ?? undefined;

export async function createUserAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return run(() =>
    createUser({
      username: field(form, "username"),
      displayName: field(form, "displayName"),
      role: field(form, "role"),
      password: field(form, "password"),
    }),
  );
}

export async function setUserRoleAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return run(() => setUserRole({ userId: field(form, "userId"), role: field(form, "role") }));
}

export async function disableUserAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return run(() => disableUser({ userId: field(form, "userId") }));
}

export async function enableUserAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return run(() => enableUser({ userId: field(form, "userId") }));
}

export async function forceSignOutAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return run(() => forceSignOut({ userId: field(form, "userId") }));
}

export async function setUserPasswordAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return run(() => setUserPassword({ userId: field(form, "userId"), password: field(form, "password") }));
}

export async function resetSecondFactorAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return run(() => resetSecondFactor({ userId: field(form, "userId") }));
}

export async function allowAccountLinkAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult> {
  return run(() => allowAccountLink({ userId: field(form, "userId"), allow: field(form, "allow") }));
}
