import "server-only";
import * as z from "zod";
import { idSchema } from "../actions/ids";
import { zodError } from "../actions/message";
import { InputError } from "../actions/result";
import { readConfig } from "../config";
import type { SqlExecutor } from "../db/driver";
import { type Message, msg } from "../i18n/message";
import { readInstant } from "../input/values";

import { LOCK_OBJECT } from "./command";
import { REASON_MAX, START_GRACE_MS } from "./limits";

// The rules of a state request, which every request command shares (create, cancel, preview, the
// block commands, bulk): the input schemas and the checks a request must pass. How a command runs
// is ./command.ts; each command is a file of its own beside these two.

export const reasonSchema = z
  .string({ error: zodError("reason.missing") })
  .trim()
  .min(1, { error: zodError("reason.missing") })
  .max(REASON_MAX, { error: zodError("reason.tooLong", { max: REASON_MAX }) });
export const keySchema = z.uuid({ error: zodError("form.keyDamaged") }).optional();

export const createRequestSchema = z.object({
  objectId: idSchema("object"),
  state: z
    .string({ error: zodError("request.chooseState") })
    .trim()
    .min(1, { error: zodError("request.chooseState") })
    .max(50, { error: zodError("field.unknownState") }),
  from: z.string().trim().optional().default(""),
  to: z.string().trim().optional().default(""),
  reason: reasonSchema,
  idempotencyKey: keySchema,
});

export const cancelRequestSchema = z.object({
  requestId: idSchema("request"),
  reason: reasonSchema,
  idempotencyKey: keySchema,
});

export interface Checked {
  object: { id: number; name: string; type: string };
  state: { id: number; name: string };
  from: Date;
  to: Date | null;
}

/** An instant of a message, or "open-ended" for none. */
const when = (d: Date | null): Date | Message => d ?? msg("common.openEnded");

/** A request that would hold at the same time, for the same state or the other of in/out of zone. */
async function conflict(tx: SqlExecutor, c: Checked): Promise<Message | null> {
  const [row] = await tx.query<{ id: number; name: string; valid_from: Date; valid_to: Date | null; same: boolean }>(
    `SELECT r.id, s.name, r.valid_from, r.valid_to, r.state_id = $2 AS same
       FROM object_state_request r JOIN enum_object_states s ON s.id = r.state_id
      WHERE r.object_id = $1
        AND (r.state_id = $2 OR (r.state_id IN (5, 6) AND $2 IN (5, 6)))
        AND console.request_period(r.valid_from, r.valid_to, r.canceled) && console.request_period($3, $4, NULL)
      ORDER BY r.valid_from LIMIT 1`,
    [c.object.id, c.state.id, c.from, c.to],
  );
  if (!row) return null;
  const values = { object: c.object.name, id: String(row.id), state: row.name, from: row.valid_from, to: when(row.valid_to) };
  return msg(row.same ? "request.sameState" : "request.zoneClash", values);
}

/**
 * The rules of a new request, checked with the object locked (one request at a time per object):
 * the object exists and is not deleted; the state is manual and valid for its type; the start is
 * now or later; the end is after the start; nothing overlaps. The database's exclusion
 * constraints hold the overlap rules even for writers that skip this.
 */
