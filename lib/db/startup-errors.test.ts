import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { errorLines, runScript } from "../../testing/run-script";
import { openDatabase } from "./client";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "rsc-startup-"));
  dirs.push(dir);
  return dir;
}

function expectOneClearLine(lines: string[], pattern: RegExp): void {
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(lines[0]).not.toMatch(/\n\s+at /);
}

describe("start-up failures are one clear line", () => {
  it("names an unreachable PostgreSQL and what to check", async () => {
    const result = await runScript("migrate.ts", [], { DATABASE_URL: "postgresql://console:secret@127.0.0.1:1/registry" });
    expect(result.code).toBe(1);
    expectOneClearLine(errorLines(result), /cannot reach PostgreSQL at 127\.0\.0\.1:1\/registry: connection refused.*Check DATABASE_URL/);
    expect(result.stderr).not.toContain("secret");
  });

  it("rejects a DATABASE_URL that is not a PostgreSQL URL", async () => {
    const result = await runScript("migrate.ts", [], { DATABASE_URL: "mysql://localhost/registry" });
    expect(result.code).toBe(1);
    expectOneClearLine(errorLines(result), /DATABASE_URL must start with postgresql:\/\//);
  });

  it("names DATABASE_OWNER_URL when the owner's server cannot be reached (db:migrate connects as the owner)", async () => {
    const result = await runScript("migrate.ts", [], {
      DATABASE_URL: "postgresql://console:secret@127.0.0.1:1/registry",
      DATABASE_OWNER_URL: "postgresql://owner:secret@127.0.0.1:2/registry",
    });
    expect(result.code).toBe(1);
    expectOneClearLine(
      errorLines(result),
      /cannot reach PostgreSQL at 127\.0\.0\.1:2\/registry: connection refused.*Check DATABASE_OWNER_URL/,
    );
    expect(result.stderr).not.toContain("secret");
  });

  it("rejects a DATABASE_OWNER_URL that is not a PostgreSQL URL, or one without DATABASE_URL", async () => {
    const wrong = await runScript("migrate.ts", [], {
      DATABASE_URL: "postgresql://console@127.0.0.1:1/r",
      DATABASE_OWNER_URL: "mysql://x/r",
    });
    expect(wrong.code).toBe(1);
    expectOneClearLine(errorLines(wrong), /DATABASE_OWNER_URL must start with postgresql:\/\//);
    const alone = await runScript("migrate.ts", [], { DATABASE_URL: "", DATABASE_OWNER_URL: "postgresql://owner@127.0.0.1:1/r" });
    expect(alone.code).toBe(1);
    expectOneClearLine(
      errorLines(alone),
      /DATABASE_OWNER_URL is set but DATABASE_URL is not.*Set DATABASE_URL to the console's runtime role/,
    );
  });

  it("refuses a database with a foreign schema", async () => {
    const dataDir = path.join(await tempDir(), "pglite");
    const db = await openDatabase({ databaseUrl: undefined, pgliteDir: dataDir });
    await db.direct.exec("CREATE TABLE accounts (id int)");
    await db.close();
    const result = await runScript("migrate.ts", [], { DATABASE_URL: "", PGLITE_DIR: dataDir });
    expect(result.code).toBe(1);
    expectOneClearLine(
      errorLines(result),
      /already holds 1 tables in schema public but neither a console migration record nor a FRED registry/,
    );
  });
});

describe("the embedded database is used by one process at a time", () => {
  it("refuses a second process with a clear message, and lets it in once the first has closed", async () => {
    const dataDir = path.join(await tempDir(), "pglite");
    const db = await openDatabase({ databaseUrl: undefined, pgliteDir: dataDir });
    const refused = await runScript("migrate.ts", [], { DATABASE_URL: "", PGLITE_DIR: dataDir });
    expect(refused.code).toBe(1);
    expectOneClearLine(
      errorLines(refused),
      new RegExp(`embedded database ${dataDir} is already open in another process \\(pid ${process.pid}`),
    );
    await db.close();

    const admitted = await runScript("migrate.ts", [], { DATABASE_URL: "", PGLITE_DIR: dataDir });
    expect(admitted.code).toBe(0);
    expect(admitted.stdout).toMatch(/Applied (\d+) of \1 migration/);
  });

  it("takes over a lock left behind by a process that was killed", async () => {
    const dataDir = path.join(await tempDir(), "pglite");
    const dead = spawn(process.execPath, ["-e", ""]);
    const pid = dead.pid as number;
    await new Promise((resolve) => dead.on("exit", resolve));
    writeFileSync(`${dataDir}.lock`, JSON.stringify({ pid, host: (await import("node:os")).hostname(), since: "2026-01-01T00:00:00Z" }));
    const db = await openDatabase({ databaseUrl: undefined, pgliteDir: dataDir });
    await db.close();
  });
});
