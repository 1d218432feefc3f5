import "server-only";
import { randomUUID } from "node:crypto";
import * as z from "zod";
import { auditedChange } from "../actions/change";
import { idSchema } from "../actions/ids";
import { zodError } from "../actions/message";
import { InputError, parseInput } from "../actions/result";
import { restoredMessage, storedMessage } from "../audit/said";
import { authorize } from "../auth/guard";
import { requestDatabase } from "../auth/request-context";
import { roleAllows } from "../auth/roles";
import type { Actor } from "../auth/sessions";
import type { SqlExecutor } from "../db/driver";
import { type Message, msg } from "../i18n/message";
import { blockObject, blockWork } from "../requests/block";
import { blockSchema, DEFAULT_PROHIBITIONS, lockBlock, unblockSchema } from "../requests/block-rules";
import { cancelStateRequest, cancelWork } from "../requests/cancel";
import { changeInstant, LOCK_OBJECT } from "../requests/command";
import { createStateRequest, createWork } from "../requests/create";
import { START_GRACE_MS } from "../requests/limits";
import { cancelRequestSchema, createRequestSchema, reasonSchema } from "../requests/rules";
import { unblockObject, unblockWork } from "../requests/unblock";
import { caseEvent, caseIdSchema, caseOf } from "./cases";
import { type ChangeContext, caseOfItem, inCaseSchema } from "./context";
import { mailApprovers } from "./mail";
import { type ChangeKind, needsApproval } from "./policy";

// Changes that wait for a second person (four-eyes approval, issue 42). A proposal is the command's
// own input, checked by a dry run of the command (its work in a savepoint, undone) and kept;
// nothing reaches FRED's tables. Another person with the right to make it approves it: the command
// runs again, for real, in the approver's transaction, with the object locked and the pending row
// taken, so two approvers at once apply it once; if its dry run no longer holds, the approval is
// refused with the reason and nothing is applied. Or they reject it with a reason; its proposer may
// withdraw it.

interface Made {
  message: Message;
  summary: Message;
  objectId: number;
  audited: Record<string, unknown>;
  applied: Record<string, number>;
}

interface Command<S extends z.ZodType> {
  schema: S;
  change: ChangeKind;
  /** The lock of the object it changes (every writer's first step). */
  lock(data: z.output<S>): [sql: string, id: number];
  /** The states it makes or lifts, the main one first (the queue's; the policy asks of each). */
  states(db: SqlExecutor, data: z.output<S>): Promise<string[]>;
  /** The change, as its command makes it, in the caller's transaction. */
  work(tx: SqlExecutor, data: z.output<S>, actor: Actor, now: Date, context: ChangeContext): Promise<Made>;
}

const COMMANDS = {
  "block.create": {
    schema: blockSchema,
    change: "make",
    lock: (data) => [LOCK_OBJECT.byId, data.objectId],
    // A block sets its prohibitions too, each under the policy (blockWork checks each).
    states: async (_, data) => ["serverBlocked", ...(data.prohibitions?.length ? data.prohibitions : DEFAULT_PROHIBITIONS)],
    async work(tx, data, actor, now, context) {
      const r = await blockWork(tx, data, actor, now, null, "console", context);
      return { ...r, applied: { blockId: r.blockId } };
    },
  } satisfies Command<typeof blockSchema>,
  "request.create": {
    schema: createRequestSchema,
    change: "make",
    lock: (data) => [LOCK_OBJECT.byId, data.objectId],
    states: async (_, data) => [data.state],
    async work(tx, data, actor, now, context) {
      const r = await createWork(tx, data, actor, now, null, context);
      return { ...r, applied: { requestId: r.requestId } };
    },
  } satisfies Command<typeof createRequestSchema>,
  "block.lift": {
    schema: unblockSchema,
    change: "lift",
    lock: lockBlock,
    states: async () => ["serverBlocked"],
    async work(tx, data, actor, now, context) {
      const r = await unblockWork(tx, data, actor, now, context);
      return { ...r, applied: { blockId: r.blockId } };
    },
  } satisfies Command<typeof unblockSchema>,
  "request.cancel": {
    schema: cancelRequestSchema,
    change: "lift",
    lock: (data) => [LOCK_OBJECT.byRequest, data.requestId],
    async states(db, data) {
      const [row] = await db.query<{ name: string }>(
        "SELECT s.name FROM object_state_request r JOIN enum_object_states s ON s.id = r.state_id WHERE r.id = $1",
        [data.requestId],
      );
      return [row?.name ?? ""];
    },
    async work(tx, data, actor, now, context) {
      const r = await cancelWork(tx, data, actor, now, context);
      return { ...r, applied: { requestId: r.requestId } };
    },
  } satisfies Command<typeof cancelRequestSchema>,
} as const;

