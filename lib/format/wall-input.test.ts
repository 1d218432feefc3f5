import { describe, expect, it } from "vitest";
import { formatWallInput, parseWallInput, wallInputPattern } from "./wall-input";

describe("dates and times typed in the console's language", () => {
  it("writes a wall time as the language does, and reads back what it wrote", () => {
    expect(formatWallInput("2026-11-30T14:05", "en", true)).toBe("2026-11-30 14:05");
    expect(formatWallInput("2026-11-03T04:05", "cs", true)).toBe("3. 11. 2026 04:05");
    expect(formatWallInput("2026-11-03", "cs", false)).toBe("3. 11. 2026");
    expect(formatWallInput("", "en", true)).toBe("");
    for (const locale of ["en", "cs"] as const)
      for (const iso of ["2026-01-01T00:00", "2027-12-31T23:59", "2026-03-29T02:30"])
        expect(parseWallInput(formatWallInput(iso, locale, true), true)).toEqual({ ok: true, iso });
    expect(wallInputPattern("cs", true)).toBe("d. m. rrrr hh:mm");
    expect(wallInputPattern("en", false)).toBe("yyyy-mm-dd");
  });

  it("reads either language's form and the ISO form, in either interface", () => {
    expect(parseWallInput("2026-11-30T14:05", true)).toEqual({ ok: true, iso: "2026-11-30T14:05" });
    expect(parseWallInput(" 2026-11-30 9:05 ", true)).toEqual({ ok: true, iso: "2026-11-30T09:05" });
    expect(parseWallInput("30.11.2026 14:05", true)).toEqual({ ok: true, iso: "2026-11-30T14:05" });
    expect(parseWallInput("30. 11. 2026", true)).toEqual({ ok: true, iso: "2026-11-30T00:00" });
    expect(parseWallInput("30. 11. 2026", false)).toEqual({ ok: true, iso: "2026-11-30" });
    expect(parseWallInput("", true)).toEqual({ ok: true, iso: "" });
  });

  it("refuses what is half typed or not a real day or time, so that nothing is sent as 'now'", () => {
    expect(parseWallInput("2026-11-3", true)).toEqual({ ok: true, iso: "2026-11-03T00:00" });
    for (const half of ["2026-11", "30. 11.", "2026-11-30 14", "2026-11-30 14:", "11/30/2026 02:05 PM", "tomorrow"])
      expect(parseWallInput(half, true), half).toEqual({ ok: false, problem: "format" });
    expect(parseWallInput("2026-02-30 10:00", true)).toEqual({ ok: false, problem: "date" });
    expect(parseWallInput("31. 4. 2026", true)).toEqual({ ok: false, problem: "date" });
    expect(parseWallInput("2026-13-01", true)).toEqual({ ok: false, problem: "date" });
    expect(parseWallInput("2026-11-30 24:00", true)).toEqual({ ok: false, problem: "time" });
    expect(parseWallInput("2026-11-30 10:60", true)).toEqual({ ok: false, problem: "time" });
    expect(parseWallInput("2026-11-30 10:00", false)).toEqual({ ok: false, problem: "format" });
  });
});
