import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { LOCALES, negotiateLocale } from "./config";
import { MESSAGES } from "./messages";
import { translator } from "./server";

type Tree = { [key: string]: string | Tree };

/** Every message of a catalogue by its dotted key. */
function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

/** The placeholders and tags a message uses ("name:kind"), from the ICU syntax tree. */
function placeholders(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    switch (element.type) {
      case TYPE.argument:
        into.add(`${element.value}:text`);
        break;
      case TYPE.number:
      case TYPE.date:
      case TYPE.time:
        into.add(`${element.value}:${TYPE[element.type]}`);
        break;
      case TYPE.plural:
      case TYPE.select:
        into.add(`${element.value}:${element.type === TYPE.select ? "select" : "plural"}`);
        for (const option of Object.values(element.options)) placeholders(option.value, into);
        break;
      case TYPE.tag:
        into.add(`<${element.value}>`);
        placeholders(element.children, into);
        break;
      default:
        break;
    }
  }
  return into;
}

const english = flatten(MESSAGES.en as unknown as Tree);
const englishText = (key: string) => english.get(key) ?? "";

/** For each plural or select argument of a message, the placeholders of each of its branches. */
function branches(elements: MessageFormatElement[], into = new Map<string, Set<string>[]>()): Map<string, Set<string>[]> {
  for (const element of elements) {
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      into.set(
        element.value,
        Object.values(element.options).map((option) => placeholders(option.value)),
      );
      for (const option of Object.values(element.options)) branches(option.value, into);
    } else if (element.type === TYPE.tag) branches(element.children, into);
  }
  return into;
}

describe("the message catalogues", () => {
  it("has messages", () => {
    expect(english.size).toBeGreaterThan(100);
  });

  for (const locale of LOCALES) {
    describe(locale, () => {
      const messages = flatten(MESSAGES[locale] as unknown as Tree);

      it("has exactly the English keys, none empty", () => {
        expect([...messages.keys()].filter((key) => !english.has(key))).toEqual([]);
        expect([...english.keys()].filter((key) => !messages.has(key))).toEqual([]);
        expect([...messages].filter(([, text]) => text.trim() === "").map(([key]) => key)).toEqual([]);
      });

      it("keeps in every plural and select branch the placeholders all English branches of that argument have", () => {
        const missing: string[] = [];
        for (const [key, text] of messages) {
          const english = branches(parse(englishText(key)));
          for (const [argument, options] of branches(parse(text))) {
            const theirs = english.get(argument);
            if (!theirs) continue;
            const shared = [...theirs[0]].filter((p) => theirs.every((set) => set.has(p)));
            options.forEach((set, i) => {
              const lacking = shared.filter((p) => !set.has(p));
              if (lacking.length) missing.push(`${key} ${argument}[${i}]: ${lacking.join(" ")}`);
            });
          }
        }
        expect(missing).toEqual([]);
      });

      it("parses every message as ICU and uses the same placeholders and tags as English", () => {
        const mismatches: string[] = [];
        for (const [key, text] of messages) {
          const mine = [...placeholders(parse(text))].sort();
          const theirs = [...placeholders(parse(english.get(key) ?? ""))].sort();
          if (mine.join() !== theirs.join()) mismatches.push(`${key}: ${mine.join(" ")} ≠ ${theirs.join(" ")}`);
        }
        expect(mismatches).toEqual([]);
      });
    });
  }

  it("Czech is a translation, not a copy: most messages differ from English", () => {
    const czech = flatten(MESSAGES.cs as unknown as Tree);
    const same = [...czech].filter(([key, text]) => english.get(key) === text && /[a-z]{4}/.test(text));
    // Some texts are the same in both (state names, "API", "{from} → {to}"); a copy would be all of them.
    expect(same.length / czech.size).toBeLessThan(0.1);
  });

  it("plural messages cover Czech's one, few and other", () => {
    const czech = flatten(MESSAGES.cs as unknown as Tree);
    const incomplete: string[] = [];
    const visit = (key: string, elements: MessageFormatElement[]) => {
      for (const element of elements) {
        if (element.type === TYPE.plural) {
          const options = Object.keys(element.options);
          const covered = options.includes("other") && (options.includes("few") || options.some((o) => o.startsWith("=")));
          if (!covered) incomplete.push(`${key}: ${options.join(",")}`);
          for (const option of Object.values(element.options)) visit(key, option.value);
        } else if (element.type === TYPE.select) {
          for (const option of Object.values(element.options)) visit(key, option.value);
        } else if (element.type === TYPE.tag) visit(key, element.children);
      }
    };
    for (const [key, text] of czech) visit(key, parse(text));
    expect(incomplete).toEqual([]);
  });
});

describe("translator", () => {
  it("speaks the language asked for, with Czech plural forms", () => {
    expect(translator("en", "common")("nav.objects")).toBe("Objects");
    expect(translator("cs", "common")("nav.objects")).toBe("Objekty");
    expect(translator("cs", "common")("timeZone", { zone: "Europe/Prague" })).toBe("Časy v zóně Europe/Prague");
  });
});

describe("negotiateLocale", () => {
  it.each([
    ["cs-CZ,cs;q=0.9,en;q=0.8", "cs"],
    ["en-US,en;q=0.9,cs;q=0.8", "en"],
    ["de-DE,de;q=0.9,cs;q=0.5,en;q=0.4", "cs"],
    ["en;q=0.2, cs;q=0.7", "cs"],
    ["CS", "cs"],
    ["cs;q=0, en", "en"],
    ["de, fr", null],
    ["", null],
    [null, null],
    ["*", null],
    ["cs;q=abc, en;q=0.1", "en"],
  ])("%s → %s", (header, expected) => {
    expect(negotiateLocale(header)).toBe(expected);
  });
});
