import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { consoleFormat, formatInstant, formatInstantIntl, formatNumber, wallPeriodEnd, wallTime, zonedTimeToInstant } from "./instant";

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

describe("formatInstant's per-day shortcut", () => {
  const zones = [
    "Europe/Prague",
    "America/New_York",
    "Australia/Lord_Howe",
    "Asia/Kathmandu",
    "America/St_Johns",
    "Pacific/Chatham",
    "UTC",
  ];
  const locales = ["en", "cs"] as const;

  it("writes exactly what Intl writes, across changes of summer time (every 7 minutes around them)", () => {
    const differences: string[] = [];
    for (const zone of zones)
      for (const [from, to] of [
        ["2026-03-20", "2026-04-10"],
        ["2026-09-20", "2026-11-08"],
      ]) {
        for (let t = Date.parse(`${from}T00:00:00Z`); t < Date.parse(`${to}T00:00:00Z`); t += 7 * 60_000 + 13_000)
          for (const locale of locales) {
            const fast = formatInstant(new Date(t), locale, zone);
            const exact = formatInstantIntl(new Date(t), locale, zone);
            if (fast !== exact) differences.push(`${zone} ${locale} ${new Date(t).toISOString()}: ${fast} ≠ ${exact}`);
          }
      }
    expect(differences.slice(0, 5)).toEqual([]);
  });

  it("writes exactly what Intl writes for any instant since 1970 and before (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse("1900-01-01T00:00:00Z"), max: Date.parse("2100-01-01T00:00:00Z") }),
        fc.constantFrom(...zones),
        fc.constantFrom(...locales),
        (t, zone, locale) => formatInstant(new Date(t).toISOString(), locale, zone) === formatInstantIntl(new Date(t), locale, zone),
      ),
      { numRuns: 3000 },
    );
  });
});

describe("wallTime", () => {
  it("writes an instant as the zone's wall time, seconds included, across summer time", () => {
    expect(wallTime(Date.parse("2026-11-24T15:30:45.999Z"), "Europe/Prague")).toBe("2026-11-24T16:30:45");
    expect(wallTime(Date.parse("2026-07-01T08:00:00Z"), "Europe/Prague")).toBe("2026-07-01T10:00:00");
    expect(wallTime(Date.parse("2026-03-29T00:59:59Z"), "Europe/Prague")).toBe("2026-03-29T01:59:59");
    expect(wallTime(Date.parse("2026-03-29T01:00:00Z"), "Europe/Prague")).toBe("2026-03-29T03:00:00");
    expect(wallTime(Date.parse("2026-11-24T15:30:00Z"), "UTC")).toBe("2026-11-24T15:30:00");
  });
});

describe("wallPeriodEnd", () => {
  it("counts whole calendar days at the same wall time, and ends a month at the next one's first instant", () => {
    expect(wallPeriodEnd("days7", "2026-11-29T10:00")).toBe("2026-12-06T10:00");
    // Over the end of daylight saving time (2026-10-25 in Prague) the wall hour stays.
    expect(wallPeriodEnd("days7", "2026-10-22T10:30")).toBe("2026-10-29T10:30");
    expect(wallPeriodEnd("days30", "2026-12-15T08:00")).toBe("2027-01-14T08:00");
    expect(wallPeriodEnd("monthEnd", "2026-11-29T10:00")).toBe("2026-12-01T00:00");
    expect(wallPeriodEnd("monthEnd", "2026-12-31T23:59")).toBe("2027-01-01T00:00");
    expect(wallPeriodEnd("days7", "2028-02-25T00:00")).toBe("2028-03-03T00:00");
  });
});

describe("zonedTimeToInstant", () => {
  it("reads a wall time of the zone back as the instant wallTime wrote", () => {
    for (const iso of [
      "2026-11-29T09:00:00Z",
      "2026-07-01T22:30:00Z",
      "2026-03-29T00:59:00Z",
      "2026-03-29T01:00:00Z",
      "2026-10-25T02:00:00Z",
    ])
      expect(zonedTimeToInstant(wallTime(Date.parse(iso), "Europe/Prague"), "Europe/Prague").toISOString()).toBe(
        new Date(iso).toISOString(),
      );
    // The hour the autumn change repeats (02:00-03:00 twice on 2026-10-25): the earlier instant.
    expect(zonedTimeToInstant("2026-10-25T02:30", "Europe/Prague").toISOString()).toBe("2026-10-25T00:30:00.000Z");
  });
});
