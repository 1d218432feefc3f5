// What a request body may be, checked by proxy.ts before anything parses it: at most MAX_BODY_BYTES
// whether its length is announced (Content-Length) or it streams in chunks, and no JSON in it (a
// server action's arguments, a form field React reads as JSON) nested deeper than MAX_JSON_DEPTH,
// since parsers walk nesting recursively and a deep enough value overflows the server's stack.
// parseInput (lib/actions/result.ts) holds action inputs to the same depth.
import { ACTION_REFUSED, actionRefusal, serverActionKind } from "./action-body";

/** The largest body the console accepts (Next's own limit for server actions): a bulk list of 10,000 names is about 200 KB. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The deepest nesting of arrays and objects a body or an input may have; the console's own forms send fewer than 10 levels. */
export const MAX_JSON_DEPTH = 64;

/** Why a body is refused: the status and the (English) JSON error of the answer. */
export interface BodyRefusal {
  status: 400 | 413;
  error: string;
}

const bytes = (n: number) => n.toLocaleString("en");

/**
 * Whether `text` nests brackets ([ and {, outside JSON strings) deeper than `max`: one pass, no
 * parsing, so it is safe on any input.
 */
export function nestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return false;
}

/** The body's bytes when there are at most `max`; null (and the rest left unread) when there are more. */
async function readAtMost(body: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
}

/** A form body (multipart or URL-encoded) read; null when it cannot be read as one. */
async function readForm(body: Uint8Array<ArrayBuffer>, contentType: string): Promise<FormData | null> {
  try {
    return await new Response(body, { headers: { "Content-Type": contentType } }).formData();
  } catch {
    return null;
  }
}

/**
 * Why the body of `request` is refused, or null when it may go on: larger than MAX_BODY_BYTES (by
 * its Content-Length, else as it streams in), a form that cannot be read, JSON nested deeper
 * than MAX_JSON_DEPTH (the whole body of a JSON or plain-text request; each field of a form), or
 * a server action request whose arguments are not what the console's forms send
 * (lib/input/action-body.ts). GET and HEAD carry no body.
 */
export async function bodyRefusal(request: Request): Promise<BodyRefusal | null> {
  const announced = request.headers.get("content-length");
  const length = announced === null ? null : Number(announced);
  if (length !== null && length > MAX_BODY_BYTES)
    return { status: 413, error: `The request is too large: ${bytes(length)} bytes, at most ${bytes(MAX_BODY_BYTES)}.` };
  if (request.method === "GET" || request.method === "HEAD") return null;
  const action = serverActionKind(request);
  const malformedAction = { status: 400, error: ACTION_REFUSED } as const;
  if (!request.body) return action ? malformedAction : null;
  const body = await readAtMost(request.body, MAX_BODY_BYTES);
  if (!body) return { status: 413, error: `The request is too large: more than ${bytes(MAX_BODY_BYTES)} bytes.` };
  if (body.byteLength === 0) return action ? malformedAction : null;
  const contentType = request.headers.get("content-type") ?? "";
  const type = contentType.split(";")[0].trim().toLowerCase();
  const deep = { status: 400, error: `The request nests data more than ${MAX_JSON_DEPTH} levels deep; nothing was done.` } as const;
  if (type === "multipart/form-data" || type === "application/x-www-form-urlencoded") {
    const form = await readForm(body, contentType);
    if (!form) return { status: 400, error: "The request's form data cannot be read; nothing was done." };
    const texts = [...form.values()].filter((value): value is string => typeof value === "string");
    if (texts.some((text) => nestsDeeperThan(text))) return deep;
    return actionRefusal(request, form) ? malformedAction : null;
  }
  if (nestsDeeperThan(new TextDecoder().decode(body))) return deep;
  return actionRefusal(request, null) ? malformedAction : null;
}