export type CommandName = keyof typeof COMMANDS;
const COMMAND_NAMES = Object.keys(COMMANDS) as [CommandName, ...CommandName[]];

const proposeSchema = z.object({
  command: z.enum(COMMAND_NAMES, { error: zodError("case.commandUnknown") }),
  caseId: caseIdSchema.optional(),
  input: z.record(z.string(), z.unknown(), { error: zodError("case.commandUnknown") }),
  batchId: z.uuid({ error: zodError("form.batchDamaged") }).optional(),
});

const pendingIdSchema = idSchema("change");

const approveSchema = z.object({
  pendingId: pendingIdSchema,
  /** The version the approver saw: a change its proposer edited since is approved anew. */
  version: z.coerce
    .number({ error: zodError("case.changeUnknown") })
    .int()
    .positive(),
  /** Its start passed while it waited: apply it from now (said so by the approver). */
  fromNow: z.boolean().optional().default(false),
});

const rejectSchema = z.object({ pendingId: pendingIdSchema, reason: reasonSchema });
const withdrawSchema = z.object({ pendingId: pendingIdSchema });

/** A command's work as it would be done now, undone (a savepoint): its summary, or its refusal. */
async function dryRun(tx: SqlExecutor, run: () => Promise<Made>): Promise<Made> {
  await tx.query("SAVEPOINT pending_dry_run");
  try {
    return await run();
  } finally {
    await tx.query("ROLLBACK TO SAVEPOINT pending_dry_run");
  }
}

const commandOf = (name: string) => COMMANDS[name as CommandName] as unknown as Command<z.ZodType<Record<string, unknown>>>;

/** Proposes a change for a second person to approve (any change may be; the policy says which must). */
export async function proposeChange(input: unknown): Promise<{ message: Message; pendingId: number }> {
  const proposed = await auditedChange("cases.write", "change.propose", proposeSchema, input, async (tx, data, actor) => {
    const command = commandOf(data.command);
    const commandInput = parseInput(command.schema, data.input);
    const [lockSql, lockId] = command.lock(commandInput);
    await tx.run(lockSql, [lockId]);
    const now = await changeInstant(tx);
    const c = data.caseId ? await caseOf(tx, data.caseId, { open: true, share: true }) : null;
    const { id, made } = await proposeIn(tx, actor, now, c, data.command, commandInput, data.batchId ?? null);
    return {
      result: { message: msg("case.proposed", { id: String(id), summary: made.summary }), pendingId: id },
      audit: { objectIds: [made.objectId], input: { pendingId: id, command: data.command, ...made.audited } },
    };
  });
  mailApprovers((await requestDatabase()).sql, [proposed.pendingId]);
  return proposed;
}

/** A change's start when it is after `now` (a proposal waiting for it is late once it passes), else null. */
const laterStart = (made: Made, now: Date): Date | null =>
  made.audited.from instanceof Date && made.audited.from > now ? made.audited.from : null;

