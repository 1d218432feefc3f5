import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { type Message, msg } from "../i18n/message";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./password-limits";
import { CZECH_WORDS } from "./password-words-cs";

/**
 * What a new password must be, wherever it is set (an admin's form, the command line, the first
 * admin of the embedded database, a person changing their own): at least 12 characters, at most
 * 128, and not guessable. "Guessable" is zxcvbn's estimate (the @zxcvbn-ts packages, shipped in
 * node_modules: nothing is downloaded at run time): it matches the password against the lists of
 * common and breached passwords of @zxcvbn-ts/language-common (about 30,000, from the leaks
 * HaveIBeenPwned and others collected), English words, names and Wikipedia's vocabulary, the
 * user's own names and their parts, the registry's and the console's words, seasons and months
 * (English and Czech), common Czech words and names (password-words-cs.ts), keyboard walks,
 * sequences, repeats, dates and l33t spellings, and estimates how many guesses an attacker needs.
 * A password below score 3 (fewer than 10^8 guesses: `password1234`, `P@ssw0rd1234`,
 * `qwerty123456`) is refused, and so is one that is no more than one or two of those known words
 * with digits, a year and symbols around them (`Summer2024!!`, `Praha2024!!!`, `target.target` for
 * the user target), which zxcvbn scores just above its threshold; the message says which kind of
 * weakness it is.
 *
 * Only the first 32 characters are estimated (zxcvbn's time grows steeply with length: about
 * 0.3 s at 32 characters in the worst case, seconds at 200). A longer password is at least as
 * hard to guess as its first 32 characters, so this refuses nothing it should accept except a
 * long one whose first 32 characters are themselves weak.
 */

const MIN_SCORE = 3;
const ESTIMATED_LENGTH = 32;

/** The registry's and the console's own words, which anyone would try first (docs/sign-in.md "Passwords"). */
const CONTEXT_WORDS = [
  "registry",
  "registr",
  "console",
  "konzole",
  "state",
  "states",
  "fred",
  "cznic",
  "nic",
  "cz",
  "domain",
  "domains",
  "domena",
  "domeny",
  "registrar",
  "whois",
  "epp",
  "dns",
  "admin",
  "administrator",
  "support",
  "operator",
  "password",
];

/** Seasons and months, English and Czech: with a year, the most tried passwords of all (Summer2024!). */
const SEASON_WORDS = [
  ...["spring", "summer", "autumn", "fall", "winter"],
  ...["jaro", "leto", "léto", "podzim", "zima"],
  ...["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"],
  ...["jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"],
  ...["leden", "unor", "únor", "brezen", "březen", "duben", "kveten", "květen", "cerven", "červen", "cervenec", "červenec"],
  ...["srpen", "zari", "září", "rijen", "říjen", "listopad", "prosinec"],
];

/** Lower case without diacritics: "Nováková" → "novakova". */
const plain = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();

/** Each word and its plain-letter form, once. */
const withPlainForms = (words: readonly string[]) => [...new Set(words.flatMap((w) => [w.toLowerCase(), plain(w)]))];

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
      dictionary: {
        ...common.dictionary,
        ...en.dictionary,
        "seasons-months": withPlainForms(SEASON_WORDS),
        "czech-words": withPlainForms(CZECH_WORDS),
      },
      maxLength: ESTIMATED_LENGTH,
    });
  })();
  return estimator;
}

/**
 * The personal words of a password's owner: each user input (user name, display name) whole and in
 * its parts (split on spaces and . _ @ -), with and without diacritics; and the words of the
 * console's own address (NEXTAUTH_URL's host name, such as console.registry.cz).
 */
function personalWords(userInputs: readonly (string | null | undefined)[], env: Record<string, string | undefined> = process.env) {
  let host: string[] = [];
  try {
    host = env.NEXTAUTH_URL ? new URL(env.NEXTAUTH_URL).hostname.split(".") : [];
  } catch {}
  const words = userInputs
    .filter((input): input is string => !!input)
    .flatMap((input) => [input, ...input.split(/[\s._@-]+/)])
    .concat(host.filter((label) => !/^\d+$/.test(label)));
  return withPlainForms(words).filter((word) => word.length >= 2);
}

/** Years (1900–2099), short digit runs (a date, 123, 2024) and everything but letters and digits: what people add to a word. */
const DECORATION = /(19|20)\d\d|\d{1,6}|[^\p{L}\p{N}]+/gu;
/** The l33t spellings people use for letters (p4ssw0rd). */
const L33T: Record<string, string> = { "4": "a", "@": "a", "3": "e", "1": "i", "!": "i", "0": "o", "5": "s", $: "s", "7": "t", "8": "b" };

/**
 * Whether the password is no more than one or two known words (personal, the console's own,
 * seasons and months, Czech words), repeated or not, decorated with digits, years and symbols:
 * `target.target`, `Summer2024!!`, `Praha2024!!!`, `Heslo12345!!`, `T4rget2024`. zxcvbn scores some of
 * these just above its threshold (a known word and six characters it takes as random); this refuses
 * them. What it returns: which kind of word the password is built on, or null.
 */
function decoratedWord(password: string, personal: readonly string[]): "personal" | "guessable" | null {
  const known = [
    ...personal.map((word) => ({ word, personal: true })),
    ...CONTEXT_WORDS.map((word) => ({ word, personal: true })),
    ...withPlainForms([...SEASON_WORDS, ...CZECH_WORDS])
      .filter((word) => word.length >= 3)
      .map((word) => ({ word, personal: false })),
  ].sort((a, b) => b.word.length - a.word.length);
  const lower = plain(password).split("");
  // The words are looked for in the password as typed and in its l33t reading; what is left is
  // read as typed (a 4 the l33t reading took for an "a" of a word is part of that word, the other
  // digits stay digits).
  for (const spelling of [lower.join(""), lower.map((c) => L33T[c] ?? c).join("")]) {
    const covered = lower.map(() => false);
    const found = new Map<string, boolean>();
    for (const { word, personal } of known) {
      const w = plain(word);
      for (let at = spelling.indexOf(w); at >= 0; at = spelling.indexOf(w, at + 1)) {
        if (covered.slice(at, at + w.length).some(Boolean)) continue;
        covered.fill(true, at, at + w.length);
        found.set(w, personal || (found.get(w) ?? false));
      }
    }
    const left = lower
      .map((c, i) => (covered[i] ? " " : c))
      .join("")
      .replace(DECORATION, "");
    if (found.size > 0 && found.size <= 2 && left.length < 4) return [...found.values()].some(Boolean) ? "personal" : "guessable";
  }
  return null;
}

export type PasswordWeakness = "common" | "personal" | "guessable";

/** How guessable a password is: null when it is strong enough. */
export async function passwordWeakness(
  password: string,
  userInputs: readonly (string | null | undefined)[] = [],
): Promise<PasswordWeakness | null> {
  const zxcvbn = await loadEstimator();
  const personal = personalWords(userInputs);
  const result = zxcvbn.check(password, [...CONTEXT_WORDS, ...personal]);
  const decorated = decoratedWord(password, personal);
  if (result.score >= MIN_SCORE) return decorated;
  const dictionaries = new Set(result.sequence.map((match) => ("dictionaryName" in match ? match.dictionaryName : undefined)));
  if (dictionaries.has("passwords-common")) return "common";
  if (dictionaries.has("userInputs") || decorated === "personal") return "personal";
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
