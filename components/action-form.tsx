"use client";

import { createContext, type ReactNode, startTransition, useActionState, useContext, useEffect, useRef, useState } from "react";
import type { ActionResult } from "@/lib/actions/result";

type FormAction = (previous: ActionResult | null, form: FormData) => Promise<ActionResult>;

interface ActionFormProps {
  action: FormAction;
  /**
   * Asked before submitting; the change happens only when the person confirms. A function reads
   * the form's values (what the change would do); null: nothing to ask, the server answers.
   */
  confirm?: string | ((data: FormData) => string | null);
  className?: string;
  children: ReactNode;
}

/** Where a form inside ActionNotices says that its change was made. */
const NoticeContext = createContext<((message: string) => void) | null>(null);

/**
 * A confirmation notice for the forms inside it: a change's message stays here, above them, even
 * when the change takes its form off the page (a canceled request's row, a lifted block's form).
 */
export function ActionNotices({ placement = "before", children }: { placement?: "before" | "after"; children: ReactNode }) {
  const [notice, setNotice] = useState<{ message: string; count: number } | null>(null);
  const shown = notice && (
    <p key={notice.count} className="action-notice form-ok" role="status">
      {notice.message}
    </p>
  );
  return (
    <NoticeContext value={(message) => setNotice((n) => ({ message, count: (n?.count ?? 0) + 1 }))}>
      {placement === "before" && shown}
      {children}
      {placement === "after" && shown}
    </NoticeContext>
  );
}

/**
 * A form bound to a server action, showing the action's message or error beside it (inside
 * ActionNotices, a change made is said in its notice). What was typed stays when the server
 * refuses it (a form action alone would reset every field afterwards); the fields start afresh
 * after a change that was made. Without JavaScript the form still posts to the action.
 */
export function ActionForm({ action, confirm, className, children }: ActionFormProps) {
  const announce = useContext(NoticeContext);
  const [result, formAction, pending] = useActionState(async (previous: ActionResult | null, data: FormData) => {
    const answer = await action(previous, data);
    // Said where it stays: this form may be gone once the page shows the change.
    if (answer.ok && announce) announce(answer.message);
    return answer;
  }, null);
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
        const data = new FormData(event.currentTarget);
        const question = typeof confirm === "function" ? confirm(data) : confirm;
        if (question && !window.confirm(question)) return;
        startTransition(() => formAction(data));
      }}
    >
      <fieldset disabled={pending} className="plain">
        {children}
      </fieldset>
      <ActionMessage result={result?.ok && announce ? null : result} />
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
