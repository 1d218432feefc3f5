import { describe, expect, it } from "vitest";
import * as z from "zod";
import { nested, streamed } from "../../testing/bodies";
import { english } from "../actions/message";
import { InputError, parseInput } from "../actions/result";
import { bodyRefusal, MAX_BODY_BYTES, MAX_JSON_DEPTH, nestsDeeperThan } from "./body";

const post = (body: BodyInit | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  new Request("http://console.test/objects/1", { method: "POST", body, headers, duplex: "half" } as RequestInit);

describe("request bodies", () => {
  it("measures nesting without parsing, brackets inside strings not counted", () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestsDeeperThan(nested(100_000))).toBe(true);
    expect(nestsDeeperThan(`["${"[".repeat(500)}", "\\"${"{".repeat(500)}"]`)).toBe(false);
    expect(nestsDeeperThan(`{"a":[{"b":[1,2,{"c":"]]]]"}]}]}`, 5)).toBe(false);
    expect(nestsDeeperThan(`{"a":[{"b":[1,2,{"c":[]}]}]}`, 5)).toBe(true);
  });

  it("refuses a body over the limit whether its length is announced or it streams in chunks", async () => {
    expect(await bodyRefusal(post("x".repeat(2 * 1024 * 1024), { "Content-Type": "text/plain", "Content-Length": "2097152" }))).toEqual({
      status: 413,
      error: "The request is too large: 2,097,152 bytes, at most 1,048,576.",
    });
    const chunked = post(streamed(3 * 1024 * 1024), { "Content-Type": "text/plain" });
    expect(chunked.headers.get("content-length")).toBeNull();
    expect(await bodyRefusal(chunked)).toEqual({ status: 413, error: "The request is too large: more than 1,048,576 bytes." });
    // Exactly the limit is accepted.
    expect(await bodyRefusal(post(streamed(MAX_BODY_BYTES), { "Content-Type": "text/plain" }))).toBeNull();
  });

  it("refuses JSON nested deeper than the limit, as a whole body and as a form's field", async () => {
    const refused = { status: 400, error: `The request nests data more than ${MAX_JSON_DEPTH} levels deep; nothing was done.` };
    expect(await bodyRefusal(post(nested(100_000), { "Content-Type": "text/plain;charset=UTF-8" }))).toEqual(refused);
    expect(await bodyRefusal(post(nested(100_000), { "Content-Type": "application/json" }))).toEqual(refused);
    const form = new FormData();
    form.set("1_reason", "fine");
    form.set("0", nested(100_000));
    expect(await bodyRefusal(post(form))).toEqual(refused);
    expect(await bodyRefusal(post(new URLSearchParams({ 0: nested(1_000) })))).toEqual(refused);
    // What the console's own forms send goes on.
    const ok = new FormData();
    ok.set("0", JSON.stringify([{ ok: false, code: "invalid", fieldErrors: { from: ["Not a date and time."] } }, "$K1"]));
    ok.set("1_reason", "[customer asked]");
    expect(await bodyRefusal(post(ok))).toBeNull();
    expect(await bodyRefusal(post(JSON.stringify([null, { a: [1, { b: 2 }] }]), { "Content-Type": "text/plain" }))).toBeNull();
    expect(await bodyRefusal(new Request("http://console.test/objects"))).toBeNull();
  });

  it("refuses a form body that cannot be read as one", async () => {
    expect(await bodyRefusal(post("--x\r\nnonsense", { "Content-Type": "multipart/form-data; boundary=x" }))).toEqual({
      status: 400,
      error: "The request's form data cannot be read; nothing was done.",
    });
  });

  it("holds a server action's input to the same depth before its schema walks it", () => {
    let deepInput: unknown = "x";
    for (let i = 0; i < 100_000; i++) deepInput = [deepInput];
    const schema = z.object({ names: z.unknown() });
    const refusal = (() => {
      try {
        parseInput(schema, { names: deepInput });
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(InputError);
    expect(english((refusal as InputError).text)).toBe(
      "The form's data is nested more than 64 levels deep, which no form of the console sends; nothing was changed.",
    );
    // A NUL character anywhere, however deep (within the limit), is refused too.
    let nul: unknown = "a\u0000b";
    for (let i = 0; i < 10; i++) nul = { inner: nul };
    expect(() => parseInput(schema, { names: nul })).toThrow("The form holds a NUL character");
    expect(parseInput(schema, { names: [[["fine"]]] })).toEqual({ names: [[["fine"]]] });
  });
});
