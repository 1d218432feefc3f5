import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { transformSync } from "esbuild";
import { describe, expect, it } from "vitest";
import { CLIENT_NAMESPACES, clientMessages } from "./messages";

/**
 * A guard against English written straight into pages and components, where a Czech reader would
 * meet it. Each file is compiled (types gone, JSX turned into calls, so its text is string
 * literals) and its strings are checked: JSX text, the attributes people read, and sentences
 * anywhere else. Everything a person reads comes from lib/i18n/messages.
 */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? sources(full) : /\.tsx?$/.test(entry) ? [full] : [];
  });
}

// Strings that are the same in every language: directives, values, codes, header syntax.
const ALLOWED = new Set(["use client", "use server", "in force", "Throttled", "Authorization: Bearer <token>"]);
// Properties whose values are code, not text.
const CODE_KEYS = /^(className|key|name|type|method|href|value|id|htmlFor|rel|target|role|mode|viewBox|d|fill|stroke|lang|"data-[\w-]+")$/;
// Attributes a person reads.
const TEXT_KEYS = /^(title|placeholder|alt|label|empty|header|"aria-label"|"aria-description")$/;

/** The string literals that are direct elements of the `children: [...]` arrays of compiled JSX. */
function childrenArrayStrings(code: string): string[] {
  const found: string[] = [];
  for (const m of code.matchAll(/children: \[/g)) {
    let depth = 1;
    for (let i = (m.index ?? 0) + m[0].length; i < code.length && depth > 0; i++) {
      const c = code[i];
      if (c === '"' || c === "`") {
        let j = i + 1;
        while (j < code.length && code[j] !== c) j += code[j] === "\\" ? 2 : 1;
        // A direct element, not the operand of a comparison (`state === "running" ? … : …`).
        if (depth === 1 && !/[!=]==\s*$/.test(code.slice(Math.max(0, i - 8), i))) found.push(code.slice(i, j + 1));
        i = j;
      } else if ("([{".includes(c)) depth++;
      else if (")]}".includes(c)) depth--;
    }
  }
  return found;
}

/** The texts of compiled source that no catalogue provides. */
function untranslated(source: string, file = "probe.tsx"): string[] {
  const code = transformSync(source, { loader: file.endsWith("x") ? "tsx" : "ts", jsx: "automatic", charset: "utf8" }).code;
  const text = (literal: string) =>
    literal
      .slice(1, -1)
      .replace(/\$\{[^}]*\}/g, " ")
      .trim();
  const wordy = (t: string) => /[A-Za-z]{2,}/.test(t) && !ALLOWED.has(t);
  const found = childrenArrayStrings(code).map(text).filter(wordy);
  for (const m of code.matchAll(
    /(?:([\w$]+|"[\w-]+"):\s*|(\bjsxs?\(\s*)|(\bfrom\s+|\bimport\s+))?("(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`)/g,
  )) {
    const [, key, element, importing, literal] = m;
    const t = text(literal);
    if (element || importing || !wordy(t) || (key !== undefined && CODE_KEYS.test(key))) continue;
    const jsxText = key === "children";
    const attribute = key !== undefined && TEXT_KEYS.test(key);
    const sentence = /[A-Za-z]{2,}\W*\s+[A-Za-z]+\W*\s+[A-Za-z]/.test(t) || /^[A-Z][a-z]+\b/.test(t);
    if (jsxText || attribute || sentence) found.push(t);
  }
  return [...new Set(found)];
}

describe("pages and components", () => {
  // Route handlers answer machines (CSV, JSON): their texts stay English on purpose.
  const files = [...sources("app"), ...sources("components")].filter((file) => !/(^|\/)route\.ts$/.test(file));

  it("are many", () => {
    expect(files.length).toBeGreaterThan(30);
  });

  it("hold no English text of their own: it is all in the message catalogues", () => {
    expect(files.flatMap((file) => untranslated(readFileSync(file, "utf8"), file).map((text) => `${file}: ${text}`))).toEqual([]);
  });

  it("every namespace a client component translates is sent to the browser", () => {
    const used = new Set(
      [...sources("components"), ...sources("app"), ...sources("lib")].flatMap((file) =>
        [...readFileSync(file, "utf8").matchAll(/useTranslations\(\s*["'`]([\w.]+)["'`]/g)].map((m) => m[1]),
      ),
    );
    expect(used.size).toBeGreaterThan(5);
    const sent = (ns: string) => CLIENT_NAMESPACES.some((path) => ns === path || ns.startsWith(`${path}.`));
    expect([...used].filter((ns) => !sent(ns))).toEqual([]);
    // And each one exists in both languages.
    for (const locale of ["en", "cs"] as const) {
      const picked = clientMessages(locale);
      for (const path of CLIENT_NAMESPACES)
        expect(path.split(".").reduce<unknown>((t, k) => (t as Record<string, unknown>)?.[k], picked)).toBeDefined();
    }
  });

  it("the guard sees English where it is, and not in code", () => {
    const probe = `
      import { x } from "@/lib/some module";
      export function Probe({ count, pending, t }: { count: number; pending: boolean; t: (k: string) => string }) {
        const [error, setError] = useState<string | null>(null);
        if (count < 0) setError("Export failed.");
        return (
          <div className="panel wide" data-state="in zone">
            <p title="Open the list">Objects in the zone</p>
            <p>Full bars: history; dashed (pending) = future</p>
            <span>{count} rows</span>
            <Table empty="No requests." aria-label={t("label")} />
            <button type="submit">{pending ? "Saving…" : "Save"}</button>
            <p>{\`Page size \${count} is wrong\`}</p>
            <p>{t("objects.title")} · serverBlocked</p>
          </div>
        );
      }`;
    expect(untranslated(probe).sort()).toEqual(
      [
        "Export failed.",
        "Open the list",
        "Objects in the zone",
        "Full bars: history; dashed (pending) = future",
        "rows",
        "No requests.",
        "Saving…",
        "Save",
        "Page size   is wrong",
        "· serverBlocked",
      ].sort(),
    );
  });
});