/** Keeps a proposal after its dry run (the object locked, `now` read after the lock), and says so in its case's record. */
export async function proposeIn(
  tx: SqlExecutor,
  actor: Actor,
  now: Date,
  c: { id: number; kind: string; reference: string } | null,
  name: CommandName,
  commandInput: Record<string, unknown>,
  batchId: string | null,
): Promise<{ id: number; made: Made }> {
  const command = commandOf(name);
  const made = await dryRun(tx, () => command.work(tx, commandInput, actor, now, { case: c, dryRun: true, change: command.change }));
  const [{ id }] = await tx.query<{ id: number }>(
    `INSERT INTO console.pending_changes (case_id, command, object_id, input, state, change, summary, starts_at, proposed_by,
                                          proposed_by_id, proposed_at, batch_id)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7::jsonb, $8, $9, $10, $11, $12) RETURNING id`,
    [
      c?.id ?? null,
      name,
      made.objectId,
      JSON.stringify(commandInput),
      (await command.states(tx, commandInput))[0],
      command.change,
      JSON.stringify(storedMessage(made.summary)),
      laterStart(made, now),
      actor.username,
      actor.userId,
      now,
      batchId,
    ],
  );
  if (c) await caseEvent(tx, c.id, actor, "proposed", { command: name, summary: made.summary }, { pendingId: id, objectId: made.objectId });
  return { id, made };
}

/** Makes a change at once, in a case when one is given; the policy must allow it (the work checks). */
export function makeChange(input: unknown): Promise<{ message: Message; pendingId?: undefined }> {
  return auditedChange("requests.write", "change.make", proposeSchema, input, async (tx, data, actor) => {
    const command = commandOf(data.command);
    const commandInput = parseInput(command.schema, data.input);
    const [lockSql, lockId] = command.lock(commandInput);
    await tx.run(lockSql, [lockId]);
    const now = await changeInstant(tx);
    const c = data.caseId ? await caseOf(tx, data.caseId, { open: true, share: true }) : null;
    const made = await command.work(tx, commandInput, actor, now, { case: c, change: command.change });
    if (c) await caseEvent(tx, c.id, actor, "made", { ...made.applied, summary: made.summary }, { objectId: made.objectId });
    return {
      result: { message: made.message },
      audit: { objectIds: [made.objectId], input: { command: data.command, ...made.audited } },
    };
  });
}

/** Whether the policy gives any state of this change to a second person. */
async function held(
  db: SqlExecutor,
  command: Command<z.ZodType<Record<string, unknown>>>,
  data: Record<string, unknown>,
  caseKind: string | null,
) {
  for (const state of await command.states(db, data)) if (await needsApproval(db, state, command.change, caseKind)) return true;
  return false;
}

/**
 * A change from a form: made at once when the policy allows it, else proposed for a second
 * person's approval (the message says which).
 */
export async function submitChange(input: unknown): Promise<{ message: Message; pendingId?: number }> {
  const { db } = await authorize("cases.write", "change.submit");
  const data = parseInput(proposeSchema, input);
  const command = commandOf(data.command);
  const commandInput = parseInput(command.schema, data.input);
  const caseKind = data.caseId ? (await caseOf(db.sql, data.caseId)).kind : null;
  return (await held(db.sql, command, commandInput, caseKind)) ? proposeChange(input) : makeChange(input);
}

/**
 * A block or request from the object's page, in the case its form names (or none): made at once
 * when the policy allows it (a repeated form finds the first, by its key), else proposed.
 */
export async function submitMake(name: "block.create" | "request.create", input: unknown): Promise<{ message: Message }> {
  const { db } = await authorize("requests.write", "change.submit");
  const command = commandOf(name);
  const data = parseInput(command.schema, input);
  const { caseId } = parseInput(inCaseSchema, input);
  const caseKind = caseId === undefined ? null : (await caseOf(db.sql, caseId)).kind;
  if (await held(db.sql, command, data, caseKind)) {
    const { caseId: _case, idempotencyKey: _key, ...proposal } = input as Record<string, unknown>;
    return proposeChange({ command: name, caseId, input: proposal });
  }
  return name === "block.create" ? blockObject(input) : createStateRequest(input);
}

