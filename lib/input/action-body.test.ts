import fc from "fast-check";
// @ts-expect-error: React's client for server functions, as Next bundles it, has no types of its own.
import { encodeReply } from "next/dist/compiled/react-server-dom-webpack/client.edge.js";
import { describe, expect, it } from "vitest";
import { ACTION_REFUSED } from "./action-body";
import { bodyRefusal } from "./body";

// Server action requests of every shape, as proxy.ts sees them: only the shape the console's forms
// send (React's encodeReply of [previous state, FormData], or a form posted before the page's
// script ran) goes on to Next's decoder; everything else is a 400 that changes nothing.
const ID = "608f31873b13d833062df25d8bc2afb6d801fd0ce4";
const refused = { status: 400, error: ACTION_REFUSED };

const action = (body: BodyInit | null, headers: Record<string, string> = {}, withId = true) =>
  new Request("http://console.test/requests/bulk", {
    method: "POST",
    body,
    headers: { ...(withId ? { "Next-Action": ID } : {}), ...headers },
    duplex: "half",
  } as RequestInit);

const text = (body: string) => action(body, { "Content-Type": "text/plain;charset=UTF-8" });

function form(fields: [string, string][]): FormData {
  const data = new FormData();
  for (const [key, value] of fields) data.append(key, value);
  return data;
}

/** What the console's forms send: React's own encodeReply of (previous state, form), as the browser runs it. */
async function sent(previous: unknown, fields: [string, string][] = [["names", "a.cz"]]): Promise<FormData> {
  const encoded = await encodeReply([previous, form(fields)]);
  if (!(encoded instanceof FormData)) throw new Error("encodeReply of a form is a form");
  return encoded;
}

/** A form posted before the page's script ran (useActionState's progressive enhancement). */
const posted = (previous: unknown, fields: [string, string][] = [["names", "a.cz"]]) =>
  form([
    ["$ACTION_REF_1", ""],
    ["$ACTION_1:0", JSON.stringify({ id: ID, bound: "$@1" })],
    ["$ACTION_1:1", JSON.stringify([previous])],
    ["$ACTION_KEY", "k1d2e3"],
    ...fields,
  ]);

