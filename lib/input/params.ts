// A page's URL parameters as its data-access function reads them: the first value of each, trimmed.
// A value that can be no name, id or date (it holds a NUL character) is named in a notice and not
// used, so no page passes one on to SQL. Values themselves are parsed with ./values.
import { type Message, msg } from "../i18n/message";
import { hasNul } from "./values";

export type Params = Record<string, string | string[] | undefined>;

/** Reads one parameter: its first value trimmed, undefined when absent, empty or unusable. */
export type ParamReader = {
  (key: string): string | undefined;
  /** Every value of a repeated parameter (a form's checkboxes), trimmed, empty ones dropped. */
  all(key: string): string[];
};

/** A reader of `params` that adds a notice to `notices` for each parameter it cannot use (once per parameter). */
export function readParams(params: Params, notices: Message[]): ParamReader {
  const reported = new Set<string>();
  const usable = (key: string, value: string): boolean => {
    if (!hasNul(value)) return true;
    if (!reported.has(key)) {
      reported.add(key);
      notices.push(msg("params.nul", { name: key.replaceAll("\u0000", "").slice(0, 40) }));
    }
    return false;
  };
  const values = (key: string): string[] => [params[key] ?? []].flat();
  const read = ((key: string) => {
    const [first] = values(key);
    if (first === undefined || !usable(key, first)) return undefined;
    return first.trim() || undefined;
  }) as ParamReader;
  read.all = (key) =>
    values(key)
      .filter((value) => usable(key, value))
      .map((value) => value.trim())
      .filter(Boolean);
  return read;
}
