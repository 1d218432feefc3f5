"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/actions/result";
import { ActionMessage } from "../users/action-form";

type CreateAction = (previous: ActionResult<{ token: string }> | null, form: FormData) => Promise<ActionResult<{ token: string }>>;

/** Names a new feed client and shows its token once. */
export function NewTokenForm({ action }: { action: CreateAction }) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} aria-label="New API token">
      <fieldset disabled={pending} className="plain">
        <label>
          Client name <input name="name" required maxLength={100} placeholder="zone generator" />
        </label>{" "}
        <button type="submit">Create token</button>
      </fieldset>
      <ActionMessage result={result} />
      {result?.ok && result.data && (
        <p>
          <code className="token">{result.data.token}</code>
        </p>
      )}
    </form>
  );
}
