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
  /** The ids of the person's keys (base64url), for the browser to ask for. */
  keyIds: string[];
}

export function secondFactorCode(ask: SecondFactorAsk): string {
  const state = ask.state === "required" ? "Required" : "Wrong";
  if (!ask.keyChallenge) return `SecondFactor${state}`;
  return `SecondFactor${state}:${ask.totp ? "both" : "key"}:${ask.keyChallenge}:${ask.keyIds.join(".")}`;
}

/** What the form asks for after `code`; null when the code is about something else. */
export function parseSecondFactorCode(code: string): SecondFactorAsk | null {
  if (code === "SecondFactorRequired") return { state: "required", totp: true, keyChallenge: null, keyIds: [] };
  if (code === "SecondFactorWrong") return { state: "wrong", totp: true, keyChallenge: null, keyIds: [] };
  const match = /^SecondFactor(Required|Wrong):(key|both):([A-Za-z0-9_-]{20,200}):([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)$/.exec(code);
  if (!match) return null;
  return {
    state: match[1] === "Required" ? "required" : "wrong",
    totp: match[2] === "both",
    keyChallenge: match[3],
    keyIds: match[4].split("."),
  };
}

/**
 * Why the browser gave no security key's answer: this page is not where the console's keys are valid
 * (another host name, an IP address, plain HTTP), or anything else (cancelled, timed out, no key).
 */
export function keyRefusal(error: unknown): "keyWrongSite" | "keyCancelled" {
  const { name, code } = (error ?? {}) as { name?: string; code?: string };
  return name === "SecurityError" || code === "ERROR_INVALID_DOMAIN" || code === "ERROR_INVALID_RP_ID" ? "keyWrongSite" : "keyCancelled";
}
