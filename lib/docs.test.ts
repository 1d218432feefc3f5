// The documents (issue 43: README.md, ARCHITECTURE.md, CONTRIBUTING.md, docs/*.md) name only what
// exists: every npm script, repository path, route, environment variable and link between them.
// Pure file reads: no database, no server.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = process.cwd();

/** What a document may name although it does not exist (yet, or here), each with why. Keep it short. */
const EXCEPTIONS: { name: RegExp; reason: string }[] = [
  { name: /^\.data\//, reason: "the embedded database's files (its data directory, audit key and anchor), made at run time" },
  { name: /^NEXT_TELEMETRY_DISABLED$/, reason: "Next.js's own variable, read by `next build`, not by the console" },
];
const excepted = (name: string) => EXCEPTIONS.some((e) => e.name.test(name));

/** npm's own commands a document may name besides the package's scripts. */
const NPM_COMMANDS = new Set(["install", "ci", "audit", "exec", "run"]);
/** Environment variables whose names have no underscore. */
const ONE_WORD_VARIABLES = new Set(["HOST", "PORT", "COMPRESS"]);
/** Absolute paths of the host (a browser's binary, a unit's environment file), not the console's routes. */
const HOST_PATHS = new Set(["usr", "etc", "opt", "var", "tmp", "dev", "proc", "home", "srv"]);
/** Never the project's files: installed, built or written by tests. */
const NOT_THE_PROJECT = new Set(["node_modules", ".git", ".next", "test-results"]);
/** A name with one of these endings is a file of the repository even without a folder. */
const FILE_ENDINGS = /\.(ts|tsx|mjs|js|md|sql|toml|png)$/;
/** A name with a folder and one of these endings is a file too (alone, `x.json` may be code: `Response.json`). */
const PATH_ENDINGS = /\.(json|prisma|example|csv)$/;

const DOCUMENTS = [
  "README.md",
  "ARCHITECTURE.md",
  "CONTRIBUTING.md",
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

interface Doc {
  file: string;
  /** Code spans, their whitespace collapsed. */
  spans: string[];
  /** Fenced code blocks. */
  blocks: string[];
  /** Targets of markdown links and images. */
  links: string[];
  /** The anchors of its headings, as GitHub makes them. */
  anchors: Set<string>;
}

/** GitHub's anchor of a heading: its text lower-cased, without punctuation, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function read(file: string): Doc {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const blocks: string[] = [];
  const prose = text
    .replace(/^(```|~~~)[^\n]*\n([\s\S]*?)^\1[ \t]*$/gm, (_all, _fence, body: string) => {
      blocks.push(body);
      return "";
    })
    .replace(/<!--[\s\S]*?-->/g, "");
  const spans = [...prose.matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\s+/g, " ").trim());
  const links = [...prose.replace(/`[^`]+`/g, "").matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
  const anchors = new Set<string>();
  for (const [, heading] of prose.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(heading);
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return { file, spans, blocks, links, anchors };
}

const docs = DOCUMENTS.map(read);
const scripts = new Set(Object.keys(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts));
const topLevel = new Set([...readdirSync(ROOT).filter((name) => !NOT_THE_PROJECT.has(name)), "docs"]);

/** Every file of the repository under `dir` (not node_modules, the build or test output). */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (NOT_THE_PROJECT.has(name)) return [];
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}
/** The folders of the project's code (those that exist). */
const CODE_DIRS = ["lib", "app", "components", "scripts", "prisma", "e2e", "server", "testing"].filter((dir) =>
  existsSync(path.join(ROOT, dir)),
);
const repositoryFiles = [
  ...[...CODE_DIRS, "bench", ".ci"].flatMap((dir) => files(path.join(ROOT, dir))),
  ...readdirSync(ROOT).map((n) => path.join(ROOT, n)),
];
const baseNames = new Set(repositoryFiles.map((file) => path.basename(file)));

/** The UPPER_CASE words of the source (this test left out, so naming a variable here proves nothing). */
const sourceWords = (() => {
  const sources = [
    ...CODE_DIRS.flatMap((dir) => files(path.join(ROOT, dir))),
    ...readdirSync(ROOT)
      .filter((name) => /\.(ts|mjs|json)$/.test(name) || name === ".env.example")
      .map((name) => path.join(ROOT, name)),
    path.join(ROOT, ".ci", "run"),
  ].filter((file) => !file.endsWith(path.join("lib", "docs.test.ts")) && !file.includes(`${path.sep}generated${path.sep}`));
  const words = new Set<string>();
  for (const file of sources) {
    if (!/\.(ts|tsx|mjs|js|json|sql|example)$|[/\\]run$/.test(file)) continue;
    for (const [word] of readFileSync(file, "utf8").matchAll(/\b[A-Z][A-Z0-9_]*\b/g)) words.add(word);
  }
  return words;
})();

/** Whether `route` (a path of the console, placeholders like `<id>` allowed) is a page or route handler under app/. */
function isRoute(route: string): boolean {
  let dir = path.join(ROOT, "app");
  for (const segment of route.split("/").filter(Boolean)) {
    const children = readdirSync(dir).filter((name) => statSync(path.join(dir, name)).isDirectory());
    if (children.some((name) => name.startsWith("[..."))) return true;
    const literal = !/[<>{}…]/.test(segment) && children.includes(segment) ? segment : null;
    const next = literal ?? children.find((name) => /^\[[^.][^\]]*\]$/.test(name));
    if (!next) return false;
    dir = path.join(dir, next);
  }
  return existsSync(path.join(dir, "page.tsx")) || existsSync(path.join(dir, "route.ts"));
}

