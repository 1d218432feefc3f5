import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

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

  it("client components use only the namespaces the layout sends to the browser", () => {
    const client = files.filter((file) => /^\s*["']use client["']/m.test(readFileSync(file, "utf8")));
    expect(client.length).toBeGreaterThan(5);
    const serverOnly = client.filter((file) => /useTranslations\(\s*["'`](server|reasons)\b/.test(readFileSync(file, "utf8")));
    expect(serverOnly).toEqual([]);
  });

  it("the guard sees English where it is", () => {
    const probe = '<p title="Open the list">Objects in the zone</p>; setError("The export failed badly"); t("objects.title")';
    expect(untranslated(probe)).toEqual(["Objects in the zone", "Open the list", "The export failed badly"]);
  });
});
