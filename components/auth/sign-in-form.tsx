"use client";

import { signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";
import { parseThrottledCode } from "@/lib/auth/throttled-code";
import { useTranslations } from "@/lib/i18n/client";

/** The sign-in errors (next-auth's codes) that have a message of their own; others get a general one. */
const KNOWN_ERRORS = [
  "CredentialsSignin",
  "AccessDenied",
  "DirectoryUnavailable",
  "NoConsoleGroup",
  "OAuthSignin",
  "OAuthCallback",
  "SecondFactorRequired",
  "SecondFactorWrong",
] as const;
type KnownError = (typeof KNOWN_ERRORS)[number];

function isKnownError(code: string): code is KnownError {
  return (KNOWN_ERRORS as readonly string[]).includes(code);
}

/** What the form says for an error code: a throttled sign-in says which limit and how long to wait. */
function useErrorText(): (code: string) => string {
  const t = useTranslations("auth.signIn");
  return (code) => {
    const throttled = parseThrottledCode(code);
    if (throttled) {
      const { seconds, scope } = throttled;
      const wait = seconds <= 90 ? t("wait.seconds", { count: seconds }) : t("wait.minutes", { count: Math.ceil(seconds / 60) });
      return t(`errors.throttled.${scope}`, { wait });
    }
    return isKnownError(code) ? t(`errors.${code}`) : t("errors.other");
  };
}

export function SignInForm({ callbackUrl, initialError, ssoName }: { callbackUrl: string; initialError?: string; ssoName?: string }) {
  const t = useTranslations("auth.signIn");
  const errorText = useErrorText();
  // The error's code, translated when shown (the page's language may change while it is shown).
  const [error, setError] = useState<string | null>(initialError || null);
  const [pending, setPending] = useState(false);
  // Asked once the password was right and the account has a second factor.
  const [askCode, setAskCode] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const result = await signIn("credentials", {
      username: String(form.get("username") ?? ""),
      password: String(form.get("password") ?? ""),
      code: String(form.get("code") ?? ""),
      redirect: false,
    });
    setPending(false);
    if (!result || result.error) {
      if (result?.error === "SecondFactorRequired" || result?.error === "SecondFactorWrong") setAskCode(true);
      setError(result?.error ?? "");
      return;
    }
    // A full navigation, not router.replace: the client router may hold a prefetch of the target
    // made before sign-in (a redirect back to this page), and every cached view predates the session.
    window.location.assign(callbackUrl);
  }

  return (
    <form className="sign-in" onSubmit={onSubmit}>
      <label>
        {t("username")}
        <input name="username" autoComplete="username" required maxLength={200} />
      </label>
      <label>
        {t("password")}
        <input name="password" type="password" autoComplete="current-password" required maxLength={200} />
      </label>
      {askCode && (
        <label>
          {t("code")}
          <input
            name="code"
            inputMode="text"
            autoComplete="one-time-code"
            required
            maxLength={40}
            // biome-ignore lint/a11y/noAutofocus: the code is what the person types next, right after the password was accepted
            autoFocus
          />
          <span className="muted">{t("codeHint")}</span>
        </label>
      )}
      {error !== null && (
        <p className="form-error" role="alert">
          {errorText(error)}
        </p>
      )}
      <button type="submit" disabled={pending}>
        {pending ? t("pending") : t("submit")}
      </button>
      {ssoName && (
        <button type="button" className="secondary" onClick={() => signIn("oidc", { callbackUrl })}>
          {t("withSso", { name: ssoName })}
        </button>
      )}
    </form>
  );
}
