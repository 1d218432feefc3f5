"use client";

import { type ReactNode, startTransition, useActionState, useEffect, useRef } from "react";
import type { ActionResult } from "@/lib/actions/result";

type FormAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

interface ActionFormProps {
  action: FormAction;
  /** Asked before submitting; the change happens only when the person confirms. */
  confirm?: string;
  className?: string;
  children: ReactNode;
}

/**
 * A form bound to a server action, showing the action's message or error beside it. What was typed
 * stays when the server refuses it (a form action alone would reset every field afterwards); the
 * fields start afresh after a change that was made. Without JavaScript the form still posts to the
 * action.
 */
export function ActionForm({ action, confirm, className, children }: ActionFormProps) {
  const [result, formAction, pending] = useActionState(action, null);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (result?.ok) form.current?.reset();
  }, [result]);
  return (
    <form
      ref={form}
      action={formAction}
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        if (confirm && !window.confirm(confirm)) return;
        const data = new FormData(event.currentTarget);
        startTransition(() => formAction(data));
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
