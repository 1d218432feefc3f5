import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_NAMESPACES, clientMessages } from "./messages";

/**
 * A guard against English written straight into pages and components, where a Czech reader
 * would meet it: text between JSX tags, text attributes people read, and sentences in string
 * literals. Everything a person reads comes from lib/i18n/messages.
 */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? sources(full) : /\.tsx?$/.test(entry) ? [full] : [];
  });
}

// Technical text that is the same in every language.
const ALLOWED = new Set(["Promise", "Authorization: Bearer <token>"]);

function untranslated(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/>([^<>{}=;()]*[A-Za-z]{3,}[^<>{}=;()]*)<\/?[a-zA-Z{]/g)) found.push(m[1].trim());
  for (const m of source.matchAll(/\b(?:aria-label|placeholder|title|alt|label|header)[=:]\s*"([^"]*[A-Za-z]{3,}[^"]*)"/g))
    found.push(m[1]);
  for (const m of source.matchAll(/["'`]([A-Z][a-z]+ [a-z]+ [a-z]+[^"'`]*)["'`]/g)) found.push(m[1]);
  return [...new Set(found)].filter((text) => !ALLOWED.has(text));
}

describe("pages and components", () => {
  const files = [...sources("app"), ...sources("components")].filter((file) => /\.tsx$/.test(file) || /actions\.ts$/.test(file));

  it("are many", () => {
    expect(files.length).toBeGreaterThan(30);
  });

  it("hold no English text of their own: it is all in the message catalogues", () => {
    expect(files.flatMap((file) => untranslated(readFileSync(file, "utf8")).map((text) => `${file}: ${text}`))).toEqual([]);
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

  it("the guard sees English where it is", () => {
    const probe = '<p title="Open the list">Objects in the zone</p>; setError("The export failed badly"); t("objects.title")';
    expect(untranslated(probe)).toEqual(["Objects in the zone", "Open the list", "The export failed badly"]);
  });
});
