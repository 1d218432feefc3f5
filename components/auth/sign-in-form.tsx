"use client";

import { signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";

const MESSAGES: Record<string, string> = {
  CredentialsSignin: "Sign-in failed: the user name or password is wrong, or the account is disabled.",
  Throttled: "Too many failed sign-ins for this user name. Wait a minute, then try again.",
  AccessDenied: "Your single sign-on account has no access to this console. Ask an administrator.",
};

export function SignInForm({ callbackUrl, initialError, ssoName }: { callbackUrl: string; initialError?: string; ssoName?: string }) {
  const [error, setError] = useState(initialError ? (MESSAGES[initialError] ?? "Sign-in failed. Try again.") : "");
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError("");
    const result = await signIn("credentials", {
      username: String(form.get("username") ?? ""),
      password: String(form.get("password") ?? ""),
      redirect: false,
    });
    setPending(false);
    if (!result || result.error) {
      setError(MESSAGES[result?.error ?? ""] ?? "Sign-in failed. Try again.");
      return;
    }
    // A full navigation, not router.replace: the client router may hold a prefetch of the target
    // made before sign-in (a redirect back to this page), and every cached view predates the session.
    window.location.assign(callbackUrl);
  }

  return (
    <form className="sign-in" onSubmit={onSubmit}>
      <label>
        User name
        <input name="username" autoComplete="username" required maxLength={200} />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required maxLength={200} />
      </label>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
      {ssoName && (
        <button type="button" className="secondary" onClick={() => signIn("oidc", { callbackUrl })}>
          Sign in with {ssoName}
        </button>
      )}
    </form>
  );
}
