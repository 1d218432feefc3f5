// The object page's timeline: which span of time each zoom shows (pure, shared by the component
// and its tests).

export type Zoom = "month" | "year" | "all";

const DAY = 86_400_000;

/**
 * The span a zoom shows, in ms: a month back and a week ahead, a year back and two months ahead,
 * or all of the object's bars with a margin of a twentieth of their span (at least a week) on each
 * side. "All" spans the bars, not the object's life: an object created in 2017 whose states began
 * two months ago shows those two months, not a decade with them squeezed against its edge. Without
 * any bar it spans from the object's creation to now.
 */
export function timelineRange(zoom: Zoom, now: number, created: number, bars: { from: string; to: string | null }[]): [number, number] {
  if (zoom === "month") return [now - 31 * DAY, now + 7 * DAY];
  if (zoom === "year") return [now - 365 * DAY, now + 60 * DAY];
  const first = bars.length > 0 ? Math.min(...bars.map((b) => Date.parse(b.from))) : created;
  const last = Math.max(now, ...bars.map((b) => Date.parse(b.to ?? b.from)));
  const margin = Math.max(7 * DAY, (last - first) * 0.05);
  return [first - margin, last + margin];
}
