import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The project's import graph (app, components, lib, scripts; tests left out), read from the
// source: relative imports and the "@/" alias, `import type` included (a type-only circle is still
// a knot a reader has to untie).
const ROOT = process.cwd();
const DIRS = ["app", "components", "lib", "scripts", "server", "testing"];
const EXTENSIONS = [".ts", ".tsx"];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "generated" ? [] : sources(full);
    return EXTENSIONS.some((ext) => name.endsWith(ext)) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

function resolve(from: string, spec: string): string | null {
  const base = spec.startsWith("@/")
    ? path.join(ROOT, spec.slice(2))
    : spec.startsWith(".")
      ? path.resolve(path.dirname(from), spec)
      : null;
  if (!base) return null;
  for (const candidate of [base, ...EXTENSIONS.map((ext) => base + ext), ...EXTENSIONS.map((ext) => path.join(base, `index${ext}`))])
    if (candidate.endsWith(".ts") || candidate.endsWith(".tsx"))
      try {
        if (statSync(candidate).isFile()) return candidate;
      } catch {}
  return null;
}

function graph(): Map<string, string[]> {
  const files = DIRS.flatMap((dir) => sources(path.join(ROOT, dir)));
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']/g)].map((m) => m[1]);
    edges.set(
      file,
      specs.map((spec) => resolve(file, spec)).filter((target): target is string => target !== null),
    );
  }
  return edges;
}

/** Every circle of imports, each as its files in order (found by depth-first search). */
function circles(edges: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === "open") found.push(stack.slice(stack.indexOf(next)).map((f) => path.relative(ROOT, f)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of edges.keys()) if (!state.has(file)) visit(file);
  return found;
}

/** Imports that cross a layer's line: lib into the demo data (prisma/demo) or the test helpers (testing/), components into app. */
function crossings(edges: Map<string, string[]>): string[] {
  const rel = (file: string) => path.relative(ROOT, file);
  return [...edges.entries()].flatMap(([from, targets]) =>
    targets
      .filter(
        (to) =>
          (rel(from).startsWith("lib/") && (rel(to).startsWith("prisma/demo/") || rel(to).startsWith("testing/"))) ||
          (rel(from).startsWith("components/") && rel(to).startsWith("app/")),
      )
      .map((to) => `${rel(from)} → ${rel(to)}`),
  );
}

describe("the project's imports", () => {
  it("finds a circle when there is one", () => {
    const edges = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(circles(edges).map((c) => c.map((f) => path.basename(f)))).toEqual([["a", "b", "c"]]);
  });

  it("have no circle: every file stands above what it imports", () => {
    const edges = graph();
    expect(edges.size).toBeGreaterThan(150);
    expect(circles(edges)).toEqual([]);
  });

  it("keep each layer's job: lib never imports the demo data (start-up, in server/, loads it) or the test helpers (testing/), components never import app (pages pass server actions down as props), msg comes from lib/i18n", () => {
    const edges = graph();
    expect(crossings(edges)).toEqual([]);
    // One way to the messages: nothing re-exports msg for others to import it through.
    const reexports = [...edges.keys()].filter((file) => /export\s*\{[^}]*\bmsg\b[^}]*\}\s*from/.test(readFileSync(file, "utf8")));
    expect(reexports.map((file) => path.relative(ROOT, file))).toEqual([]);
    // One way to link: components/link.tsx, which never prefetches (e2e/prefetch.spec.ts).
    const nextLink = [...edges.keys()].filter((file) => /from "next\/link"/.test(readFileSync(file, "utf8")));
    expect(nextLink.map((file) => path.relative(ROOT, file))).toEqual(["components/link.tsx"]);
  });

  it("finds a layer crossing when there is one", () => {
    const at = (file: string) => path.join(ROOT, file);
    const edges = new Map([
      [at("lib/db/x.ts"), [at("prisma/demo/first-start.ts"), at("lib/db/y.ts"), at("testing/databases.ts")]],
      [at("components/a.tsx"), [at("app/preferences/actions.ts"), at("lib/db/y.ts")]],
      [at("server/start.ts"), [at("prisma/demo/first-start.ts")]],
      [at("app/page.tsx"), [at("components/a.tsx")]],
    ]);
    expect(crossings(edges)).toEqual([
      "lib/db/x.ts → prisma/demo/first-start.ts",
      "lib/db/x.ts → testing/databases.ts",
      "components/a.tsx → app/preferences/actions.ts",
    ]);
  });

  it("leave pages short: a route reads its parameters, calls lib and renders (no page file over 150 lines)", () => {
    const pages = sources(path.join(ROOT, "app")).filter((file) => /\/page\.tsx$/.test(file));
    expect(pages.length).toBeGreaterThan(10);
    const long = pages
      .map((file) => [path.relative(ROOT, file), readFileSync(file, "utf8").split("\n").length] as const)
      .filter(([, lines]) => lines > 150);
    expect(long).toEqual([]);
  });

  it("reach the database through Prisma: only the listed places use the direct connection or a driver", () => {
    // The console's reads and writes go through Prisma (lib/db/prisma-sql.ts and the models). The
    // direct connection and the drivers are for what Prisma does not do, in these places only:
    const allowed = new Set([
      // the connection itself, PGlite's lock and start-up, the console's role on PGlite
      "lib/db/client.ts",
      "lib/db/driver.ts",
      "lib/db/pglite.ts",
      "lib/db/roles.ts",
      "server/start.ts",
      // the migration runner and adoption (scripts of many statements, DDL)
      "lib/db/migrations.ts",
      "lib/db/prepare.ts",
      "lib/db/adopt.ts",
      "lib/db/adoption-mode.ts",
      "lib/db/catalogue.ts",
      "scripts/migrate.ts",
      "scripts/adopt.ts",
      "scripts/unadopt.ts",
      "scripts/sql-definitions.ts",
      // the demo registry's bulk load (first start, npm run db:seed)
      "prisma/demo/load.ts",
      "prisma/demo/first-start.ts",
      "scripts/seed.ts",
      // command-line tools migrate before they act (their work itself goes through Prisma)
      "scripts/user.ts",
      "scripts/states-update.ts",
      // benchmarks: their registries, FRED's own procedure as a baseline, and the bare SQL they compare with
      "scripts/bench-list.ts",
      "scripts/bench-states.ts",
      "scripts/bench-fred.ts",
      "scripts/bench-registry.ts",
      // test fixtures
      "testing/registry.ts",
      "testing/global-setup.ts",
      "testing/databases.ts",
      "testing/beside.ts",
      "testing/fred.ts",
      "testing/libfred.ts",
      "testing/shadow.ts",
      "testing/tcp-proxy.ts",
    ]);
    const files = [...DIRS, "prisma"].flatMap((dir) => sources(path.join(ROOT, dir)));
    const direct = files
      .filter((file) =>
        /\.direct\b|from "pg"|@electric-sql\/pglite|pgExecutor|DirectDriver|ScriptExecutor/.test(readFileSync(file, "utf8")),
      )
      .map((file) => path.relative(ROOT, file));
    expect(direct.filter((file) => !allowed.has(file))).toEqual([]);
    // The measured exception (lib/db/client.ts pageReads): the page reads that only read.
    const pageReads = files
      .filter((file) => /\bpageReads\(/.test(readFileSync(file, "utf8")))
      .map((file) => path.relative(ROOT, file))
      .sort();
    expect(pageReads).toEqual([
      "lib/db/client.ts",
      "lib/objects/detail.ts",
      "lib/objects/export.ts",
      "lib/objects/list.ts",
      "lib/requests/read.ts",
    ]);
  });
});