interface PendingRow {
  id: number;
  case_id: number | null;
  command: string;
  object_id: number;
  input: Record<string, unknown>;
  starts_at: Date | null;
  proposed_by: string;
  proposed_by_id: number;
  version: number;
  status: "pending" | "applied" | "rejected" | "withdrawn";
  decided_by: string | null;
  decided_at: Date | null;
}

/**
 * The pending change, taken for a decision: its object's lock first (every writer's order), then
 * its row; refused when there is none or it was decided already.
 */
async function takePending(tx: SqlExecutor, pendingId: number): Promise<PendingRow> {
  const [seen] = await tx.query<{ object_id: number }>("SELECT object_id FROM console.pending_changes WHERE id = $1", [pendingId]);
  if (!seen) throw new InputError(msg("case.changeNone", { id: String(pendingId) }), { pendingId: [msg("field.invalid")] });
  await tx.run(LOCK_OBJECT.byId, [seen.object_id]);
  const [row] = await tx.query<PendingRow>(
    `SELECT id, case_id, command, object_id, input, starts_at, proposed_by, proposed_by_id, version, status, decided_by, decided_at
       FROM console.pending_changes WHERE id = $1 FOR UPDATE`,
    [pendingId],
  );
  if (row.status !== "pending")
    throw new InputError(
      msg("case.changeDecided", { id: String(row.id), status: row.status, by: row.decided_by ?? "", at: row.decided_at as Date }),
    );
  return row;
}

const decided = async (
  tx: SqlExecutor,
  id: number,
  status: string,
  actor: Actor,
  now: Date,
  extra: { reason?: string; applied?: unknown } = {},
) =>
  tx.query(
    `UPDATE console.pending_changes SET status = $2, decided_by = $3, decided_by_id = $4, decided_at = $5, decision_reason = $6,
            applied = $7::jsonb WHERE id = $1`,
    [
      id,
      status,
      actor.username,
      actor.userId,
      now,
      extra.reason ?? null,
      extra.applied === undefined ? null : JSON.stringify(extra.applied),
    ],
  );

/**
 * Approves and applies a pending change: never its proposer's own; the command runs again as it
 * would now, and a refusal (its dry run no longer holds) is said and changes nothing. One whose
 * start passed while it waited is applied from now only when the approver says so (`fromNow`).
 */
export function approveChange(input: unknown): Promise<{ message: Message }> {
  return auditedChange("cases.write", "change.approve", approveSchema, input, async (tx, data, actor) => {
    const p = await takePending(tx, data.pendingId);
    if (p.proposed_by_id === actor.userId) throw new InputError(msg("case.ownProposal", { id: String(p.id) }));
    if (p.version !== data.version) throw new InputError(msg("case.changedSince", { id: String(p.id), version: p.version }));
    const now = await changeInstant(tx);
    const command = commandOf(p.command);
    let commandInput = p.input;
    if (p.starts_at && p.starts_at.getTime() < now.getTime() - START_GRACE_MS) {
      if (!data.fromNow) throw new InputError(msg("case.late", { id: String(p.id), from: p.starts_at }));
      commandInput = { ...commandInput, from: "" };
    }
    const c = p.case_id ? await caseOf(tx, p.case_id, { open: true, share: true }) : null;
    const proposer: Actor = { userId: p.proposed_by_id, username: p.proposed_by, role: "operator", sessionId: null, clientAddress: null };
    let made: Made;
    try {
      made = await command.work(tx, parseInput(command.schema, commandInput), proposer, now, {
        case: c,
        approvedBy: actor.username,
        change: command.change,
      });
    } catch (error) {
      if (error instanceof InputError) throw new InputError(msg("case.noLongerHolds", { id: String(p.id), why: error.text }));
      throw error;
    }
    await decided(tx, p.id, "applied", actor, now, { applied: made.applied });
    if (c) {
      await caseEvent(
        tx,
        c.id,
        actor,
        "approved",
        { summary: made.summary, proposedBy: p.proposed_by },
        { pendingId: p.id, objectId: p.object_id },
      );
      await caseEvent(tx, c.id, actor, "made", { ...made.applied, summary: made.summary }, { pendingId: p.id, objectId: p.object_id });
    }
    return {
      result: { message: msg("case.approved", { id: String(p.id), made: made.message }) },
      audit: { objectIds: [p.object_id], input: { pendingId: p.id, proposedBy: p.proposed_by, ...made.audited } },
    };
  });
}

