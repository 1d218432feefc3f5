import { describe, expect, it } from "vitest";
import {
  DB_INT_MAX,
  hasNul,
  INSTANT_SPAN_YEARS,
  instantBounds,
  isId,
  parseDate,
  parseId,
  parseInstant,
  parseTimestampText,
  percentDecoded,
  readInstant,
} from "./values";

// The rules every id, date, instant and text of a URL or a form passes before SQL.
describe("values read from URLs and forms", () => {
  it("takes row ids from 1 to PostgreSQL's integer maximum, nothing else", () => {
    expect(parseId("1")).toBe(1);
    expect(parseId("0042")).toBe(42);
    expect(parseId("2147483647")).toBe(DB_INT_MAX);
    for (const bad of ["0", "2147483648", "99999999999", "99999999999999", "-1", "1.5", "1e3", " 1", "0x10", "", "12a"])
      expect(parseId(bad), bad).toBeUndefined();
    // A bigint column's ids, when asked for.
    expect(parseId("99999999999999", Number.MAX_SAFE_INTEGER)).toBe(99_999_999_999_999);
    expect(isId(DB_INT_MAX)).toBe(true);
    for (const bad of [0, DB_INT_MAX + 1, 1.5, Number.NaN, "1", null, 99_999_999_999]) expect(isId(bad), String(bad)).toBe(false);
  });

  it("takes only days that are on the calendar", () => {
    expect(parseDate("2028-02-29")).toBe("2028-02-29");
    for (const bad of ["2027-02-29", "2026-13-45", "2026-00-10", "2026-04-31", "0000-01-01", "2026-1-1", "2026-01-01T00:00"])
      expect(parseDate(bad), bad).toBeUndefined();
  });

  it("takes only real instants: calendar days, wall times and offsets that exist", () => {
    expect(parseInstant("2026-11-25T10:00:00.000Z")?.toISOString()).toBe("2026-11-25T10:00:00.000Z");
    expect(parseInstant("2026-11-25T10:00:00+01:00")?.toISOString()).toBe("2026-11-25T09:00:00.000Z");
    expect(parseInstant("2026-11-25T10:00", "Europe/Prague")?.toISOString()).toBe("2026-11-25T09:00:00.000Z");
    for (const bad of [
      "2026-13-45T99:99:99.000Z",
      "2026-02-30T10:00:00Z",
      "2026-01-15T24:00:00Z",
      "2026-01-15T10:60:00Z",
      "2026-01-15T10:00:60Z",
      "2026-01-15T10:00:00+99:99",
      "2026-01-15T24:00",
      "2026-01-15 10:00",
      "yesterday",
    ])
      expect(parseInstant(bad), bad).toBeUndefined();
  });

  it("reads an instant a person gives only within 100 years of now, either way, and says which bounds", () => {
    const now = new Date("2026-11-28T04:00:00Z");
    expect(INSTANT_SPAN_YEARS).toBe(100);
    expect(instantBounds(now)).toEqual({ earliest: new Date("1926-11-28T04:00:00Z"), latest: new Date("2126-11-28T04:00:00Z") });
    expect(readInstant("2026-12-01T10:00", "Europe/Prague", now)).toEqual({ instant: new Date("2026-12-01T09:00:00Z") });
    // The bounds themselves are in.
    expect(readInstant("2126-11-28T04:00:00Z", "UTC", now).instant).toEqual(new Date("2126-11-28T04:00:00Z"));
    expect(readInstant("1926-11-28T04:00:00Z", "UTC", now).instant).toEqual(new Date("1926-11-28T04:00:00Z"));
    for (const far of [
      "9999-12-31",
      "9999-01-01T00:00",
      "2126-11-28T04:00:01Z",
      "1926-11-28T03:59:59Z",
      "0001-01-01",
      "2200-06-01T10:00:00+02:00",
    ])
      expect(readInstant(far, "UTC", now), far).toEqual({
        problem: "tooFar",
        at: parseInstant(far),
        years: 100,
        earliest: new Date("1926-11-28T04:00:00Z"),
        latest: new Date("2126-11-28T04:00:00Z"),
      });
    for (const bad of ["2026-02-30", "yesterday", ""]) expect(readInstant(bad, "UTC", now), bad).toEqual({ problem: "notInstant" });
  });

  it("reads a timestamp as PostgreSQL prints one only when it names a real day and time", () => {
    expect(parseTimestampText("2026-11-25 10:00:00")).toBe("2026-11-25 10:00:00");
    expect(parseTimestampText("2026-11-25 10:00:00.123456")).toBe("2026-11-25 10:00:00.123456");
    for (const bad of ["2026-13-45 99:99:99", "2026-02-30 10:00:00", "2026-11-25 24:00:00", "2026-11-25T10:00:00", "2026-11-25"])
      expect(parseTimestampText(bad), bad).toBeUndefined();
  });

  it("finds NUL characters, which PostgreSQL refuses in text, and %-encoding that is broken", () => {
    expect(hasNul("a\u0000b")).toBe(true);
    expect(hasNul("ab")).toBe(false);
    expect(percentDecoded("%C5%BEluva.cz")).toBe("žluva.cz");
    expect(percentDecoded("a%00b")).toBe("a\u0000b");
    expect(percentDecoded("%E0%A4%A")).toBeNull();
    expect(percentDecoded("100%")).toBeNull();
  });
});
