import { describe, expect, it } from "vitest";
import { countText } from "./count-text";

const say = { number: (n: number) => n.toLocaleString("en"), moreThan: (n: string) => `more than ${n}`, many: () => "many" };

describe("countText", () => {
  it("writes an exact count, a counted bound, or 'many' when not even a bound was counted", () => {
    expect(countText({ total: 19_400, atLeast: false }, say)).toBe("19,400");
    expect(countText({ total: 0, atLeast: false }, say)).toBe("0");
    expect(countText({ total: 10_000, atLeast: true }, say)).toBe("more than 10,000");
    expect(countText({ total: 0, atLeast: true }, say)).toBe("many");
  });
});
