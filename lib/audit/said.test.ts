import { describe, expect, it } from "vitest";
import { english, render } from "../actions/message";
import { msg } from "../i18n/message";
import { refusalInput, restoredMessage, shownInput, storedMessage } from "./said";

// The audit log keeps a refusal's message (key and values) beside its English, and says it in the
// reader's language; what is no message of the console's is shown as recorded.
describe("refusals in the audit log, in the reader's language", () => {
  const startInPast = msg("request.startInPast", { from: new Date("2026-11-20T09:00:00Z") });
  const nested = msg("block.changed", {
    id: "3",
    change: msg("request.summaryOpen", { state: "serverBlocked", object: "a.cz", from: new Date("2026-12-01T09:00:00Z") }),
  });
  const zod = msg("input.checked", { text: { en: "Invalid input", cs: "Neplatný vstup" } });

  it("keeps a message as JSON and gets it back whole: instants, nested messages, texts in each language", () => {
    for (const message of [startInPast, nested, zod, msg("reason.missing")]) {
      const stored = JSON.parse(JSON.stringify(storedMessage(message)));
      expect(restoredMessage(stored)).toEqual(message);
    }
    expect(storedMessage(startInPast)).toEqual({ key: "request.startInPast", values: { from: { instant: "2026-11-20T09:00:00.000Z" } } });
  });

  it("records the English as before, and the message beside it", () => {
    expect(refusalInput(startInPast)).toEqual({ error: english(startInPast), errorMessage: storedMessage(startInPast) });
    expect(refusalInput("currentPassword")).toEqual({ error: "currentPassword" });
  });

  it("says a kept message in the reader's language, without the kept message itself", () => {
    const input = JSON.parse(JSON.stringify({ objectId: 7, ...refusalInput(nested) }));
    expect(shownInput(input, "cs")).toEqual([
      ["objectId", 7],
      ["error", render(nested, "cs")],
    ]);
    expect(render(nested, "cs")).not.toBe(english(nested));
    expect(shownInput(input, "en")).toEqual([
      ["objectId", 7],
      ["error", english(nested)],
    ]);
  });

  it("finds an entry recorded before messages were kept by its words, when it is a catalogue message without values", () => {
    expect(shownInput({ error: "Give a reason." }, "cs")).toEqual([["error", render(msg("reason.missing"), "cs")]]);
    expect(render(msg("reason.missing"), "cs")).not.toBe("Give a reason.");
  });

  it("shows as recorded what is no message of the console's, or a kept message that is damaged", () => {
    expect(shownInput({ userId: 1, error: "currentPassword" }, "cs")).toEqual([
      ["userId", 1],
      ["error", "currentPassword"],
    ]);
    expect(shownInput({ error: "Something a library said." }, "cs")).toEqual([["error", "Something a library said."]]);
    for (const damaged of [
      { key: "no.such.message" },
      { key: "request.startInPast", values: { from: { instant: "not a time" } } },
      { key: "request.startInPast", values: { from: [1] } },
      { key: "request.startInPast", values: "x" },
      { key: "toString" },
      "request.startInPast",
    ]) {
      expect(restoredMessage(damaged), JSON.stringify(damaged)).toBeUndefined();
      expect(shownInput({ error: "The start was in the past.", errorMessage: damaged }, "cs")).toEqual([
        ["error", "The start was in the past."],
      ]);
    }
    // A kept message whose values no longer fit its text: as recorded.
    expect(shownInput({ error: "recorded", errorMessage: { key: "request.startInPast" } }, "cs")).toEqual([["error", "recorded"]]);
  });
});
