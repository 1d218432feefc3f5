import "server-only";
import * as z from "zod";
import { render, zodError } from "../actions/message";
import { InputError, parseInput } from "../actions/result";
import { audit } from "../audit/log";
import { authorize } from "../auth/guard";
import { caseIdSchema, caseOf } from "../cases/cases";
import { mailApprovers } from "../cases/mail";
import { proposeIn } from "../cases/pending";
import { needsApproval } from "../cases/policy";
import { type Message, msg } from "../i18n/message";
import { getLocale } from "../i18n/server";
import { countMatching, objectsMatching } from "../objects/list";
import { blockWork } from "./block";
import { blockSchema, DEFAULT_PROHIBITIONS, isProhibition } from "./block-rules";
import { createWork } from "./create";
import { changeInstant, createRequestSchema, reasonSchema } from "./rules";

/** Notices one after the other, as one message (each said in the reader's language). */
const noticeList = (notices: Message[]): Message =>
  notices.slice(0, -1).reduceRight<Message>((rest, first) => msg("bulk.noticeList", { first, rest }), notices[notices.length - 1]);

/** The most objects one bulk change may touch. */
export const BULK_MAX = 10_000;

export const bulkSchema = z.object({
  names: z
    .string()
    .max(2_000_000, { error: zodError("bulk.listTooLong") })
    .optional()
    .default(""),
  /** Instead of names: the object list's filter, as its query string. */
  filter: z
    .string()
    .max(4_000, { error: zodError("bulk.filterTooLong") })
    .optional()
    .default(""),
  type: z.string().trim().max(20).optional().default(""),
  kind: z.enum(["request", "block"], { error: zodError("bulk.chooseKind") }),
  state: z.string().trim().max(50).optional().default(""),
  from: z.string().trim().optional().default(""),
  to: z.string().trim().optional().default(""),
  prohibitions: z.array(z.string().trim().max(50)).max(10).optional(),
  reason: reasonSchema,
  apply: z.boolean().optional().default(false),
  batchId: z.uuid({ error: zodError("form.batchDamaged") }),
  /** The case the change is made in (issue 42); its kind decides, with the policy, whether it waits for approval. */
  caseId: caseIdSchema.optional(),
});

/** One object's outcome, said in the request's language. */
/** What the bulk form offers: the object types, the manual states, and the prohibitions a block can set (with the default ones ticked). */
export async function bulkChoices(): Promise<{
  types: string[];
  states: { name: string; types: string[] }[];
  prohibitions: { name: string; checked: boolean; types: string[] }[];
}> {
  const { db } = await authorize("requests.write", "bulk.page");
  const [types, states] = await Promise.all([
    db.sql.query<{ name: string }>("SELECT name FROM enum_object_type ORDER BY id"),
    // Each manual state with the object types it is valid for (FRED's catalogue).
    db.sql.query<{ name: string; types: string[] }>(
      `SELECT s.name, coalesce(array(SELECT t.name FROM enum_object_type t WHERE t.id = ANY (s.types) ORDER BY t.id), '{}') AS types
         FROM enum_object_states s WHERE s.manual ORDER BY s.importance DESC NULLS LAST, s.id`,
    ),
  ]);
  return {
    types: types.map((type) => type.name),
    // serverBlocked is the block kind's (with its prohibitions), not a request of its own.
    states: states.filter((s) => s.name !== "serverBlocked"),
    prohibitions: states
      .filter((s) => isProhibition(s.name))
      .map((s) => ({ name: s.name, checked: DEFAULT_PROHIBITIONS.includes(s.name), types: s.types })),
  };
}

/** What a list filter would give a bulk change, before any dry run: how many objects, and its type. */
export async function bulkFilterPreview(
  filter: string,
): Promise<{ count: number; more: boolean; type: string | null; notices: Message[] }> {
  const { db } = await authorize("requests.write", "bulk.page");
  const params = Object.fromEntries(new URLSearchParams(filter));
  // Counted, not read: the apply reads the objects themselves.
  const matching = await countMatching(db.sql, params, BULK_MAX);
  return { ...matching, type: typeof params.type === "string" && params.type ? params.type : null };
}

