// What a change of a block changes (pure: the change form's confirmation and the server's check both
// use it). Instants are compared as the strings given: the server gives ISO instants, the form the
// wall times it shows (to the minute), each compared only with its own kind.

/** A block's period and prohibitions; `from` null: its start is not asked about (a block that has begun). */
export interface BlockShape {
  from: string | null;
  /** Its end; null: no end. */
  to: string | null;
  prohibitions: string[];
}

export interface BlockChanges {
  added: string[];
  removed: string[];
  /** The prohibitions it keeps. */
  kept: string[];
  /** The start's change, or null when kept. */
  from: { before: string | null; after: string | null } | null;
  /** The end's change (null: no end), or null when kept. */
  to: { before: string | null; after: string | null } | null;
}

/**
 * What changes from `before` to `after`. No prohibition chosen keeps the block's own (a block always
 * prohibits something); a prohibition named twice counts once. The lists keep `before`'s order, the
 * added ones `after`'s.
 */
export function blockChanges(before: BlockShape, after: BlockShape): BlockChanges {
  const next = after.prohibitions.length ? [...new Set(after.prohibitions)] : before.prohibitions;
  return {
    added: next.filter((p) => !before.prohibitions.includes(p)),
    removed: before.prohibitions.filter((p) => !next.includes(p)),
    kept: before.prohibitions.filter((p) => next.includes(p)),
    from: after.from !== null && after.from !== before.from ? { before: before.from, after: after.from } : null,
    to: after.to !== before.to ? { before: before.to, after: after.to } : null,
  };
}

/** Whether a change changes nothing. */
export const changesNothing = (c: BlockChanges): boolean => !c.added.length && !c.removed.length && !c.from && !c.to;