/** Rejects a pending change with a reason (anyone with the right to approve it; its proposer withdraws it instead). */
export function rejectChange(input: unknown): Promise<{ message: Message }> {
  return auditedChange("cases.write", "change.reject", rejectSchema, input, async (tx, data, actor) => {
    const p = await takePending(tx, data.pendingId);
    if (p.proposed_by_id === actor.userId) throw new InputError(msg("case.ownReject", { id: String(p.id) }));
    const now = await changeInstant(tx);
    await decided(tx, p.id, "rejected", actor, now, { reason: data.reason });
    if (p.case_id)
      await caseEvent(
        tx,
        p.case_id,
        actor,
        "rejected",
        { reason: data.reason, proposedBy: p.proposed_by },
        { pendingId: p.id, objectId: p.object_id },
      );
    return {
      result: { message: msg("case.rejected", { id: String(p.id) }) },
      audit: { objectIds: [p.object_id], input: { pendingId: p.id, reason: data.reason } },
    };
  });
}

/** Withdraws one's own pending change. */
export function withdrawChange(input: unknown): Promise<{ message: Message }> {
  return auditedChange("cases.write", "change.withdraw", withdrawSchema, input, async (tx, data, actor) => {
    const p = await takePending(tx, data.pendingId);
    if (p.proposed_by_id !== actor.userId) throw new InputError(msg("case.notOwnProposal", { id: String(p.id), by: p.proposed_by }));
    const now = await changeInstant(tx);
    await decided(tx, p.id, "withdrawn", actor, now);
    if (p.case_id) await caseEvent(tx, p.case_id, actor, "withdrawn", {}, { pendingId: p.id, objectId: p.object_id });
    return {
      result: { message: msg("case.withdrawn", { id: String(p.id) }) },
      audit: { objectIds: [p.object_id], input: { pendingId: p.id } },
    };
  });
}

const editSchema = z.object({
  pendingId: pendingIdSchema,
  /** The version the proposer edited: an edit of an older one (another tab's) is refused. */
  version: approveSchema.shape.version,
  /** What may change: the period (of a block or request made) and the reason; the object and the command stay. */
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
  reason: reasonSchema,
});

/** The fields a proposal's proposer may edit, as they were proposed (the form's values). */
const editableOf = (command: string, input: Record<string, unknown>): PendingChange["editable"] => {
  const value = (name: string) => (typeof input[name] === "string" ? (input[name] as string) : "");
  // A block or request being made has a period; a lift or a cancellation has only its reason.
  return commandOf(command).change === "make"
    ? { from: value("from"), to: value("to"), reason: value("reason") }
    : { reason: value("reason") };
};

/**
 * Edits one's own pending change (its period and reason): checked by a dry run as a new proposal
 * is, and its approval starts again — its version goes up, so an approval of what was seen before
 * is refused, and the people who may approve it are told anew.
 */
