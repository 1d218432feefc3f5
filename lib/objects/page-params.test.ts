import { describe, expect, it } from "vitest";
import { english, render } from "../actions/message";
import { readObjectPageParams } from "./page-params";

// An object page's URL: history=all and requests=all; anything else is named, as on every page.
describe("an object page's URL parameters", () => {
  it("shows every row of a table when asked with “all”, with no notice", () => {
    expect(readObjectPageParams({})).toEqual({ showAllHistory: false, showAllRequests: false, caseId: null, notices: [] });
    expect(readObjectPageParams({ history: "all", requests: "all" })).toEqual({
      showAllHistory: true,
      showAllRequests: true,
      caseId: null,
      notices: [],
    });
  });

  it("names a parameter the page does not have, and ignores it", () => {
    const { showAllHistory, notices } = readObjectPageParams({ range: "bogus" });
    expect(showAllHistory).toBe(false);
    expect(notices.map(english)).toEqual(["“range” is not a parameter of this page; it was ignored."]);
    expect(render(notices[0], "cs")).toBe("„range“ není parametrem této stránky; byl přeskočen.");
    expect(readObjectPageParams({ range: "month", zoom: "x", history: "all" }).notices.map(english)).toEqual([
      "“range, zoom” are not parameters of this page; they were ignored.",
    ]);
  });

  it("names a value other than “all”, and shows the newest rows", () => {
    const { showAllHistory, showAllRequests, notices } = readObjectPageParams({ history: "everything", requests: ["all", "x"] });
    expect({ showAllHistory, showAllRequests }).toEqual({ showAllHistory: false, showAllRequests: true });
    expect(notices.map(english)).toEqual([
      "“history=everything” is not a choice of this page (history=all shows every row); showing the newest rows.",
    ]);
    expect(readObjectPageParams({ history: "a\u0000" }).notices.map(english)).toEqual([
      "“history” in the address holds a NUL character (%00), which no name, id or date has; it was left out.",
    ]);
  });

  it("chooses the case of the page's forms by its number, and names one that is not a number", () => {
    expect(readObjectPageParams({ case: "42" })).toMatchObject({ caseId: 42, notices: [] });
    const { caseId, notices } = readObjectPageParams({ case: "4x" });
    expect(caseId).toBeNull();
    expect(notices.map(english)).toEqual(["“case=4x” is not a case's number; no case is chosen."]);
    expect(render(notices[0], "cs")).toBe("„case=4x“ není číslo případu; žádný případ není zvolen.");
    expect(readObjectPageParams({ case: "0" }).caseId).toBeNull();
  });
});
