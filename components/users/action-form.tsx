"use client";

import { type ReactNode, useActionState } from "react";
import type { ActionResult } from "@/lib/actions/result";

type FormAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

interface ActionFormProps {
  action: FormAction;
  /** Asked before submitting; the change happens only when the person confirms. */
  confirm?: string;
  className?: string;
  children: ReactNode;
}

/** A form bound to a server action, showing the action's message or error beside it. */
export function ActionForm({ action, confirm, className, children }: ActionFormProps) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <form
      action={formAction}
      className={className}
      onSubmit={(event) => {
        if (confirm && !window.confirm(confirm)) event.preventDefault();
      }}
    >
      <fieldset disabled={pending} className="plain">
        {children}
      </fieldset>
      <ActionMessage result={result} />
    </form>
  );
}

/** What a server action answered: its message, or its error as an alert. */
export function ActionMessage({ result }: { result: ActionResult<unknown> | null }) {
  if (!result) return null;
  return (
    <p className={result.ok ? "form-ok" : "form-error"} role={result.ok ? "status" : "alert"}>
      {result.ok ? result.message : result.error}
    </p>
  );
}