export async function editChange(input: unknown): Promise<{ message: Message; pendingId: number }> {
  const edited = await auditedChange("cases.write", "change.edit", editSchema, input, async (tx, data, actor) => {
    const p = await takePending(tx, data.pendingId);
    if (p.proposed_by_id !== actor.userId) throw new InputError(msg("case.notOwnEdit", { id: String(p.id), by: p.proposed_by }));
    if (p.version !== data.version) throw new InputError(msg("case.changedSince", { id: String(p.id), version: p.version }));
    const now = await changeInstant(tx);
    const command = commandOf(p.command);
    const period = { ...(data.from === undefined ? {} : { from: data.from }), ...(data.to === undefined ? {} : { to: data.to }) };
    if (Object.keys(period).length > 0 && command.change !== "make")
      throw new InputError(msg("case.editNoPeriod", { id: String(p.id) }), { from: [msg("field.invalid")] });
    const stored = { ...p.input, ...period, reason: data.reason };
    const commandInput = parseInput(command.schema, stored);
    const c = p.case_id ? await caseOf(tx, p.case_id, { open: true, share: true }) : null;
    const made = await dryRun(tx, () => command.work(tx, commandInput, actor, now, { case: c, dryRun: true, change: command.change }));
    await tx.query(
      `UPDATE console.pending_changes SET input = $2::jsonb, summary = $3::jsonb, starts_at = $4, version = version + 1, mailed_at = NULL
        WHERE id = $1`,
      [p.id, JSON.stringify(stored), JSON.stringify(storedMessage(made.summary)), laterStart(made, now)],
    );
    if (c) await caseEvent(tx, c.id, actor, "changed", { summary: made.summary }, { pendingId: p.id, objectId: p.object_id });
    return {
      result: { message: msg("case.edited", { id: String(p.id), summary: made.summary }), pendingId: p.id },
      audit: { objectIds: [p.object_id], input: { pendingId: p.id, version: p.version + 1, ...made.audited } },
    };
  });
  mailApprovers((await requestDatabase()).sql, [edited.pendingId]);
  return edited;
}

export interface PendingChange {
  id: number;
  caseId: number | null;
  command: CommandName;
  objectId: number;
  object: string;
  state: string;
  change: ChangeKind;
  summary: Message;
  startsAt: Date | null;
  late: boolean;
  proposedBy: string;
  proposedAt: Date;
  version: number;
  status: PendingRow["status"];
  decidedBy: string | null;
  decidedAt: Date | null;
  decisionReason: string | null;
  /** Whether the reader may approve it: not their own. */
  mayApprove: boolean;
  /** Proposed together with others (one bulk change, one case's ending). */
  batchId: string | null;
  /** The reader's own proposal, still waiting: they may edit or withdraw it. */
  own: boolean;
  /** What its proposer may edit, as proposed. */
  editable: { from?: string; to?: string; reason: string };
}

/** The pending changes waiting for approval (or a case's, any status), oldest first. */
export async function pendingChanges(filter: { caseId?: number; objectId?: number; all?: boolean } = {}): Promise<PendingChange[]> {
  const { db, actor } = await authorize("cases.read", "changes.list");
  const rows = await db.sql.query<
    Omit<PendingChange, "mayApprove" | "late" | "own" | "editable"> & {
      proposedById: number;
      late: boolean;
      input: Record<string, unknown>;
    }
  >(
    `SELECT p.id, p.input, p.case_id AS "caseId", p.command, p.object_id AS "objectId", o.name AS object, p.state, p.change, p.summary,
            p.starts_at AS "startsAt", p.status = 'pending' AND p.starts_at < now() AS late, p.proposed_by AS "proposedBy",
            p.proposed_by_id AS "proposedById", p.proposed_at AS "proposedAt", p.version, p.status, p.decided_by AS "decidedBy",
            p.decided_at AS "decidedAt", p.decision_reason AS "decisionReason", p.batch_id AS "batchId"
       FROM console.pending_changes p JOIN object_registry o ON o.id = p.object_id
      WHERE ($1::int IS NULL OR p.case_id = $1) AND ($2::int IS NULL OR p.object_id = $2) AND ($3 OR p.status = 'pending')
      ORDER BY p.proposed_at, p.id
      LIMIT 2000`,
    [filter.caseId ?? null, filter.objectId ?? null, filter.all ?? false],
  );
  return rows.map(({ proposedById, input, ...row }) => ({
    ...row,
    own: row.status === "pending" && proposedById === actor.userId,
    editable: editableOf(row.command, input),
    // Kept as JSON with its instants marked (lib/audit/said.ts), so they are said in the reader's zone.
    summary: restoredMessage(row.summary) ?? row.summary,
    mayApprove: row.status === "pending" && proposedById !== actor.userId && actor.role !== "support",
  }));
}

