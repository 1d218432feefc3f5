import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import type { Database } from "./client";
import { currentDefinitions, DEFINITIONS_DIR } from "./definitions";

/** Every file of prisma/sql/, by its path under it. */
function folder(dir = DEFINITIONS_DIR): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) for (const [inner, text] of folder(full)) files.set(`${name}/${inner}`, text);
    else files.set(name, readFileSync(full, "utf8"));
  }
  return files;
}

// PGlite only: the folder is PostgreSQL's rendering of the definitions, which can differ between
// server versions in spacing; the migrations are the same on both.
const [pglite] = testBackends().filter((backend) => backend.name === "pglite");

/** Every file under `dir` with one of the extensions (not node_modules, generated code or the build). */
function texts(dir: string, extensions: string[]): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return ["node_modules", "generated", ".next"].includes(name) ? [] : texts(full, extensions);
    return extensions.some((ext) => name.endsWith(ext)) ? [full] : [];
  });
}

describe("migrations named in the code and the documents", () => {
  it("exist: a comment or document names only migrations that are in prisma/migrations", () => {
    const root = process.cwd();
    const migrations = new Set(readdirSync(path.join(root, "prisma", "migrations")));
    const files = [
      // The documents: the README and the ones it links to (docs/ is walked below).
      ...["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md"].map((name) => path.join(root, name)),
      ...["lib", "app", "components", "scripts", "e2e", "prisma", "docs"].flatMap((dir) =>
        texts(path.join(root, dir), [".ts", ".tsx", ".sql", ".md"]),
      ),
    ].filter((file) => {
      try {
        return statSync(file).isFile();
      } catch {
        return false;
      }
    });
    const missing = files.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/\b(20\d{12}_[a-z0-9_]+)/g)]
        .map((m) => m[1])
        .filter((name) => !migrations.has(name))
        .map((name) => `${path.relative(root, file)}: ${name}`),
    );
    expect(files.length).toBeGreaterThan(100);
    // The documents that name migrations most are read (a renamed or moved one would be skipped silently).
    expect(files.map((file) => path.relative(root, file))).toEqual(
      expect.arrayContaining(["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "docs/fred.md", "docs/operating.md", "docs/security.md"]),
    );
    expect(missing).toEqual([]);
  });
});

describe("the current SQL definitions (prisma/sql/)", () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await pglite.createMigrated());
  });
  afterAll(() => drop());

  it("are what the migrations leave, object by object (run `npm run db:definitions` after a migration)", async () => {
    const migrated = await currentDefinitions(db.sql);
    const kept = folder();
    const differ = (a: Map<string, string>, b: Map<string, string>) => [...a.keys()].filter((name) => a.get(name) !== b.get(name)).sort();
    expect({
      changedOrMissingInFolder: differ(migrated, kept),
      notLeftByMigrations: [...kept.keys()].filter((k) => !migrated.has(k)),
    }).toEqual({
      changedOrMissingInFolder: [],
      notLeftByMigrations: [],
    });
    // The rules are there: the engine's periods, the forecast, the reasons, FRED's replaced entry point, a trigger.
    for (const name of [
      "functions/object_state_periods.sql",
      "functions/state_forecast.sql",
      "functions/state_reasons.sql",
      "functions/public.update_object_states.sql",
      "views/effective_requests.sql",
    ])
      expect(kept.has(name), name).toBe(true);
    expect([...kept.keys()].some((name) => name.startsWith("triggers/domain.console_"))).toBe(true);
  });

  it("notice a migration that changes a rule without the folder", async () => {
    await db.sql.query("CREATE OR REPLACE FUNCTION console.state_clock() RETURNS timestamptz LANGUAGE sql STABLE AS $$ SELECT now() $$");
    const migrated = await currentDefinitions(db.sql);
    expect(migrated.get("functions/state_clock.sql")).not.toBe(folder().get("functions/state_clock.sql"));
  });
});
