import { describe, expect, it } from "vitest";
import { safeLocalPath } from "./paths";

describe("where a person may be sent back to", () => {
  it("keeps the console's own paths and refuses every way to another site", () => {
    for (const path of ["/", "/objects?type=domain&states=outzone", "/objects/12#requests"]) expect(safeLocalPath(path, "/x")).toBe(path);
    for (const path of [
      "//evil.example/",
      "/\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r/evil.example",
      "/ /evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "objects",
      "",
      "/a\\b",
      `/${"a".repeat(2001)}`,
    ])
      expect(safeLocalPath(path, "/fallback"), JSON.stringify(path)).toBe("/fallback");
    expect(safeLocalPath(["/objects", "//evil"], "/x")).toBe("/objects");
    expect(safeLocalPath(undefined, "/x")).toBe("/x");
  });
});
