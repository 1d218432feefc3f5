import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { type Message, msg } from "../actions/message";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./password-limits";

/**
 * What a new password must be, wherever it is set (an admin's form, the command line, the first
 * admin of the embedded database, a person changing their own): at least 12 characters, at most
 * 200, and not guessable. "Guessable" is zxcvbn's estimate (the @zxcvbn-ts packages, shipped in
 * node_modules: nothing is downloaded at run time): it matches the password against the lists of
 * common and breached passwords of @zxcvbn-ts/language-common (about 30,000, from the leaks
 * HaveIBeenPwned and others collected), English words, names and Wikipedia's vocabulary, the
 * user's own name, keyboard walks, sequences, repeats, dates and l33t spellings, and estimates
 * how many guesses an attacker needs. A password below score 3 (fewer than 10^8 guesses:
 * `password1234`, `P@ssw0rd1234`, `qwerty123456`, `jana.novakova2024`) is refused, with a message
 * that says which kind of weakness it is.
 *
 * Only the first 32 characters are estimated (zxcvbn's time grows steeply with length: about
 * 0.3 s at 32 characters in the worst case, seconds at 200). A longer password is at least as
 * hard to guess as its first 32 characters, so this refuses nothing it should accept except a
 * long one whose first 32 characters are themselves weak.
 */

export const MIN_SCORE = 3;
const ESTIMATED_LENGTH = 32;
/** Words of this console anyone would try first. */
const CONTEXT_WORDS = ["registry", "console", "state", "fred"];

let estimator: Promise<ZxcvbnFactory> | undefined;

/** Loaded at the first check, not at start-up: the dictionaries are several megabytes. */
function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([
      import("@zxcvbn-ts/core"),
      import("@zxcvbn-ts/language-common"),
      import("@zxcvbn-ts/language-en"),
    ]);
    return new ZxcvbnFactory({
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...en.dictionary },
      maxLength: ESTIMATED_LENGTH,
    });
  })();
  return estimator;
}

export type PasswordWeakness = "common" | "personal" | "guessable";

/** How guessable a password is: null when it is strong enough. */
export async function passwordWeakness(
  password: string,
  userInputs: readonly (string | null | undefined)[] = [],
): Promise<PasswordWeakness | null> {
  const zxcvbn = await loadEstimator();
  const inputs = [...CONTEXT_WORDS, ...userInputs.filter((input): input is string => !!input && input.length >= 3)];
  const result = zxcvbn.check(password, inputs);
  if (result.score >= MIN_SCORE) return null;
  const dictionaries = new Set(result.sequence.map((match) => ("dictionaryName" in match ? match.dictionaryName : undefined)));
  if (dictionaries.has("passwords-common")) return "common";
  if (dictionaries.has("userInputs")) return "personal";
  return "guessable";
}

/**
 * Why `password` may not be set, or null. `userInputs`: the person's user name and display name,
 * which a password must not be built on.
 */
export async function passwordProblem(password: string, userInputs: readonly (string | null | undefined)[] = []): Promise<Message | null> {
  if (password.length < MIN_PASSWORD_LENGTH) return msg("users.passwordTooShort", { min: MIN_PASSWORD_LENGTH });
  if (password.length > MAX_PASSWORD_LENGTH) return msg("users.passwordTooLong", { max: MAX_PASSWORD_LENGTH });
  const weakness = await passwordWeakness(password, userInputs);
  if (weakness === "common") return msg("users.passwordCommon");
  if (weakness === "personal") return msg("users.passwordPersonal");
  if (weakness === "guessable") return msg("users.passwordGuessable");
  return null;
}
