import "server-only";
import * as z from "zod";
import { render, zodError } from "../actions/message";
import { InputError, parseInput } from "../actions/result";
import { audit } from "../audit/log";
import { authorize } from "../auth/guard";
import type { Actor } from "../auth/sessions";
import { type CaseRow, caseIdSchema, caseOf } from "../cases/cases";
import { mailApprovers } from "../cases/mail";
import { proposeIn } from "../cases/pending";
import { needsApproval } from "../cases/policy";
import type { SqlExecutor } from "../db/driver";
import type { Locale } from "../i18n/config";
import { type Message, msg } from "../i18n/message";
import { getLocale } from "../i18n/server";
import { countMatching, objectsMatching } from "../objects/matching";
import { blockWork } from "./block";
import { blockSchema, DEFAULT_PROHIBITIONS, isProhibition } from "./block-rules";
import { changeInstant } from "./command";
import { createWork } from "./create";
import { createRequestSchema, reasonSchema } from "./rules";

/** Notices one after the other, as one message (each said in the reader's language). */
const noticeList = (notices: Message[]): Message =>
  notices.slice(0, -1).reduceRight<Message>((rest, first) => msg("bulk.noticeList", { first, rest }), notices[notices.length - 1]);

/** The most objects one bulk change may touch. */
export const BULK_MAX = 10_000;

