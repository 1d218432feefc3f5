import "server-only";
import { cache } from "react";
import * as z from "zod";
import { auditedChange } from "../actions/change";
import { idSchema } from "../actions/ids";
import { zodError } from "../actions/message";
import { InputError } from "../actions/result";
import { storedMessage } from "../audit/said";
import { authorize } from "../auth/guard";
import type { Actor } from "../auth/sessions";
import { readConfig } from "../config";
import type { SqlExecutor } from "../db/driver";
import { wallTime } from "../format/instant";
import { type Message, msg } from "../i18n/message";
import { getLocale } from "../i18n/server";
import { parseDate } from "../input/values";
import { keySchema } from "../requests/rules";

// Cases (issue 42): the order or request that justifies blocks and manual state requests — a court
// order, a CSIRT's report, a law-enforcement request, the registrant's or registrar's own request, an
// internal decision — with its reference, who asked, a review date and everything done under it.

/** The longest reference: it goes into FRED's reason rows (300 characters) before the reason. */
const REFERENCE_MAX = 60;
/** How far ahead a review date may lie. */
const REVIEW_YEARS = 10;

export const caseIdSchema = idSchema("case");

const text = (max: number, missing: Parameters<typeof zodError>[0]) =>
  z
    .string({ error: zodError(missing) })
    .trim()
    .min(1, { error: zodError(missing) })
    .max(max, { error: zodError("case.tooLong", { max }) });

const caseSchema = z.object({
  kind: text(40, "case.kindMissing"),
  reference: text(REFERENCE_MAX, "case.referenceMissing"),
  requestedBy: text(200, "case.requestedByMissing"),
  description: z
    .string()
    .trim()
    .max(4000, { error: zodError("case.tooLong", { max: 4000 }) })
    .optional()
    .default(""),
  reviewBy: z.string().trim().optional().default(""),
  idempotencyKey: keySchema,
});

const reviewSchema = z.object({
  caseId: caseIdSchema,
  note: text(1000, "case.noteMissing"),
  nextReview: z.string().trim().optional().default(""),
});

export interface CaseRow {
  id: number;
  kind: string;
  kindName: string;
  reference: string;
  requestedBy: string;
  description: string;
  reviewBy: string | null;
  status: "open" | "ended";
  ownerId: number;
  owner: string;
  createdBy: string;
  createdAt: Date;
  endedAt: Date | null;
  endedBy: string | null;
}

/** The registry's today (its time zone), as YYYY-MM-DD. */
export function registryToday(now: Date = new Date()): string {
  return wallTime(now.getTime(), readConfig().registryTimeZone).slice(0, 10);
}

/** A review date from a form: empty (none), or a day from today to REVIEW_YEARS ahead. */
function reviewDay(value: string, now: Date, field: string): string | null {
  if (!value) return null;
  const day = parseDate(value);
  if (!day) throw new InputError(msg("case.reviewNotDay", { value: value.slice(0, 40) }), { [field]: [msg("field.invalid")] });
  const today = registryToday(now);
  if (day < today) throw new InputError(msg("case.reviewPast", { day }), { [field]: [msg("field.inPast")] });
  const latest = `${Number(today.slice(0, 4)) + REVIEW_YEARS}${today.slice(4)}`;
  if (day > latest) throw new InputError(msg("case.reviewTooFar", { day, years: REVIEW_YEARS }), { [field]: [msg("field.invalid")] });
  return day;
}

/** A record's details as JSON: a message (a change's summary) with its instants marked, so they are said in the reader's zone. */
const stored = (detail: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(detail).map(([name, value]) => [
      name,
      value && typeof value === "object" && "key" in value ? storedMessage(value as Message) : value,
    ]),
  );

/** Appends to a case's record (case_events: appended only). */
export async function caseEvent(
  tx: SqlExecutor,
  caseId: number,
  actor: Pick<Actor, "username" | "userId">,
  event: string,
  detail: Record<string, unknown> = {},
  refs: { pendingId?: number | null; objectId?: number | null } = {},
): Promise<void> {
  await tx.query(
    `INSERT INTO console.case_events (case_id, at, actor, actor_id, event, pending_id, object_id, detail)
     VALUES ($1, clock_timestamp(), $2, $3, $4, $5, $6, $7::jsonb)`,
    [caseId, actor.username, actor.userId, event, refs.pendingId ?? null, refs.objectId ?? null, JSON.stringify(stored(detail))],
  );
}

const CASE_COLUMNS = `c.id, c.kind, k.name_en AS "kindEn", k.name_cs AS "kindCs", c.reference, c.requested_by AS "requestedBy",
       c.description, c.review_by::text AS "reviewBy", c.status, c.owner_id AS "ownerId", u.username AS owner,
       c.created_by AS "createdBy", c.created_at AS "createdAt", c.ended_at AS "endedAt", c.ended_by AS "endedBy"`;