export async function checkRequest(
  tx: SqlExecutor,
  data: z.output<typeof createRequestSchema>,
  now: Date,
  options: { viaBlock?: boolean } = {},
): Promise<Checked> {
  await tx.run(LOCK_OBJECT.byId, [data.objectId]);
  const [object] = await tx.query<{ id: number; name: string; type: string; type_id: number; erdate: Date | null }>(
    `SELECT o.id, o.name, t.name AS type, o.type AS type_id, o.erdate FROM object_registry o JOIN enum_object_type t ON t.id = o.type
      WHERE o.id = $1`,
    [data.objectId],
  );
  if (!object)
    throw new InputError(msg("request.noObject", { id: String(data.objectId) }), {
      objectId: [msg("input.unknown", { what: "object" })],
    });
  if (object.erdate)
    throw new InputError(msg("request.objectDeleted", { object: object.name, at: object.erdate }), {
      objectId: [msg("field.deleted")],
    });
  const [state] = await tx.query<{ id: number; name: string; manual: boolean; applies: boolean }>(
    "SELECT id, name, manual, $2 = ANY (types) AS applies FROM enum_object_states WHERE name = $1",
    [data.state, object.type_id],
  );
  if (!state) throw new InputError(msg("request.noState", { state: data.state.slice(0, 50) }), { state: [msg("field.unknownState")] });
  if (!state.manual) throw new InputError(msg("request.automatic", { state: state.name }), { state: [msg("field.automatic")] });
  if (!state.applies)
    throw new InputError(msg("request.notForType", { state: state.name, type: object.type }), { state: [msg("field.notForType")] });
  // serverBlocked is the block's: with its prohibitions, taken over and given back (./blocks).
  if (state.name === "serverBlocked" && !options.viaBlock)
    throw new InputError(msg("request.blockOnly", { object: object.name }), { state: [msg("field.blockOnly")] });

  const zone = readConfig().registryTimeZone;
  let from = now;
  if (data.from) {
    const read = readInstant(data.from, zone, now);
    if (read.problem === "notInstant")
      throw new InputError(msg("request.startNotInstant", { value: data.from.slice(0, 40) }), { from: [msg("field.notInstant")] });
    const parsed = read.problem === "tooFar" ? read.at : read.instant;
    if (parsed.getTime() < now.getTime() - START_GRACE_MS)
      throw new InputError(msg("request.startInPast", { from: parsed }), { from: [msg("field.inPast")] });
    if (read.problem === "tooFar")
      throw new InputError(msg("request.startTooFar", { from: parsed, years: read.years, latest: read.latest }), {
        from: [msg("field.tooFar", { years: read.years })],
      });
    from = parsed.getTime() < now.getTime() ? now : parsed;
  }
  let to: Date | null = null;
  if (data.to) {
    const read = readInstant(data.to, zone, now);
    if (read.problem === "notInstant")
      throw new InputError(msg("request.endNotInstant", { value: data.to.slice(0, 40) }), { to: [msg("field.notInstant")] });
    const parsed = read.problem === "tooFar" ? read.at : read.instant;
    if (parsed.getTime() <= now.getTime()) throw new InputError(msg("request.endInPast", { to: parsed }), { to: [msg("field.inPast")] });
    if (parsed.getTime() <= from.getTime())
      throw new InputError(msg("request.endNotAfterStart", { to: parsed, from }), { to: [msg("field.beforeStart")] });
    if (read.problem === "tooFar")
      throw new InputError(msg("request.endTooFar", { to: parsed, years: read.years, latest: read.latest }), {
        to: [msg("field.tooFar", { years: read.years })],
      });
    to = parsed;
  }
  const checked = { object: { id: object.id, name: object.name, type: object.type }, state, from, to };
  const clash = await conflict(tx, checked);
  if (clash) throw new InputError(clash, { from: [msg("field.overlapsRequest")] });
  const block = await blockOver(tx, checked);
  if (block && !options.viaBlock && state.name.startsWith("server") && state.name !== "serverBlocked")
    throw new InputError(msg("request.blocked", { object: object.name, block: String(block.id), from: block.from, to: when(block.to) }), {
      state: [msg("field.blocked")],
    });
  return checked;
}

/** A block of the object not lifted whose period meets the checked one. */
async function blockOver(tx: SqlExecutor, c: Pick<Checked, "object" | "from" | "to">) {
  const [block] = await tx.query<{ id: number; from: Date; to: Date | null }>(
    `SELECT b.id, r.valid_from AS from, r.valid_to AS to FROM console.blocks b JOIN object_state_request r ON r.id = b.blocked_request_id
      WHERE b.object_id = $1 AND b.unblocked_at IS NULL
        AND console.request_period(r.valid_from, r.valid_to, r.canceled) && console.request_period($2, $3, NULL) LIMIT 1`,
    [c.object.id, c.from, c.to],
  );
  return block ?? null;
}
