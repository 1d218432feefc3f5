// An object page's URL parameters: `history=all` and `requests=all` show every row of those tables
// (the page shows the newest otherwise); `case=<id>` chooses the case of its block and request forms
// (opening a case for the object comes back with it). Any other parameter, or another value, is named in a
// notice, as every page names what it did not use. Pure: the page puts the notices into the reader's language.
import { type Message, msg } from "../i18n/message";
import { type Params, readParams } from "../input/params";
import { parseId } from "../input/values";

/** The parameters an object page reads: history and requests take only "all", case a case's number. */
const OBJECT_PAGE_PARAMS = ["history", "requests", "case"] as const;

export interface ObjectPageParams {
  showAllHistory: boolean;
  showAllRequests: boolean;
  /** The case chosen for the forms, if any. */
  caseId: number | null;
  notices: Message[];
}

export function readObjectPageParams(params: Params): ObjectPageParams {
  const notices: Message[] = [];
  const param = readParams(params, notices);
  const all = (name: "history" | "requests"): boolean => {
    const value = param(name);
    if (value === undefined || value === "all") return value === "all";
    notices.push(msg("objectPage.notAll", { name, value: value.slice(0, 40) }));
    return false;
  };
  const showAllHistory = all("history");
  const showAllRequests = all("requests");
  const caseText = param("case");
  const caseId = caseText === undefined ? null : (parseId(caseText) ?? null);
  if (caseText !== undefined && caseId === null) notices.push(msg("objectPage.caseNotId", { value: caseText.slice(0, 40) }));
  const unknown = Object.keys(params).filter((key) => !(OBJECT_PAGE_PARAMS as readonly string[]).includes(key));
  if (unknown.length > 0)
    notices.push(
      msg("objectPage.unknownParameter", {
        names: unknown
          .map((key) => key.replaceAll("\u0000", "").slice(0, 40))
          .slice(0, 5)
          .join(", "),
        count: unknown.length,
      }),
    );
  return { showAllHistory, showAllRequests, caseId, notices };
}