/** What is wrong with a repository path or route named in a code span; null when it exists or is no path of the project. */
function pathProblem(span: string): string | null {
  if (/[\s=]|:\/\//.test(span) || span.startsWith("..") || span.startsWith("@")) return null;
  if (span.startsWith("/")) {
    const route = span.replace(/[?#].*$/, "");
    if (HOST_PATHS.has(route.split("/")[1])) return null;
    return isRoute(route) ? null : "no such page or route under app/";
  }
  const name = span.replace(/[?#].*$/, "");
  const first = name.split("/")[0];
  const isPath = name.includes("/")
    ? topLevel.has(first) || FILE_ENDINGS.test(name) || PATH_ENDINGS.test(name)
    : topLevel.has(name) || FILE_ENDINGS.test(name);
  if (!isPath || excepted(name)) return null;
  const placeholder = name.search(/[<>{}*…$]/);
  if (placeholder >= 0) {
    // A pattern: the folder before its first placeholder must exist.
    const folder = name.slice(0, name.lastIndexOf("/", placeholder) + 1);
    return folder === "" || existsSync(path.join(ROOT, folder)) ? null : `no folder ${folder}`;
  }
  if (!name.includes("/")) return existsSync(path.join(ROOT, name)) || baseNames.has(name) ? null : "no file of that name";
  return existsSync(path.join(ROOT, name)) ? null : "does not exist";
}

describe("the documents", () => {
  it("are README.md, ARCHITECTURE.md, CONTRIBUTING.md and docs/*.md", () => {
    expect(DOCUMENTS).toEqual(expect.arrayContaining(["docs/guide.md", "docs/operating.md", "docs/fred.md"]));
    expect(DOCUMENTS.length).toBeGreaterThan(5);
  });

  it("name only npm scripts the package has, and npm's own commands", () => {
    const wrong = docs.flatMap((doc) => {
      const named = [...doc.spans, ...doc.blocks].flatMap((text) =>
        [...text.matchAll(/\bnpm\s+(run\s+)?([a-z][\w:.-]*)/g)].map((m) => (m[1] ? `run ${m[2]}` : m[2])),
      );
      // A script named alone, as `db:seed` or `states:update --at`.
      const alone = doc.spans.flatMap((span) => (/^(db|bench|states|audit|test):[\w-]+/.exec(span) ? [`run ${span.split(" ")[0]}`] : []));
      return [...named, ...alone]
        .filter((command) => {
          const script = command.startsWith("run ") ? command.slice(4) : command;
          return !(scripts.has(script) || (!command.startsWith("run ") && NPM_COMMANDS.has(script)) || excepted(script));
        })
        .map((command) => `${doc.file}: npm ${command}`);
    });
    expect(wrong).toEqual([]);
  });

  it("name only files, folders and routes that exist", () => {
    const wrong = docs.flatMap((doc) =>
      doc.spans.flatMap((span) => {
        const problem = pathProblem(span);
        return problem ? [`${doc.file}: ${span} (${problem})`] : [];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it("name only environment variables that .env.example or the source knows", () => {
    const wrong = docs.flatMap((doc) => {
      const inSpans = doc.spans.flatMap((span) => [
        ...[...span.matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)].map((m) => m[0]),
        ...[/^([A-Z]+)(=|$)/.exec(span)?.[1] ?? ""].filter((word) => ONE_WORD_VARIABLES.has(word)),
      ]);
      const assigned = doc.blocks.flatMap((block) => [...block.matchAll(/\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)=/g)].map((m) => m[1]));
      return [...new Set([...inSpans, ...assigned])]
        .filter((name) => (name.includes("_") || ONE_WORD_VARIABLES.has(name)) && !sourceWords.has(name) && !excepted(name))
        .map((name) => `${doc.file}: ${name}`);
    });
    expect(wrong).toEqual([]);
  });

  it("link to files and headings that exist", () => {
    const byFile = new Map(docs.map((doc) => [doc.file, doc]));
    const wrong = docs.flatMap((doc) =>
      doc.links.flatMap((link) => {
        if (/^[a-z][a-z+.-]*:/i.test(link)) return []; // a URL
        const [target, anchor] = link.split("#");
        const file = target === "" ? doc.file : path.posix.normalize(path.posix.join(path.posix.dirname(doc.file), target));
        if (excepted(file)) return [];
        if (!existsSync(path.join(ROOT, file))) return [`${doc.file}: ${link} (no such file)`];
        const linked = byFile.get(file) ?? (file.endsWith(".md") ? read(file) : null);
        if (anchor && linked && !linked.anchors.has(anchor)) return [`${doc.file}: ${link} (no such heading)`];
        return [];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it("keep the README short, and one click from the guide's pages, the metrics and the adoption modes", () => {
    const readme = docs.find((doc) => doc.file === "README.md") as Doc;
    const guide = docs.find((doc) => doc.file === "docs/guide.md") as Doc;
    expect(readFileSync(path.join(ROOT, "README.md"), "utf8").trimEnd().split("\n").length).toBeLessThanOrEqual(200);
    const guidePages = [...readFileSync(path.join(ROOT, "docs/guide.md"), "utf8").matchAll(/^## (.+)$/gm)].map((m) => slug(m[1]));
    expect(guidePages.length).toBeGreaterThan(8);
    for (const anchor of guidePages) expect(guide.anchors.has(anchor), anchor).toBe(true);
    expect(guidePages.filter((anchor) => !readme.links.includes(`docs/guide.md#${anchor}`))).toEqual([]);
    expect(readme.links).toContain("docs/guide.md");
    expect(readme.links).toContain("docs/operating.md#metrics");
    expect(readme.links).toContain("docs/fred.md#the-adoption-modes");
  });

  it("keep no exception nobody needs", () => {
    const names = docs.flatMap((doc) => [
      ...doc.spans,
      ...doc.spans.flatMap((span) => span.match(/\b[A-Z][A-Z0-9_]+\b/g) ?? []),
      ...doc.links.map((link) => path.posix.normalize(path.posix.join(path.posix.dirname(doc.file), link.split("#")[0]))),
    ]);
    expect(EXCEPTIONS.filter((e) => !names.some((name) => e.name.test(name))).map((e) => `${e.name}: ${e.reason}`)).toEqual([]);
  });
});