/** Whether the reader may propose, approve and reject changes (the pages' forms; every action checks again). */
export async function mayWriteCases(): Promise<boolean> {
  const { actor } = await authorize("cases.read", "cases.rights");
  return roleAllows(actor.role, "cases.write");
}

const endCaseSchema = z.object({ caseId: caseIdSchema, reason: reasonSchema });

/**
 * Ends a case: everything it holds is lifted (blocks as when lifted by hand: the prohibitions they cut
 * come back; requests canceled), each lift proposed instead where the policy gives lifting to a
 * second person; the case ends once nothing it holds is left and no proposal of it waits.
 */
export async function endCase(input: unknown): Promise<{ message: Message }> {
  const proposedIds: number[] = [];
  const ended = await auditedChange("cases.write", "case.end", endCaseSchema, input, async (tx, data, actor) => {
    const held = async () =>
      tx.query<{ object_id: number; block_id: number | null; request_id: number; state: string }>(
        `SELECT b.object_id, b.id AS block_id, b.blocked_request_id AS request_id, 'serverBlocked' AS state
           FROM console.blocks b JOIN object_state_request r ON r.id = b.blocked_request_id
          WHERE b.case_id = $1 AND b.unblocked_at IS NULL AND r.canceled IS NULL AND (r.valid_to IS NULL OR r.valid_to > now() AT TIME ZONE 'UTC')
         UNION ALL
         SELECT r.object_id, NULL, r.id, s.name
           FROM console.request_meta m JOIN object_state_request r ON r.id = m.request_id JOIN enum_object_states s ON s.id = r.state_id
          WHERE m.case_id = $1 AND m.block_id IS NULL AND r.canceled IS NULL AND (r.valid_to IS NULL OR r.valid_to > now() AT TIME ZONE 'UTC')
          ORDER BY 1, 3`,
        [data.caseId],
      );
    // Every object's lock first (in id order), then the case.
    await tx.run("SELECT console.lock_objects($1::int[])", [[...new Set((await held()).map((h) => h.object_id))]]);
    const c = await caseOf(tx, data.caseId, { lock: true, open: true });
    const now = await changeInstant(tx);
    const waiting = await tx.query<{ id: number; command: string }>(
      "SELECT id, command FROM console.pending_changes WHERE case_id = $1 AND status = 'pending' ORDER BY id",
      [c.id],
    );
    const proposedLifts = waiting.filter((p) => p.command === "block.lift" || p.command === "request.cancel");
    const makes = waiting.filter((p) => !proposedLifts.includes(p));
    if (makes.length > 0)
      throw new InputError(msg("case.endWaits", { id: String(c.id), changes: makes.map((p) => `#${p.id}`).join(", ") }));
    // Changes made in the case before it was locked (they held it open) are lifted too, their objects locked now.
    const items = await held();
    await tx.run("SELECT console.lock_objects($1::int[])", [[...new Set(items.map((h) => h.object_id))]]);
    if (items.length > 0 && proposedLifts.length > 0)
      throw new InputError(msg("case.endLiftsWait", { id: String(c.id), count: proposedLifts.length }));
    const batchId = randomUUID();
    let lifted = 0;
    let proposed = 0;
    for (const item of items) {
      const name: CommandName = item.block_id !== null ? "block.lift" : "request.cancel";
      const commandInput =
        item.block_id !== null ? { blockId: item.block_id, reason: data.reason } : { requestId: item.request_id, reason: data.reason };
      if (await needsApproval(tx, item.state, "lift", c.kind)) {
        proposedIds.push((await proposeIn(tx, actor, now, c, name, commandInput, batchId)).id);
        proposed++;
      } else {
        const command = commandOf(name);
        const made = await command.work(tx, parseInput(command.schema, commandInput), actor, now, { case: c, change: "lift" });
        await caseEvent(tx, c.id, actor, "made", { ...made.applied, summary: made.summary }, { objectId: made.objectId });
        lifted++;
      }
    }
    if (proposed === 0) {
      // Lifts proposed before whose blocks or requests have ended since: nothing is left for them to do.
      for (const p of proposedLifts) {
        await decided(tx, p.id, "withdrawn", actor, now, { reason: "nothing left to lift: the case ended" });
        await caseEvent(tx, c.id, actor, "withdrawn", { reason: "nothing left to lift" }, { pendingId: p.id });
      }
      await tx.query("UPDATE console.cases SET status = 'ended', ended_at = $2, ended_by = $3, ended_by_id = $4 WHERE id = $1", [
        c.id,
        now,
        actor.username,
        actor.userId,
      ]);
      await caseEvent(tx, c.id, actor, "ended", { reason: data.reason, lifted });
    }
    return {
      result: { message: msg(proposed === 0 ? "case.endedNow" : "case.endProposed", { id: String(c.id), lifted, proposed }) },
      audit: { objectIds: [...new Set(items.map((i) => i.object_id))], input: { caseId: c.id, reason: data.reason, lifted, proposed } },
    };
  });
  mailApprovers((await requestDatabase()).sql, proposedIds);
  return ended;
}

