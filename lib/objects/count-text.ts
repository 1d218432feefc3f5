// A list's count as the pages write it, one rule for the list's heading and the export's progress.

/** How many objects match: exact, or (atLeast) more than `total`; a total of 0 with atLeast is "many, not counted" (see countMatches). */
export interface MatchCount {
  total: number;
  atLeast: boolean;
}

/** The number, "more than N" (a bound that was counted), or "many" (not even a bound was counted). */
export function countText(
  count: MatchCount,
  say: { number: (n: number) => string; moreThan: (n: string) => string; many: () => string },
): string {
  if (!count.atLeast) return say.number(count.total);
  return count.total > 0 ? say.moreThan(say.number(count.total)) : say.many();
}
