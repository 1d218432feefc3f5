import { describe, expect, it } from "vitest";
import { StartupError } from "../lib/db/errors";
import { DEFAULT_HEAP_MIB, serverEnvironment } from "./next-server";

describe("the production server's environment", () => {
  it("limits the old generation and the malloc arenas, keeping the rest of NODE_OPTIONS", () => {
    const env = serverEnvironment({ NODE_OPTIONS: "--enable-source-maps", DATABASE_URL: "postgresql://x/y" });
    expect(env.NODE_OPTIONS).toBe(`--enable-source-maps --max-old-space-size=${DEFAULT_HEAP_MIB}`);
    expect(env.MALLOC_ARENA_MAX).toBe("2");
    expect(env.DATABASE_URL).toBe("postgresql://x/y");
    expect(serverEnvironment({ CONSOLE_HEAP_MIB: "512" }).NODE_OPTIONS).toBe("--max-old-space-size=512");
  });

  it("leaves an operator's own heap limit and arenas alone", () => {
    const env = serverEnvironment({ NODE_OPTIONS: "--max-old-space-size=1024", MALLOC_ARENA_MAX: "4", CONSOLE_HEAP_MIB: "300" });
    expect(env.NODE_OPTIONS).toBe("--max-old-space-size=1024");
    expect(env.MALLOC_ARENA_MAX).toBe("4");
  });

  it("refuses a heap size that is not a whole number of at least 128 MiB", () => {
    for (const bad of ["64", "2.5", "lots", "-256"]) expect(() => serverEnvironment({ CONSOLE_HEAP_MIB: bad })).toThrow(StartupError);
    expect(() => serverEnvironment({ CONSOLE_HEAP_MIB: "lots" })).toThrow(/CONSOLE_HEAP_MIB must be a whole number of MiB, at least 128/);
  });
});
