import { describe, expect, it } from "vitest";
import { type BlockRow, blockEvents } from "./block-history";

const row = (r: Partial<BlockRow> & Pick<BlockRow, "id" | "created_at" | "created_by">): BlockRow => ({
  unblocked_at: null,
  unblocked_by: null,
  valid_from: new Date("2026-12-01T09:00:00Z"),
  valid_to: new Date("2026-12-31T22:59:00Z"),
  reason: null,
  cancel_reason: null,
  prohibitions: ["serverDeleteProhibited"],
  replaces: false,
  ...r,
});

describe("the history of an object's blocks", () => {
  it("tells a block made, changed twice and lifted, each with its person, instant and reason, oldest first", () => {
    const t = (minute: number) => new Date(Date.UTC(2026, 10, 28, 10, minute));
    const events = blockEvents([
      // Newest first, as read.
      row({
        id: 3,
        created_at: t(3),
        created_by: "carl",
        replaces: true,
        reason: "until further notice",
        valid_to: null,
        unblocked_at: t(4),
        unblocked_by: "dora",
        cancel_reason: "order withdrawn",
      }),
      row({
        id: 2,
        created_at: t(2),
        created_by: "bea",
        replaces: true,
        reason: "renewals too",
        unblocked_at: t(3),
        unblocked_by: "carl (changed)",
        cancel_reason: "until further notice",
      }),
      row({
        id: 1,
        created_at: t(1),
        created_by: "ann",
        reason: "court order 7/2026",
        unblocked_at: t(2),
        unblocked_by: "bea (changed)",
        cancel_reason: "renewals too",
      }),
    ]);
    expect(events.map((e) => [e.kind, e.blockId, e.at, e.by, e.reason, e.to])).toEqual([
      ["blocked", 1, t(1).toISOString(), "ann", "court order 7/2026", "2026-12-31T22:59:00.000Z"],
      ["changed", 2, t(2).toISOString(), "bea", "renewals too", "2026-12-31T22:59:00.000Z"],
      ["changed", 3, t(3).toISOString(), "carl", "until further notice", null],
      ["lifted", 3, t(4).toISOString(), "dora", "order withdrawn", null],
    ]);
  });

  it("a block lifted and another made at the same instant: the lifting first", () => {
    const at = new Date("2026-11-28T10:00:00Z");
    const events = blockEvents([
      row({ id: 2, created_at: at, created_by: "bea", reason: "again" }),
      row({
        id: 1,
        created_at: new Date("2026-11-01T00:00:00Z"),
        created_by: "ann",
        unblocked_at: at,
        unblocked_by: "bea",
        cancel_reason: "done",
      }),
    ]);
    expect(events.map((e) => [e.kind, e.blockId])).toEqual([
      ["blocked", 1],
      ["lifted", 1],
      ["blocked", 2],
    ]);
  });
});
