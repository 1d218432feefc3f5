"use client";

import { browserSupportsWebAuthn, startAuthentication } from "@simplewebauthn/browser";
import { signIn } from "next-auth/react";
import { type FormEvent, useRef, useState } from "react";
import { keyRefusal, parseSecondFactorCode, type SecondFactorAsk } from "@/lib/auth/second-factor-code";
import { isSignInError, type SignInError } from "@/lib/auth/sign-in-errors";
import { parseThrottledCode } from "@/lib/auth/throttled-code";
import { useTranslations } from "@/lib/i18n/client";

type KnownError = Exclude<SignInError, "SignInFailed">;

/** The sign-in errors that have a message of their own; others (SignInFailed, codes of older servers) get a general one. */
function isKnownError(code: string): code is KnownError {
  return isSignInError(code) && code !== "SignInFailed";
}

/** The message of a second factor's ask: which factors the person has, asked first or again. */
function askMessage(ask: SecondFactorAsk): KnownError {
  const wrong = ask.state === "wrong";
  if (!ask.keyChallenge) return wrong ? "SecondFactorWrong" : "SecondFactorRequired";
  if (ask.totp) return wrong ? "SecondFactorEitherWrong" : "SecondFactorEither";
  return wrong ? "SecondFactorKeyWrong" : "SecondFactorKey";
}

/** What the form says for an error code: a throttled sign-in says which limit and how long to wait. */
function useErrorText(rpId: string): (code: string) => string {
  const t = useTranslations("auth.signIn");
  return (code) => {
    // The browser's own refusals of a security key (no server code).
    if (code === "keyCancelled") return t("keyCancelled");
    if (code === "keyUnsupported") return t("keyUnsupported");
    if (code === "keyWrongSite") return t("keyWrongSite", { rpId });
    const ask = parseSecondFactorCode(code);
    if (ask) return t(`errors.${askMessage(ask)}`);
    const throttled = parseThrottledCode(code);
    if (throttled) {
      const { seconds, scope } = throttled;
      const wait = seconds <= 90 ? t("wait.seconds", { count: seconds }) : t("wait.minutes", { count: Math.ceil(seconds / 60) });
      return t(`errors.throttled.${scope}`, { wait });
    }
    return isKnownError(code) ? t(`errors.${code}`) : t("errors.other");
  };
}

export function SignInForm({
  callbackUrl,
  initialError,
  ssoName,
  rpId,
}: {
  callbackUrl: string;
  initialError?: string;
  ssoName?: string;
  /** Where security keys are valid (lib/config.ts). */
  rpId: string;
}) {
  const t = useTranslations("auth.signIn");
  const errorText = useErrorText(rpId);
  // The error's code, translated when shown (the page's language may change while it is shown).
  const [error, setError] = useState<string | null>(initialError || null);
  const [pending, setPending] = useState(false);
  // Asked once the password was right and the account has a second factor: which ones it has.
  const [ask, setAsk] = useState<SecondFactorAsk | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  async function send(second: { code?: string; assertion?: string }) {
    const form = new FormData(formRef.current ?? undefined);
    setPending(true);
    setError(null);
    const result = await signIn("credentials", {
      username: String(form.get("username") ?? ""),
      password: String(form.get("password") ?? ""),
      code: second.code ?? "",
      assertion: second.assertion ?? "",
      redirect: false,
    });
    setPending(false);
    if (!result || result.error) {
      const asked = parseSecondFactorCode(result?.error ?? "");
      if (asked) setAsk(asked);
      setError(result?.error ?? "");
      return;
    }
    // A full navigation, not router.replace: the client router may hold a prefetch of the target
    // made before sign-in (a redirect back to this page), and every cached view predates the session.
    window.location.assign(callbackUrl);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void send({ code: String(new FormData(event.currentTarget).get("code") ?? "") });
  }

  // One of the person's keys (the password step named them) signs the challenge it gave.
  async function signInWithKey(challenge: string, ids: string[]) {
    if (!browserSupportsWebAuthn()) return setError("keyUnsupported");
    setPending(true);
    setError(null);
    let answer: unknown;
    try {
      answer = await startAuthentication({
        optionsJSON: {
          challenge,
          rpId,
          allowCredentials: ids.map((id) => ({ id, type: "public-key" as const })),
          userVerification: "discouraged",
          timeout: 300_000,
        },
      });
    } catch (error) {
      setPending(false);
      return setError(keyRefusal(error));
    }
    await send({ assertion: JSON.stringify(answer) });
  }

  return (
    <form className="sign-in" onSubmit={onSubmit} ref={formRef}>
      <label>
        {t("username")}
        <input name="username" autoComplete="username" required maxLength={200} />
      </label>
      <label>
        {t("password")}
        <input name="password" type="password" autoComplete="current-password" required maxLength={200} />
      </label>
      {ask?.totp && (
        <label>
          {t("code")}
          <input
            name="code"
            inputMode="text"
            autoComplete="one-time-code"
            required
            maxLength={40}
            // biome-ignore lint/a11y/noAutofocus: the code is what the person types next, right after the password was accepted
            autoFocus={!ask.keyChallenge}
          />
          <span className="muted">{t("codeHint")}</span>
        </label>
      )}
      {error !== null && (
        <p className="form-error" role="alert">
          {errorText(error)}
        </p>
      )}
      {ask?.keyChallenge && (
        <button type="button" onClick={() => ask.keyChallenge && void signInWithKey(ask.keyChallenge, ask.keyIds)} disabled={pending}>
          {pending ? t("keyPending") : t("useKey")}
        </button>
      )}
      {/* With a security key only, the key is the way on; "Sign in" asks again (a new challenge). */}
      <button type="submit" disabled={pending} className={ask?.keyChallenge && !ask.totp ? "secondary" : undefined}>
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
