import { parseSecondFactorCode } from "./second-factor-code";
import { parseThrottledCode } from "./throttled-code";

/**
 * What the sign-in form is told when a sign-in does not happen: next-auth hands the message of an
 * error raised in authorize() or in the signIn callback to the browser as `error=` in the address,
 * so only these codes are ever raised there (lib/auth/options.ts), never an exception's own message
 * (a database's or a library's text). Shared by the server and the form: no server imports.
 */
const SIGN_IN_ERRORS = [
  "CredentialsSignin",
  "AccessDenied",
  /** A single sign-on or directory identity named like a console account not linked to it. */
  "AccountNotLinked",
  "DirectoryUnavailable",
  "NoConsoleGroup",
  "OAuthSignin",
  "OAuthCallback",
  "SecondFactorRequired",
  "SecondFactorWrong",
  "SecondFactorKey",
  "SecondFactorKeyWrong",
  "SecondFactorEither",
  "SecondFactorEitherWrong",
  /** The user name or password holds a NUL, a control character or broken Unicode. */
  "BadBytes",
  /** The console's database did not answer. */
  "Unavailable",
  /** Anything else that went wrong (the cause is in the server's log). */
  "SignInFailed",
] as const;
export type SignInError = (typeof SIGN_IN_ERRORS)[number];

export function isSignInError(code: string): code is SignInError {
  return (SIGN_IN_ERRORS as readonly string[]).includes(code);
}

/** Whether `code` is one the console raises: a fixed one, a throttled one or a second factor's ask. */
export function isSignInCode(code: string): boolean {
  return isSignInError(code) || parseThrottledCode(code) !== null || parseSecondFactorCode(code) !== null;
}