const bulkSchema = z.object({
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

interface BulkOutcome {
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
  const { db, actor } = await authorize("requests.write", attemptedAction(input));
  const data = parseInput(bulkSchema, input);
  const locale = await getLocale();
  const { names, fromFilter } = await chooseNames(db.sql, data);
  const done = await changesInBatch(db.sql, data.batchId);
  if (data.apply && done > 0) return alreadyApplied(done, data.batchId, locale);
  const targets = await findTargets(db.sql, names, fromFilter, data, locale);

  try {
    const outcomes = await db.sql.transaction((tx) => changeAll(tx, targets, { data, actor, locale }));
    await mailProposals(db.sql, data.batchId);
    return appliedResult(outcomes, data.batchId, locale);
  } catch (error) {
    if (error instanceof AlreadyApplied) return alreadyApplied(error.requests, data.batchId, locale);
    if (!(error instanceof RollBack)) throw error;
    return rolledBackResult(db.sql, error.outcomes, { data, actor, locale });
  }
}

type BulkInput = z.output<typeof bulkSchema>;

/** An object to change: its id, or null and why not (said in the request's language) when the name names none or several. */
interface Target {
  name: string;
  id: number | null;
  problem: string | null;
}

/** What every step of one bulk change needs: the parsed input, who makes it, and the request's language. */
interface Bulk {
  data: BulkInput;
  actor: Actor;
  locale: Locale;
}

/** What each object's change needs inside the transaction, besides the bulk change itself. */
interface Run extends Bulk {
  now: Date;
  inCase: CaseRow | null;
  held: boolean;
}

/** The action authorize() records: an apply when the input parses and asks for one, else a dry run. */
function attemptedAction(input: unknown): "bulk.apply" | "bulk.dry_run" {
  const parsed = bulkSchema.safeParse(input);
  return parsed.success && parsed.data.apply ? "bulk.apply" : "bulk.dry_run";
}

/** The names to change: the pasted ones, else the list filter's objects; refused when none or too many. */
async function chooseNames(sql: SqlExecutor, data: BulkInput): Promise<{ names: string[]; fromFilter: Target[] | null }> {
  let names = pastedNames(data.names);
  let fromFilter: Target[] | null = null;
  if (names.length === 0 && data.filter) {
    fromFilter = await filterTargets(sql, data.filter);
    names = fromFilter.map((o) => o.name);
  }
  if (names.length === 0) throw new InputError(msg("bulk.empty"), { names: [msg("field.empty")] });
  if (names.length > BULK_MAX)
    throw new InputError(msg("bulk.tooMany", { count: names.length, max: BULK_MAX }), { names: [msg("field.tooMany")] });
  return { names, fromFilter };
}

/** The names in the pasted list (split on blanks, commas and semicolons), each once, in order. */
function pastedNames(list: string): string[] {
  return [
    ...new Set(
      list
        .split(/[\s,;]+/)
        .map((n) => n.trim())
        .filter(Boolean),
    ),
  ];
}

/** The objects the object list's filter matches, as targets; refused when the filter is invalid or matches too many. */
async function filterTargets(sql: SqlExecutor, filter: string): Promise<Target[]> {
  const matching = await objectsMatching(sql, Object.fromEntries(new URLSearchParams(filter)), BULK_MAX);
  if (matching.notices.length)
    throw new InputError(msg("bulk.filterInvalid", { notices: noticeList(matching.notices) }), { filter: [msg("field.invalid")] });
  if (matching.more) throw new InputError(msg("bulk.filterTooMany", { max: BULK_MAX }), { filter: [msg("field.tooMany")] });
  return matching.objects.map((o) => ({ name: o.name, id: o.id, problem: null }));
}

/** How many requests and proposals the batch has made already (before any lock). */
async function changesInBatch(sql: SqlExecutor, batchId: string): Promise<number> {
  const [done] = await sql.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM console.request_meta WHERE batch_id = $1) + (SELECT count(*) FROM console.pending_changes WHERE batch_id = $1)
            AS n`,
    [batchId],
  );
  return done.n;
}

/** The answer when the batch was applied already (by an earlier submission, or one this one waited for). */
function alreadyApplied(count: number, batchId: string, locale: Locale): BulkResult {
  return {
    message: render(msg("bulk.alreadyApplied", { count }), locale),
    applied: true,
    refused: 0,
    batchId,
    outcomes: [],
  };
}

/** The live object each name names (in any case, of the chosen type), or why none; the filter's objects as they are. */
async function findTargets(
  sql: SqlExecutor,
  names: string[],
  fromFilter: Target[] | null,
  data: BulkInput,
  locale: Locale,
): Promise<Target[]> {
  const candidates = names.flatMap((n) => [n, n.toLowerCase(), n.toUpperCase()]);
  const found = await sql.query<{ id: number; name: string; type: string }>(
    `SELECT o.id, o.name, t.name AS type FROM object_registry o JOIN enum_object_type t ON t.id = o.type
      WHERE o.name = ANY ($1::text[]) AND o.erdate IS NULL AND ($2 = '' OR t.name = $2)`,
    [candidates, data.type],
  );
  return (
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
    })
  );
}

/** In the transaction: locks, tries every object, and keeps (audited) only an apply where all passed; else throws RollBack. */
async function changeAll(tx: SqlExecutor, targets: Target[], bulk: Bulk): Promise<Tried[]> {
  const { data, actor } = bulk;
  await lockTargets(tx, targets);
  if (data.apply) await refuseIfAppliedMeanwhile(tx, data.batchId);
  const run = await prepareRun(tx, bulk);
  const outcomes: Tried[] = [];
  for (const target of targets) outcomes.push(await tryTarget(tx, target, run));
  if (!data.apply || outcomes.some((o) => !o.ok)) throw new RollBack(outcomes);
  await audit(tx, {
    action: "bulk.apply",
    result: "ok",
    actor,
    objectIds: targets.map((t) => t.id as number),
    input: { batchId: data.batchId, kind: data.kind, state: data.state, count: targets.length },
  });
  return outcomes;
}

/** Takes all the objects' locks first, in id order. */
async function lockTargets(tx: SqlExecutor, targets: Target[]): Promise<void> {
  // All the objects' locks first, in id order: two bulk changes over the same objects, or a
  // bulk change and a single one, wait for each other instead of deadlocking.
  await tx.run("SELECT console.lock_objects($1::int[])", [targets.flatMap((t) => (t.id === null ? [] : [t.id]))]);
}

/** Throws AlreadyApplied when another submission applied the same batch while this one waited for the locks. */
async function refuseIfAppliedMeanwhile(tx: SqlExecutor, batchId: string): Promise<void> {
  const [again] = await tx.query<{ n: number }>(
    `SELECT ((SELECT count(*) FROM console.request_meta WHERE batch_id = $1)
                   + (SELECT count(*) FROM console.pending_changes WHERE batch_id = $1))::int AS n`,
    [batchId],
  );
  if (again.n > 0) throw new AlreadyApplied(again.n);
}

/** The change's instant, its case, and whether the policy holds it back for a second person. */
async function prepareRun(tx: SqlExecutor, bulk: Bulk): Promise<Run> {
  const { data } = bulk;
  // The instant after the locks: not before the change of a writer this one waited for.
  const now = await changeInstant(tx);
  // In a case, and held back for a second person when the policy says so: each object's change is then proposed.
  const inCase = data.caseId ? await caseOf(tx, data.caseId, { open: true, share: true }) : null;
  const held = await needsApproval(tx, data.kind === "block" ? "serverBlocked" : data.state, "make", inCase?.kind ?? null);
  return { ...bulk, now, inCase, held };
}

/** One object's outcome: tried under its own savepoint, which a refusal (an InputError) rolls back. */
async function tryTarget(tx: SqlExecutor, target: Target, run: Run): Promise<Tried> {
  if (target.id === null) return { name: target.name, objectId: null, ok: false, made: false, message: target.problem ?? "" };
  const object = { name: target.name, id: target.id };
  await tx.query("SAVEPOINT bulk_object");
  try {
    const { data } = run;
    const common = { objectId: object.id, from: data.from, to: data.to, reason: data.reason };
    const block = data.kind === "block" ? parseInput(blockSchema, { ...common, prohibitions: data.prohibitions }) : null;
    const request = data.kind === "block" ? null : parseInput(createRequestSchema, { ...common, state: data.state });
    if (run.held && data.apply) return await proposeChange(tx, object, block, request, run);
    return await makeChange(tx, object, block, request, run);
  } catch (error) {
    await tx.query("ROLLBACK TO SAVEPOINT bulk_object");
    if (!(error instanceof InputError)) throw error;
    return { name: object.name, objectId: object.id, ok: false, made: false, message: render(error.text, run.locale) };
  }
}

type BlockInput = z.output<typeof blockSchema>;
type RequestInput = z.output<typeof createRequestSchema>;

/** Proposes the object's change (audited), for a second person to approve: nothing reaches FRED's tables yet. */
async function proposeChange(
  tx: SqlExecutor,
  object: { name: string; id: number },
  block: BlockInput | null,
  request: RequestInput | null,
  run: Run,
): Promise<Tried> {
  const { data, actor, locale } = run;
  // Proposed, not made: nothing reaches FRED's tables until a second person approves it.
  const { id, made } = await proposeIn(
    tx,
    actor,
    run.now,
    run.inCase,
    block ? "block.create" : "request.create",
    block ?? request ?? {},
    data.batchId,
  );
  await audit(tx, {
    action: "change.propose",
    result: "ok",
    actor,
    objectIds: [object.id],
    input: { pendingId: id, ...made.audited },
  });
  await tx.query("RELEASE SAVEPOINT bulk_object");
  return {
    name: object.name,
    objectId: object.id,
    ok: true,
    made: false,
    message: render(msg("case.proposed", { id: String(id), summary: made.summary }), locale),
    notMade: render(msg("bulk.notMade", { change: made.summary }), locale),
  };
}

/** Makes the object's block or request (audited on an apply), or only tries it when the policy holds it back. */
async function makeChange(
  tx: SqlExecutor,
  object: { name: string; id: number },
  block: BlockInput | null,
  request: RequestInput | null,
  run: Run,
): Promise<Tried> {
  const { data, actor, locale, now, held } = run;
  const context = { case: run.inCase, dryRun: held, change: "make" as const };
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
        objectIds: [object.id],
        input: result.audited,
      });
    await tx.query("RELEASE SAVEPOINT bulk_object");
  }
  return {
    name: object.name,
    objectId: object.id,
    ok: true,
    made: data.apply,
    message: render(data.apply ? result.message : msg(held ? "bulk.willPropose" : "bulk.willApply", { change: result.summary }), locale),
    notMade: render(msg("bulk.notMade", { change: result.summary }), locale),
  };
}

/** Mails the approvers about the batch's proposals, if it made any (in the background). */
async function mailProposals(sql: SqlExecutor, batchId: string): Promise<void> {
  const proposals = await sql.query<{ id: number }>("SELECT id FROM console.pending_changes WHERE batch_id = $1 ORDER BY id", [batchId]);
  mailApprovers(
    sql,
    proposals.map((p) => p.id),
  );
}

/** The answer to an apply that committed: every object's change made, or proposed. */
function appliedResult(outcomes: Tried[], batchId: string, locale: Locale): BulkResult {
  return {
    message: render(
      msg(outcomes.some((o) => !o.made) ? "bulk.proposedAll" : "bulk.applied", { count: outcomes.length, batch: batchId }),
      locale,
    ),
    applied: true,
    refused: 0,
    batchId,
    outcomes: outcomes.map(said),
  };
}

/** The answer to a rolled-back transaction: a dry run's outcomes, or a refused apply (audited) where nothing was made. */
async function rolledBackResult(sql: SqlExecutor, outcomes: Tried[], bulk: Bulk): Promise<BulkResult> {
  const { data, actor, locale } = bulk;
  const refused = outcomes.filter((o) => !o.ok).length;
  if (!data.apply)
    return {
      message: render(msg("bulk.dryRun", { ok: outcomes.length - refused, total: outcomes.length, refused }), locale),
      applied: false,
      refused,
      batchId: data.batchId,
      outcomes: outcomes.map(said),
    };
  await audit(sql, {
    action: "bulk.apply",
    result: "refused",
    errorCode: "invalid",
    actor,
    input: { batchId: data.batchId, refused },
  });
  return {
    message: render(msg("bulk.refused", { refused, total: outcomes.length }), locale),
    applied: false,
    refused,
    batchId: data.batchId,
    // Nothing was made: an object that passed says what it would have got, not a request id.
    outcomes: outcomes.map(({ notMade, ...o }) => (o.ok ? { ...o, made: false, message: notMade ?? o.message } : o)),
  };
}