type CaseRecord = Omit<CaseRow, "kindName"> & { kindEn: string; kindCs: string };
const named = <R extends CaseRecord>(row: R, lang: "en" | "cs"): Omit<R, "kindEn" | "kindCs"> & { kindName: string } => {
  const { kindEn, kindCs, ...rest } = row;
  return { ...rest, kindName: lang === "cs" ? kindCs : kindEn };
};

/**
 * One case, locked for a change when `lock`, held open while a change is made in it when `share`
 * (ending it waits for that change, and sees it); refused when there is none (or, `open`, when it
 * has ended). Changes take it after their objects' locks, as every writer does.
 */
export async function caseOf(
  tx: SqlExecutor,
  caseId: number,
  options: { lock?: boolean; share?: boolean; open?: boolean } = {},
): Promise<CaseRow> {
  const [row] = await tx.query<CaseRecord>(
    `SELECT ${CASE_COLUMNS} FROM console.cases c JOIN console.case_kinds k ON k.code = c.kind JOIN console.users u ON u.id = c.owner_id
      WHERE c.id = $1 ${options.lock ? "FOR UPDATE OF c" : options.share ? "FOR SHARE OF c" : ""}`,
    [caseId],
  );
  if (!row) throw new InputError(msg("case.none", { id: String(caseId) }), { caseId: [msg("input.unknown", { what: "case" })] });
  if (options.open && row.status !== "open") throw new InputError(msg("case.ended", { id: String(caseId), at: row.endedAt as Date }));
  return named(row, "en");
}

/** Opens a case, owned by the person who opens it. Two submissions of one form at once: the second finds the first. */
export async function openCase(input: unknown): Promise<{ message: Message; caseId: number }> {
  try {
    return await openCaseOnce(input);
  } catch (error) {
    if ((error as { code?: string }).code === "23505" && typeof (input as { idempotencyKey?: unknown })?.idempotencyKey === "string")
      return openCaseOnce(input);
    throw error;
  }
}

function openCaseOnce(input: unknown): Promise<{ message: Message; caseId: number }> {
  return auditedChange("cases.write", "case.open", caseSchema, input, async (tx, data, actor) => {
    const [kind] = await tx.query<{ retired: boolean }>(
      "SELECT retired_at IS NOT NULL AS retired FROM console.case_kinds WHERE code = $1",
      [data.kind],
    );
    if (!kind || kind.retired)
      throw new InputError(msg("case.kindUnknown", { kind: data.kind.slice(0, 40) }), { kind: [msg("field.invalid")] });
    const [{ now }] = await tx.query<{ now: Date }>("SELECT now() AS now");
    const reviewBy = reviewDay(data.reviewBy, now, "reviewBy");
    if (data.idempotencyKey) {
      const [earlier] = await tx.query<{ case_id: number }>(
        "SELECT case_id FROM console.case_events WHERE event = 'opened' AND detail ? 'key' AND detail ->> 'key' = $1",
        [data.idempotencyKey],
      );
      if (earlier)
        return {
          result: { message: msg("case.openedAlready", { id: String(earlier.case_id) }), caseId: earlier.case_id },
          audit: { input: { repeatOf: earlier.case_id } },
        };
    }
    const [{ id }] = await tx.query<{ id: number }>(
      `INSERT INTO console.cases (kind, reference, requested_by, description, review_by, owner_id, created_by, created_by_id, created_at)
       VALUES ($1, $2, $3, $4, $5::date, $6, $7, $6, $8) RETURNING id`,
      [data.kind, data.reference, data.requestedBy, data.description, reviewBy, actor.userId, actor.username, now],
    );
    await caseEvent(tx, id, actor, "opened", {
      kind: data.kind,
      reference: data.reference,
      requestedBy: data.requestedBy,
      reviewBy,
      ...(data.idempotencyKey ? { key: data.idempotencyKey } : {}),
    });
    return {
      result: { message: msg("case.opened", { id: String(id), reference: data.reference }), caseId: id },
      audit: { input: { caseId: id, kind: data.kind, reference: data.reference, requestedBy: data.requestedBy, reviewBy } },
    };
  });
}

/** Records that someone looked at a case, what they found and when it must be looked at next. */
export function reviewCase(input: unknown): Promise<{ message: Message }> {
  return auditedChange("cases.write", "case.review", reviewSchema, input, async (tx, data, actor) => {
    const c = await caseOf(tx, data.caseId, { lock: true, open: true });
    const [{ now }] = await tx.query<{ now: Date }>("SELECT now() AS now");
    const next = reviewDay(data.nextReview, now, "nextReview");
    await tx.query("UPDATE console.cases SET review_by = $2::date, review_mailed_for = NULL WHERE id = $1", [c.id, next]);
    await caseEvent(tx, c.id, actor, "reviewed", { note: data.note, nextReview: next, previous: c.reviewBy });
    return {
      result: { message: msg("case.reviewed", { id: String(c.id), next: next ?? "none" }) },
      audit: { input: { caseId: c.id, nextReview: next, note: data.note } },
    };
  });
}

