/**
 * How "your password is right, now the second factor" reaches the sign-in form: next-auth hands the
 * message of the error raised in authorize() to the browser as its `error` code, so the code says
 * which factors the person has and, with security keys, carries the challenge the key is to sign
 * (bound to that person, lib/auth/security-keys.ts). A person with an authenticator app only gets
 * the plain "SecondFactorRequired" / "SecondFactorWrong". Shared by the server and the form: no
 * server imports.
 */

export interface SecondFactorAsk {
  /** Asked for the first time, or the last answer was refused. */
  state: "required" | "wrong";
  /** A code from an authenticator app (or a recovery code) is accepted. */
  totp: boolean;
  /** A security key is accepted: the challenge it signs. */
  keyChallenge: string | null;
}

export function secondFactorCode(ask: SecondFactorAsk): string {
  const state = ask.state === "required" ? "Required" : "Wrong";
  if (!ask.keyChallenge) return `SecondFactor${state}`;
  return `SecondFactor${state}:${ask.totp ? "both" : "key"}:${ask.keyChallenge}`;
}

/** What the form asks for after `code`; null when the code is about something else. */
export function parseSecondFactorCode(code: string): SecondFactorAsk | null {
  if (code === "SecondFactorRequired") return { state: "required", totp: true, keyChallenge: null };
  if (code === "SecondFactorWrong") return { state: "wrong", totp: true, keyChallenge: null };
  const match = /^SecondFactor(Required|Wrong):(key|both):([A-Za-z0-9_-]{20,200})$/.exec(code);
  if (!match) return null;
  return { state: match[1] === "Required" ? "required" : "wrong", totp: match[2] === "both", keyChallenge: match[3] };
}
