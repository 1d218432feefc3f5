import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { blockChanges, changesNothing } from "./block-change";

const block = {
  from: "2026-12-01T10:00",
  to: "2026-12-31T23:59",
  prohibitions: ["serverDeleteProhibited", "serverTransferProhibited", "serverUpdateProhibited"],
};

describe("what a change of a block changes", () => {
  it("one more prohibition: added, the others kept, start and end kept", () => {
    const c = blockChanges(block, { from: block.from, to: block.to, prohibitions: [...block.prohibitions, "serverRenewProhibited"] });
    expect(c).toEqual({
      added: ["serverRenewProhibited"],
      removed: [],
      kept: block.prohibitions,
      from: null,
      to: null,
    });
    expect(changesNothing(c)).toBe(false);
  });

  it("the end removed and a prohibition dropped: before → after", () => {
    const c = blockChanges(block, { from: null, to: null, prohibitions: ["serverUpdateProhibited", "serverDeleteProhibited"] });
    expect(c).toEqual({
      added: [],
      removed: ["serverTransferProhibited"],
      kept: ["serverDeleteProhibited", "serverUpdateProhibited"],
      from: null,
      to: { before: "2026-12-31T23:59", after: null },
    });
  });

  it("a start not asked about (a begun block) is kept; a new one is a change", () => {
    expect(blockChanges(block, { ...block, from: null }).from).toBeNull();
    expect(blockChanges(block, { ...block, from: "2026-12-02T10:00" }).from).toEqual({ before: block.from, after: "2026-12-02T10:00" });
    expect(blockChanges({ ...block, to: null }, { ...block, to: "2027-01-01T00:00" }).to).toEqual({
      before: null,
      after: "2027-01-01T00:00",
    });
  });

  it("no prohibition chosen keeps the block's own; one named twice counts once", () => {
    expect(changesNothing(blockChanges(block, { ...block, prohibitions: [] }))).toBe(true);
    expect(blockChanges(block, { ...block, prohibitions: ["serverRenewProhibited", "serverRenewProhibited"] })).toMatchObject({
      added: ["serverRenewProhibited"],
      removed: block.prohibitions,
      kept: [],
    });
  });

  it("the same block, in any order of its prohibitions, changes nothing; every change is said", () => {
    const state = fc.constantFrom("serverDeleteProhibited", "serverTransferProhibited", "serverUpdateProhibited", "serverRenewProhibited");
    const instant = fc.option(fc.constantFrom("2026-12-01T10:00", "2026-12-05T10:00", "2027-01-01T00:00"), { nil: null });
    const shape = fc.record({ from: instant, to: instant, prohibitions: fc.uniqueArray(state, { minLength: 1 }) });
    fc.assert(
      fc.property(shape, shape, (before, after) => {
        expect(changesNothing(blockChanges(before, { ...before, prohibitions: [...before.prohibitions].reverse() }))).toBe(true);
        const c = blockChanges(before, after);
        // What it ends with: the kept and the added, exactly the chosen ones.
        expect([...c.kept, ...c.added].sort()).toEqual([...after.prohibitions].sort());
        expect([...c.kept, ...c.removed].sort()).toEqual([...before.prohibitions].sort());
        expect(changesNothing(c)).toBe(
          (after.from === null || after.from === before.from) &&
            after.to === before.to &&
            [...after.prohibitions].sort().join() === [...before.prohibitions].sort().join(),
        );
      }),
      { numRuns: 300 },
    );
  });
});