/** The kinds of case, in their order (retired ones only when asked for). */
export async function caseKinds(db: SqlExecutor, withRetired = false) {
  return db.query<{ code: string; nameEn: string; nameCs: string; retired: boolean }>(
    `SELECT code, name_en AS "nameEn", name_cs AS "nameCs", retired_at IS NOT NULL AS retired FROM console.case_kinds
      ${withRetired ? "" : "WHERE retired_at IS NULL"} ORDER BY position, code`,
  );
}

/** The cases, open ones first (those due for review soonest), then the ended, newest first. */
export async function listCases(
  options: { status?: "open" | "ended" | "all" } = {},
): Promise<(CaseRow & { objects: number; pending: number })[]> {
  const { db } = await authorize("cases.read", "cases.list");
  const status = options.status ?? "all";
  const rows = await db.sql.query<CaseRecord & { objects: number; pending: number }>(
    `SELECT ${CASE_COLUMNS},
            (SELECT count(DISTINCT x.object_id)::int FROM (
                SELECT b.object_id FROM console.blocks b WHERE b.case_id = c.id
                UNION ALL SELECT r.object_id FROM console.request_meta m JOIN object_state_request r ON r.id = m.request_id WHERE m.case_id = c.id
                UNION ALL SELECT p.object_id FROM console.pending_changes p WHERE p.case_id = c.id AND p.status = 'pending') x) AS objects,
            (SELECT count(*)::int FROM console.pending_changes p WHERE p.case_id = c.id AND p.status = 'pending') AS pending
       FROM console.cases c JOIN console.case_kinds k ON k.code = c.kind JOIN console.users u ON u.id = c.owner_id
      WHERE $1 = 'all' OR c.status = $1
      ORDER BY c.status = 'ended', CASE WHEN c.status = 'open' THEN c.review_by END NULLS LAST, c.id DESC
      LIMIT 1000`,
    [status],
  );
  const lang = (await getLocale()) === "cs" ? "cs" : "en";
  return rows.map((row) => named(row, lang));
}

/** The kinds a new case may have, named in the reader's language. */
export async function caseKindChoices(): Promise<{ code: string; name: string }[]> {
  const { db } = await authorize("cases.read", "cases.kinds");
  const lang = await getLocale();
  return (await caseKinds(db.sql)).map((k) => ({ code: k.code, name: lang === "cs" ? k.nameCs : k.nameEn }));
}

/** The open cases a change may be made in (the bulk form's choice), newest first. */
// Cached for the request: an object's page offers the choice in its block form and its request form.
export const openCaseChoices = cache(async (): Promise<{ id: number; label: string }[]> => {
  const { db } = await authorize("cases.read", "cases.choices");
  return db.sql.query<{ id: number; label: string }>(
    "SELECT id, 'Case ' || id || ': ' || reference AS label FROM console.cases WHERE status = 'open' ORDER BY id DESC LIMIT 500",
  );
});

/** What the overview asks people to look at (issue 42): cases due for review, blocks ending within a week, changes waiting. */
export interface Attention {
  dueCases: { id: number; reference: string; reviewBy: string; owner: string }[];
  endingBlocks: { blockId: number; objectId: number; object: string; ends: Date; caseId: number | null }[];
  waiting: number;
}

/** How many of each the overview lists at most. */
const ATTENTION_MAX = 50;

export async function casesAttention(): Promise<Attention> {
  const { db } = await authorize("cases.read", "cases.attention");
  const today = registryToday();
  const [dueCases, endingBlocks, [{ waiting }]] = await Promise.all([
    db.sql.query<Attention["dueCases"][number]>(
      `SELECT c.id, c.reference, c.review_by::text AS "reviewBy", u.username AS owner
         FROM console.cases c JOIN console.users u ON u.id = c.owner_id
        WHERE c.status = 'open' AND c.review_by <= $1::date + 7 ORDER BY c.review_by, c.id LIMIT ${ATTENTION_MAX}`,
      [today],
    ),
    db.sql.query<Attention["endingBlocks"][number]>(
      `SELECT b.id AS "blockId", b.object_id AS "objectId", o.name AS object, r.valid_to AT TIME ZONE 'UTC' AS ends, b.case_id AS "caseId"
         FROM console.blocks b JOIN object_state_request r ON r.id = b.blocked_request_id JOIN object_registry o ON o.id = b.object_id
        WHERE b.unblocked_at IS NULL AND r.canceled IS NULL
          AND r.valid_to > now() AT TIME ZONE 'UTC' AND r.valid_to <= (now() + interval '7 days') AT TIME ZONE 'UTC'
        ORDER BY r.valid_to, b.id LIMIT ${ATTENTION_MAX}`,
    ),
    db.sql.query<{ waiting: number }>("SELECT count(*)::int AS waiting FROM console.pending_changes WHERE status = 'pending'"),
  ]);
  return { dueCases, endingBlocks, waiting };
}
