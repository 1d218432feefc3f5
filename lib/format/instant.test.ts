import { describe, expect, it } from "vitest";
import { consoleFormat, formatInstant, formatNumber } from "./instant";

describe("formatInstant", () => {
  it("writes English in ISO order with the zone's abbreviation", () => {
    expect(formatInstant("2026-11-22T13:05:00Z", "en", "Europe/Prague")).toBe("2026-11-22 14:05 CET");
    expect(formatInstant("2026-07-01T08:00:00Z", "en", "Europe/Prague")).toBe("2026-07-01 10:00 CEST");
  });

  it("writes Czech as Czechs do, with the Czech zone name", () => {
    expect(formatInstant("2026-11-22T13:05:00Z", "cs", "Europe/Prague")).toBe("22. 11. 2026 14:05 SEČ");
    expect(formatInstant(new Date("2026-07-01T08:00:00Z"), "cs", "Europe/Prague")).toBe("1. 7. 2026 10:00 SELČ");
  });

  it("uses the zone it is given, midnight as 00", () => {
    expect(formatInstant("2026-11-22T23:00:00Z", "en", "UTC")).toBe("2026-11-22 23:00 UTC");
    expect(formatInstant("2026-11-22T23:00:00Z", "cs", "Europe/Prague")).toBe("23. 11. 2026 00:00 SEČ");
  });
});

describe("formatNumber", () => {
  it("groups digits per language", () => {
    expect(formatNumber(1234567, "en")).toBe("1,234,567");
    // Czech groups with a no-break space.
    expect(formatNumber(1234567, "cs")).toBe("1\u00a0234\u00a0567");
    expect(consoleFormat("cs", "UTC").number(1500.5)).toBe("1\u00a0500,5");
  });
});

describe("formatDay", () => {
  it("keeps English ISO dates and writes Czech ones day first", () => {
    expect(consoleFormat("en", "UTC").day("2027-01-05")).toBe("2027-01-05");
    expect(consoleFormat("cs", "UTC").day("2027-01-05")).toBe("5. 1. 2027");
  });
});
