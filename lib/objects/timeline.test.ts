import { describe, expect, it } from "vitest";
import { timelineRange } from "./timeline";

const DAY = 86_400_000;
const at = (iso: string) => Date.parse(iso);

describe("timelineRange", () => {
  const now = at("2026-11-26T12:00:00Z");
  const created = at("2017-03-01T00:00:00Z");

  it("spans an object's bars, not its whole life, for 'all'", () => {
    const bars = [
      { from: "2026-09-20T00:00:00Z", to: "2026-10-20T00:00:00Z" },
      { from: "2026-10-01T00:00:00Z", to: null },
    ];
    const [start, end] = timelineRange("all", now, created, bars);
    // From about the first bar (a week's margin), not from 2017; to now plus the margin.
    expect(start).toBe(at("2026-09-13T00:00:00Z"));
    expect(end).toBe(now + 7 * DAY);
    // The two months take most of the axis.
    expect((at("2026-11-26T12:00:00Z") - at("2026-09-20T00:00:00Z")) / (end - start)).toBeGreaterThan(0.8);
  });

  it("keeps a margin of a twentieth of a long span, and spans from creation with no bars", () => {
    const bars = [{ from: "2018-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z" }];
    const [start, end] = timelineRange("all", now, created, bars);
    const span = at("2027-01-01T00:00:00Z") - at("2018-01-01T00:00:00Z");
    expect(start).toBe(at("2018-01-01T00:00:00Z") - span * 0.05);
    expect(end).toBe(at("2027-01-01T00:00:00Z") + span * 0.05);
    expect(timelineRange("all", now, created, [])).toEqual([created - (now - created) * 0.05, now + (now - created) * 0.05]);
  });

  it("shows a month back and a week ahead, or a year back and two months ahead", () => {
    expect(timelineRange("month", now, created, [])).toEqual([now - 31 * DAY, now + 7 * DAY]);
    expect(timelineRange("year", now, created, [])).toEqual([now - 365 * DAY, now + 60 * DAY]);
  });
});