/**
 * The objects chosen on the object list (their ids, "1,2,3") as the bulk form's names: the live
 * ones, in the order given, and their type when they share one. Ids that name no live object are
 * counted, not guessed at.
 */
export async function bulkSelection(ids: string): Promise<{ names: string[]; type: string | null; missing: number }> {
  const { db } = await authorize("requests.write", "bulk.page");
  const wanted = [...new Set(ids.split(",").map((id) => id.trim()))].filter(Boolean);
  const valid = wanted
    .filter((id) => /^\d{1,9}$/.test(id))
    .slice(0, BULK_MAX)
    .map(Number);
  const rows = await db.sql.query<{ id: number; name: string; type: string }>(
    `SELECT o.id, o.name, t.name AS type FROM object_registry o JOIN enum_object_type t ON t.id = o.type
      WHERE o.id = ANY ($1::int[]) AND o.erdate IS NULL`,
    [valid],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const found = valid.flatMap((id) => byId.get(id) ?? []);
  const types = [...new Set(found.map((row) => row.type))];
  return { names: found.map((row) => row.name), type: types.length === 1 ? types[0] : null, missing: wanted.length - found.length };
}

export interface BulkOutcome {
  name: string;
  objectId: number | null;
  /** The object passes every rule (it will apply, or was applied, or would have been). */
  ok: boolean;
  /** Its request or block exists now: an apply that committed. */
  made: boolean;
  message: string;
}

/** What a bulk change did, said in the request's language (its outcomes are data of the page, not one message). */
export interface BulkResult {
  message: string;
  applied: boolean;
  /** How many objects were refused (a dry run's or an apply's); the message is then a warning. */
  refused: number;
  batchId: string;
  outcomes: BulkOutcome[];
}

/** The same batch was applied by another submission while this one waited for the objects. */
class AlreadyApplied extends Error {
  constructor(readonly requests: number) {
    super("already applied");
  }
}

/** Raised inside the transaction to roll everything back (a dry run, or an apply with refusals). */
class RollBack extends Error {
  constructor(readonly outcomes: Tried[]) {
    super("roll back");
  }
}

/** An object's outcome as the page gets it. */
const said = ({ notMade: _, ...outcome }: Tried): BulkOutcome => outcome;

/** An object's outcome inside the transaction, with what to say of it if the apply rolls back. */
interface Tried extends BulkOutcome {
  notMade?: string;
}

/**
 * A request or a block for many objects named in a pasted list. A dry run tries every object in a
 * transaction that is rolled back and says, per object, "will apply" or the exact refusal. Apply
 * does the same and commits only when every object passes: all or nothing, each object's change
 * audited with the batch id.
 */
export async function bulkStateChange(input: unknown): Promise<BulkResult> {
  const parsed = bulkSchema.safeParse(input);
  const action = parsed.success && parsed.data.apply ? "bulk.apply" : "bulk.dry_run";
  const { db, actor } = await authorize("requests.write", action);
  const data = parseInput(bulkSchema, input);
  const locale = await getLocale();
  let names = [
    ...new Set(
      data.names
        .split(/[\s,;]+/)
        .map((n) => n.trim())
        .filter(Boolean),
    ),
  ];
  let fromFilter: { name: string; id: number; problem: null }[] | null = null;
  if (names.length === 0 && data.filter) {
    const matching = await objectsMatching(db.sql, Object.fromEntries(new URLSearchParams(data.filter)), BULK_MAX);
    if (matching.notices.length)
      throw new InputError(msg("bulk.filterInvalid", { notices: noticeList(matching.notices) }), { filter: [msg("field.invalid")] });
    if (matching.more) throw new InputError(msg("bulk.filterTooMany", { max: BULK_MAX }), { filter: [msg("field.tooMany")] });
    fromFilter = matching.objects.map((o) => ({ name: o.name, id: o.id, problem: null }));
    names = fromFilter.map((o) => o.name);
  }
  if (names.length === 0) throw new InputError(msg("bulk.empty"), { names: [msg("field.empty")] });
  if (names.length > BULK_MAX)
    throw new InputError(msg("bulk.tooMany", { count: names.length, max: BULK_MAX }), { names: [msg("field.tooMany")] });

  const [done] = await db.sql.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM console.request_meta WHERE batch_id = $1) + (SELECT count(*) FROM console.pending_changes WHERE batch_id = $1)
            AS n`,
    [data.batchId],
  );
  if (data.apply && done.n > 0)
    return {
      message: render(msg("bulk.alreadyApplied", { count: done.n }), locale),
      applied: true,
      refused: 0,
      batchId: data.batchId,
      outcomes: [],
    };

  const candidates = names.flatMap((n) => [n, n.toLowerCase(), n.toUpperCase()]);
  const found = await db.sql.query<{ id: number; name: string; type: string }>(
    `SELECT o.id, o.name, t.name AS type FROM object_registry o JOIN enum_object_type t ON t.id = o.type
      WHERE o.name = ANY ($1::text[]) AND o.erdate IS NULL AND ($2 = '' OR t.name = $2)`,
    [candidates, data.type],
  );
  const targets =
    fromFilter ??
    names.map((name) => {
      const matches = found.filter((o) => o.name.toLowerCase() === name.toLowerCase());
      if (matches.length === 1) return { name, id: matches[0].id, problem: null };
      return {
        name,
        id: null,
        problem: render(
          matches.length === 0
            ? msg("bulk.noSuchObject", { type: data.type || "object", name: name.slice(0, 255) })
            : msg("bulk.ambiguous", { name, types: matches.map((m) => m.type).join(", ") }),
          locale,
        ),
      };
    });

  try {
    const outcomes = await db.sql.transaction(async (tx) => {
      // All the objects' locks first, in id order: two bulk changes over the same objects, or a
      // bulk change and a single one, wait for each other instead of deadlocking.
      await tx.run("SELECT console.lock_objects($1::int[])", [targets.flatMap((t) => (t.id === null ? [] : [t.id]))]);
      if (data.apply) {
        const [again] = await tx.query<{ n: number }>(
          `SELECT ((SELECT count(*) FROM console.request_meta WHERE batch_id = $1)
                   + (SELECT count(*) FROM console.pending_changes WHERE batch_id = $1))::int AS n`,
          [data.batchId],
        );
        if (again.n > 0) throw new AlreadyApplied(again.n);
      }
      // The instant after the locks: not before the change of a writer this one waited for.
      const now = await changeInstant(tx);
      // In a case, and held back for a second person when the policy says so: each object's change is then proposed.
      const inCase = data.caseId ? await caseOf(tx, data.caseId, { open: true, share: true }) : null;
      const held = await needsApproval(tx, data.kind === "block" ? "serverBlocked" : data.state, "make", inCase?.kind ?? null);
      const outcomes: Tried[] = [];
      for (const target of targets) {
        if (target.id === null) {
          outcomes.push({ name: target.name, objectId: null, ok: false, made: false, message: target.problem ?? "" });
          continue;
        }
        await tx.query("SAVEPOINT bulk_object");
        try {
          const common = { objectId: target.id, from: data.from, to: data.to, reason: data.reason };
          const block = data.kind === "block" ? parseInput(blockSchema, { ...common, prohibitions: data.prohibitions }) : null;
          const request = data.kind === "block" ? null : parseInput(createRequestSchema, { ...common, state: data.state });
          const context = { case: inCase, dryRun: held, change: "make" as const };
          if (held && data.apply) {
            // Proposed, not made: nothing reaches FRED's tables until a second person approves it.
            const { id, made } = await proposeIn(
              tx,
              actor,
              now,
              inCase,
              block ? "block.create" : "request.create",
              block ?? request ?? {},
              data.batchId,
            );
            await audit(tx, {
              action: "change.propose",
              result: "ok",
              actor,
              objectIds: [target.id],
              input: { pendingId: id, ...made.audited },
            });
            await tx.query("RELEASE SAVEPOINT bulk_object");
            outcomes.push({
              name: target.name,
              objectId: target.id,
              ok: true,
              made: false,
              message: render(msg("case.proposed", { id: String(id), summary: made.summary }), locale),
              notMade: render(msg("bulk.notMade", { change: made.summary }), locale),
            });
            continue;
          }
          const result = block
            ? await blockWork(tx, block, actor, now, data.batchId, "console", context)
            : await createWork(tx, request as NonNullable<typeof request>, actor, now, data.batchId, context);
          if (held) await tx.query("ROLLBACK TO SAVEPOINT bulk_object");
          else {
            if (data.apply)
              await audit(tx, {
                action: data.kind === "block" ? "block.create" : "request.create",
                result: "ok",
                actor,
                objectIds: [target.id],
                input: result.audited,
              });
            await tx.query("RELEASE SAVEPOINT bulk_object");
          }
          outcomes.push({
            name: target.name,
            objectId: target.id,
            ok: true,
            made: data.apply,
            message: render(
              data.apply ? result.message : msg(held ? "bulk.willPropose" : "bulk.willApply", { change: result.summary }),
              locale,
            ),
            notMade: render(msg("bulk.notMade", { change: result.summary }), locale),
          });
        } catch (error) {
          await tx.query("ROLLBACK TO SAVEPOINT bulk_object");
          if (!(error instanceof InputError)) throw error;
          outcomes.push({ name: target.name, objectId: target.id, ok: false, made: false, message: render(error.text, locale) });
        }
      }
      if (!data.apply || outcomes.some((o) => !o.ok)) throw new RollBack(outcomes);
      await audit(tx, {
        action: "bulk.apply",
        result: "ok",
        actor,
        objectIds: targets.map((t) => t.id as number),
        input: { batchId: data.batchId, kind: data.kind, state: data.state, count: targets.length },
      });
      return outcomes;
    });
    const proposals = await db.sql.query<{ id: number }>("SELECT id FROM console.pending_changes WHERE batch_id = $1 ORDER BY id", [
      data.batchId,
    ]);
    mailApprovers(
      db.sql,
      proposals.map((p) => p.id),
    );
    return {
      message: render(
        msg(outcomes.some((o) => !o.made) ? "bulk.proposedAll" : "bulk.applied", { count: outcomes.length, batch: data.batchId }),
        locale,
      ),
      applied: true,
      refused: 0,
      batchId: data.batchId,
      outcomes: outcomes.map(said),
    };
  } catch (error) {
    if (error instanceof AlreadyApplied)
      return {
        message: render(msg("bulk.alreadyApplied", { count: error.requests }), locale),
        applied: true,
        refused: 0,
        batchId: data.batchId,
        outcomes: [],
      };
    if (!(error instanceof RollBack)) throw error;
    const refused = error.outcomes.filter((o) => !o.ok).length;
    if (!data.apply)
      return {
        message: render(msg("bulk.dryRun", { ok: error.outcomes.length - refused, total: error.outcomes.length, refused }), locale),
        applied: false,
        refused,
        batchId: data.batchId,
        outcomes: error.outcomes.map(said),
      };
    await audit(db.sql, {
      action: "bulk.apply",
      result: "refused",
      errorCode: "invalid",
      actor,
      input: { batchId: data.batchId, refused },
    });
    return {
      message: render(msg("bulk.refused", { refused, total: error.outcomes.length }), locale),
      applied: false,
      refused,
      batchId: data.batchId,
      // Nothing was made: an object that passed says what it would have got, not a request id.
      outcomes: error.outcomes.map(({ notMade, ...o }) => (o.ok ? { ...o, made: false, message: notMade ?? o.message } : o)),
    };
  }
}