describe("server action requests", () => {
  it("lets what the console's forms send go on", async () => {
    expect(await bodyRefusal(action(await sent(null)))).toBeNull();
    expect(await bodyRefusal(action(await sent(undefined)))).toBeNull();
    // Whatever an action answered comes back as the previous state: "$" escaped, undefined, dates, -0.
    const previous = {
      ok: false,
      code: "invalid",
      error: "Costs $5 and $$; 100% sure",
      fieldErrors: { from: ["Not a date."] },
      data: { none: undefined, at: new Date(0), zero: -0, big: 10n, list: [1, "$K1", { $x: "$@1" }] },
    };
    expect(await bodyRefusal(action(await sent(previous)))).toBeNull();
    expect(await bodyRefusal(action(form([["0", '["$undefined","$K1"]']])))).toBeNull();
    expect(await bodyRefusal(action(posted(null), {}, false))).toBeNull();
    expect(await bodyRefusal(action(posted({ ok: true, message: "Done." }), {}, false))).toBeNull();
    // A multipart POST that is no action at all is left to the page.
    expect(await bodyRefusal(action(form([["names", "a.cz"]]), {}, false))).toBeNull();
  });

  // The bodies of issue 39 that answered 500, each logged with a stack.
  it.each([
    ["[]", "[]"],
    ["{{{", "{{{"],
    ['"abc"', '"abc"'],
    ['["$undefined",{}]', '["$undefined",{}]'],
    ["nesting under the 64-level limit", `${"[".repeat(60)}${"]".repeat(60)}`],
    ["an empty body", ""],
  ])("refuses a fetch action whose plain-text body is %s with a 400", async (_name, body) => {
    expect(await bodyRefusal(text(body))).toEqual(refused);
  });

  it.each<[string, FormData]>([
    ["no arguments", form([["0", "[]"]])],
    ["one argument", form([["0", "[null]"]])],
    ["three arguments", form([["0", '[null,"$K1",1]']])],
    ["a non-array", form([["0", '"abc"']])],
    ["broken JSON", form([["0", "{{{"]])],
    ["an object instead of the form", form([["0", '["$undefined",{}]']])],
    ["no field 0", form([["1_names", "a.cz"]])],
    [
      "two fields 0",
      form([
        ["0", '[null,"$K1"]'],
        ["0", '[null,"$K1"]'],
      ]),
    ],
    ["a reference to a file as the form", form([["0", '[null,"$B1"]']])],
    [
      "a promise in the previous state",
      form([
        ["0", '["$@1","$K1"]'],
        ["1", "[]"],
      ]),
    ],
    [
      "a chunk reference in the previous state",
      form([
        ["0", '[{"a":"$1"},"$K1"]'],
        ["1", "{}"],
      ]),
    ],
    ["a server function in the previous state", form([["0", `[{"a":"$h${ID}"},"$K1"]`]])],
    ["a malformed bigint", form([["0", '["$nabc","$K1"]']])],
    ["a __proto__ key", form([["0", '[{"__proto__":{"then":1}},"$K1"]']])],
  ])("refuses a fetch action whose form holds %s", async (_name, body) => {
    expect(await bodyRefusal(action(body))).toEqual(refused);
  });

  it("refuses a fetch action with a malformed id, a text or URL-encoded body, or a Content-Type in other case", async () => {
    expect(await bodyRefusal(action(await sent(null), { "Next-Action": "not an id" }))).toEqual(refused);
    expect(await bodyRefusal(action(await sent(null), { "Next-Action": "" }))).toEqual(refused);
    expect(await bodyRefusal(text(JSON.stringify([null, "$K1"])))).toEqual(refused);
    expect(await bodyRefusal(action(new URLSearchParams({ 0: '[null,"$K1"]' })))).toEqual(refused);
    // Next tells multipart by the header as sent: this one it would read as JSON text.
    const multipart = new Response(await sent(null));
    const contentType = (multipart.headers.get("content-type") ?? "").replace("multipart/form-data", "Multipart/Form-Data");
    expect(await bodyRefusal(action(await multipart.arrayBuffer(), { "Content-Type": contentType }))).toEqual(refused);
    // No body at all.
    expect(await bodyRefusal(action(null))).toEqual(refused);
  });

  it.each<[string, FormData]>([
    ["an action called with the form alone ($ACTION_ID_)", form([[`$ACTION_ID_${ID}`, ""], ["names", "x"]])],
    ["a descriptor that is not JSON", form([["$ACTION_REF_1", ""], ["$ACTION_1:0", "{{{"]])],
    ["no descriptor", form([["$ACTION_REF_1", ""]])],
    ["two actions", (() => {
      const data = posted(null);
      data.append("$ACTION_REF_2", "");
      return data;
    })()],
    ["bound arguments that are not [previous state]", form([
      ["$ACTION_REF_1", ""],
      ["$ACTION_1:0", JSON.stringify({ id: ID, bound: "$@1" })],
      ["$ACTION_1:1", "[]"],
    ])],
    ["a descriptor bound to itself", form([["$ACTION_REF_1", ""], ["$ACTION_1:0", JSON.stringify({ id: ID, bound: "$@0" })]])],
    ["a descriptor with a malformed id", form([
      ["$ACTION_REF_1", ""],
      ["$ACTION_1:0", JSON.stringify({ id: "../x", bound: "$@1" })],
      ["$ACTION_1:1", "[null]"],
    ])],
    ["a previous state referring to a stream", posted({ a: "$R1" })],
  ])("refuses a form posted without script carrying %s", async (_name, body) => {
    expect(await bodyRefusal(action(body, {}, false))).toEqual(refused);
  }); // biome-ignore format: a table

  // Random bodies and headers: whatever is not the forms' shape is refused, and the check never throws.
  it("refuses every random body that is not the forms' shape, and never throws", async () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    const field = fc.oneof(
      fc.string({ maxLength: 30 }),
      json.map((value) => JSON.stringify(value)),
      fc.constantFrom("[]", "{{{", '"abc"', '["$undefined",{}]', '[null,"$K1"]', '[null,"$K1",2]', '["$@1","$K1"]', "$K1", ""),
    );
    const key = fc.oneof(
      fc.constantFrom("0", "1", "1_names", "$ACTION_REF_1", "$ACTION_1:0", "$ACTION_1:1", "$ACTION_KEY"),
      fc.string({ maxLength: 12 }),
    );
    const body = fc.oneof(
      fc.record({ kind: fc.constant("text" as const), text: fc.oneof(fc.string({ maxLength: 200 }), field) }),
      fc.record({ kind: fc.constant("form" as const), fields: fc.array(fc.tuple(key, field), { maxLength: 6 }) }),
    );
    const contentType = fc.constantFrom("text/plain;charset=UTF-8", "application/json", "text/x-component", undefined);
    await fc.assert(
      fc.asyncProperty(body, fc.boolean(), contentType, async (given, fetchAction, type) => {
        const request =
          given.kind === "text"
            ? action(given.text, type ? { "Content-Type": type } : {}, fetchAction)
            : action(form(given.fields), {}, fetchAction);
        const refusal = await bodyRefusal(request);
        if (refusal === null) {
          // Only what has the shape goes on: a fetch action's [state, "$K<n>"] or a form without script.
          if (given.kind === "text") expect(fetchAction).toBe(false);
          else if (fetchAction) expect(JSON.parse(String(given.fields.find(([k]) => k === "0")?.[1]))[1]).toMatch(/^\$K[0-9a-f]+$/);
        } else expect([400, 413]).toContain(refusal.status);
      }),
      { numRuns: 400 },
    );
  });
});
