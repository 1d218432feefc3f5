// What a server action request may carry, checked by proxy.ts (through lib/input/body.ts) before
// Next's decoder sees it. Every server action of the console takes (previous state, form) — it is
// bound with useActionState or called with a FormData — so React's encodeReply always sends the
// same shape, and anything else is refused with a 400 instead of failing in the decoder or in the
// action (a 500, logged with a stack):
//
// - a fetch action (a POST with a Next-Action header) sends multipart/form-data whose field "0" is
//   the JSON array [previous state, "$K<n>"], "$K<n>" naming the form's fields (prefixed "<n>_");
// - a form posted before the page's script runs (no Next-Action header) carries one
//   "$ACTION_REF_<n>" field, "$ACTION_<n>:0" = {"id":"<action id>","bound":"$@<m>"} and
//   "$ACTION_<n>:<m>" = [previous state]; the rest are the form's fields.
//
// The previous state is an ActionResult (or null): plain JSON in which a string starting with "$"
// is one of the few escapes React writes for plain values; every other "$" reference (to files,
// promises, streams, other chunks, server functions) is refused.

/** Next's own test for a possible action id (hex), so a malformed one is refused here. */
const ACTION_ID = /^[0-9a-f]{2,128}$/i;
/** Strings React's reply encoding writes for plain values: an escaped "$", undefined, numbers JSON lacks, dates, bigints. */
const PLAIN_ESCAPE = /^\$(\$[\s\S]*|undefined|NaN|Infinity|-Infinity|-0|D[\s\S]*|n-?\d{1,400})$/;
const FORM_REFERENCE = /^\$K([0-9a-f]{1,8})$/;
const BOUND_REFERENCE = /^\$@([0-9a-f]{1,8})$/;
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Whether `value` (parsed JSON) is what a previous state can be: plain data, only plain escapes. */
function isPlainState(value: unknown): boolean {
  const pending: unknown[] = [value];
  for (let seen = 0; pending.length > 0; seen++) {
    if (seen > 100_000) return false;
    const next = pending.pop();
    if (typeof next === "string") {
      if (next.startsWith("$") && !PLAIN_ESCAPE.test(next)) return false;
    } else if (next !== null && typeof next === "object") {
      for (const [key, inner] of Object.entries(next)) {
        if (FORBIDDEN_KEYS.has(key)) return false;
        pending.push(inner);
      }
    }
  }
  return true;
}

function parsedJson(text: FormDataEntryValue | null): unknown {
  if (typeof text !== "string") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A fetch action's arguments, field "0" of its form: [previous state, the form]. */
function isFetchActionForm(form: FormData): boolean {
  const roots = form.getAll("0");
  if (roots.length !== 1) return false;
  const args = parsedJson(roots[0]);
  return Array.isArray(args) && args.length === 2 && isPlainState(args[0]) && typeof args[1] === "string" && FORM_REFERENCE.test(args[1]);
}

/** A form posted to an action without script: one bound action, its previous state as its only bound argument. */
function isPostedActionForm(form: FormData): boolean {
  const keys = [...form.keys()].filter((key) => key.startsWith("$ACTION_"));
  if (keys.length === 0) return true; // not an action: Next renders the page
  const refs = keys.filter((key) => key.startsWith("$ACTION_REF_"));
  if (refs.length !== 1) return false;
  const n = refs[0].slice("$ACTION_REF_".length);
  if (!/^\d{1,8}$/.test(n)) return false;
  const descriptor = parsedJson(form.get(`$ACTION_${n}:0`));
  if (descriptor === null || typeof descriptor !== "object" || Array.isArray(descriptor)) return false;
  const { id, bound, ...rest } = descriptor as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || typeof id !== "string" || !ACTION_ID.test(id)) return false;
  const chunk = typeof bound === "string" ? BOUND_REFERENCE.exec(bound)?.[1] : undefined;
  if (!chunk || chunk === "0") return false;
  const boundArgs = parsedJson(form.get(`$ACTION_${n}:${chunk}`));
  if (!Array.isArray(boundArgs) || boundArgs.length !== 1 || !isPlainState(boundArgs[0])) return false;
  const allowed = new Set([refs[0], `$ACTION_${n}:0`, `$ACTION_${n}:${chunk}`, "$ACTION_KEY"]);
  return keys.every((key) => allowed.has(key)) && form.getAll(`$ACTION_${n}:${chunk}`).length === 1;
}

export const ACTION_REFUSED =
  "The request is not one of the console's forms (a server action's arguments are malformed); nothing was done.";

/** How Next tells a server action request: a POST with a Next-Action header (a "fetch action"), or a multipart POST. */
export function serverActionKind(request: Request): "fetch" | "form" | null {
  if (request.method !== "POST") return null;
  if (request.headers.has("next-action")) return "fetch";
  // Next's own test, on the header as sent (case and all).
  return request.headers.get("content-type")?.startsWith("multipart/form-data") ? "form" : null;
}

/**
 * Why a server action request is refused (ACTION_REFUSED), or null when its arguments have the
 * shape of the console's forms. `form`: the body read as form data, null when it is not a form.
 */
export function actionRefusal(request: Request, form: FormData | null): string | null {
  const kind = serverActionKind(request);
  if (kind === "fetch") {
    const id = request.headers.get("next-action") ?? "";
    // Next reads anything but a multipart body (by its Content-Type as sent) as one JSON text.
    const multipart = request.headers.get("content-type")?.startsWith("multipart/form-data");
    return ACTION_ID.test(id) && multipart && form && isFetchActionForm(form) ? null : ACTION_REFUSED;
  }
  if (kind === "form") return form && isPostedActionForm(form) ? null : ACTION_REFUSED;
  return null;
}