const approveBatchSchema = z.object({
  batchId: z.uuid({ error: zodError("form.batchDamaged") }),
  fromNow: z.boolean().optional().default(false),
});

/**
 * Approves every waiting change of one batch (the objects of one bulk change, or the lifts of one
 * case's ending) that the approver did not propose, each as approveChange does, in its own
 * transaction: one that no longer holds is refused and said, the others are applied.
 */
export async function approveBatch(input: unknown): Promise<{ message: Message }> {
  const { db } = await authorize("cases.write", "change.approve_batch");
  const data = parseInput(approveBatchSchema, input);
  const waiting = await db.sql.query<{ id: number; version: number }>(
    "SELECT id, version FROM console.pending_changes WHERE batch_id = $1 AND status = 'pending' ORDER BY id",
    [data.batchId],
  );
  if (waiting.length === 0) throw new InputError(msg("case.batchNone"));
  let approved = 0;
  const refused: Message[] = [];
  for (const p of waiting) {
    try {
      await approveChange({ pendingId: p.id, version: p.version, fromNow: data.fromNow });
      approved++;
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      refused.push(error.text as Message);
    }
  }
  if (approved === 0 && refused.length > 0) throw new InputError(refused[0]);
  return { message: msg("case.batchApproved", { approved, refused: refused.length }) };
}

/**
 * Lifting a block or canceling a request from the object's page: at once when the policy allows it,
 * else proposed for a second person (in the case the block or request was made in, if any).
 */
export async function submitLift(command: "block.lift" | "request.cancel", input: unknown): Promise<{ message: Message }> {
  const { db } = await authorize("requests.write", "change.submit");
  const spec = commandOf(command);
  const data = parseInput(spec.schema, input) as { blockId?: number; blockRequestId?: number; requestId?: number };
  const blockId =
    data.blockId ??
    (data.blockRequestId === undefined
      ? undefined
      : (await db.sql.query<{ id: number }>("SELECT id FROM console.blocks WHERE blocked_request_id = $1", [data.blockRequestId]))[0]?.id);
  const item =
    command === "block.lift"
      ? blockId === undefined
        ? null
        : await caseOfItem(db.sql, "block", blockId)
      : await caseOfItem(db.sql, "request", data.requestId ?? 0);
  if (await held(db.sql, spec, data, item?.kind ?? null)) return proposeChange({ command, caseId: item?.id, input: data });
  return command === "block.lift" ? unblockObject(input) : cancelStateRequest(input);
}
