import { describe, expect, it } from "vitest";
import { english, type Message, render } from "../actions/message";
import { readParams } from "./params";

describe("a page's URL parameters", () => {
  it("gives the first value trimmed, and nothing for absent or empty ones", () => {
    const notices: Message[] = [];
    const param = readParams({ q: "  example.cz ", states: ["ok", " inactive ", ""], empty: " " }, notices);
    expect(param("q")).toBe("example.cz");
    expect(param("states")).toBe("ok");
    expect(param.all("states")).toEqual(["ok", "inactive"]);
    expect(param("empty")).toBeUndefined();
    expect(param("missing")).toBeUndefined();
    expect(notices).toEqual([]);
  });

  it("leaves out a value holding a NUL character and says so once, in each language", () => {
    const notices: Message[] = [];
    const param = readParams({ actor: "a\u0000b", states: ["ok", "b\u0000ad"] }, notices);
    expect(param("actor")).toBeUndefined();
    expect(param("actor")).toBeUndefined();
    expect(param.all("states")).toEqual(["ok"]);
    expect(notices.map(english)).toEqual([
      "“actor” in the address holds a NUL character (%00), which no name, id or date has; it was left out.",
      "“states” in the address holds a NUL character (%00), which no name, id or date has; it was left out.",
    ]);
    expect(render(notices[0], "cs")).toBe("„actor“ v adrese obsahuje znak NUL (%00), který nemá žádný název, ID ani datum; byl vynechán.");
  });
});
