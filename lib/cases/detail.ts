import "server-only";
import { english, type Message } from "../actions/message";
import { restoredMessage } from "../audit/said";
import { authorize } from "../auth/guard";
import { roleAllows } from "../auth/roles";
import { readConfig } from "../config";
import { wallTime, zoneOffsetMinutes } from "../format/instant";
import { getLocale } from "../i18n/server";
import { csvField } from "../objects/export";
import { type CaseRow, caseKinds, caseOf } from "./cases";
import { type PendingChange, pendingChanges } from "./pending";

/** A block or request made in a case, with its object and the object's states now. */
export interface CaseItem {
  objectId: number;
  object: string;
  type: string;
  kind: "block" | "request";
  blockId: number | null;
  requestId: number;
  state: string;
  from: Date;
  /** When it ends: its end, or when it was canceled or lifted; null: no end. */
  to: Date | null;
  lifted: boolean;
  author: string;
  approvedBy: string | null;
  statesNow: string[];
}

export interface CaseEvent {
  id: number;
  at: Date;
  actor: string;
  event: string;
  pendingId: number | null;
  objectId: number | null;
  object: string | null;
  detail: Record<string, unknown> & { summary?: Message };
}

export interface CaseDetail {
  case: CaseRow;
  items: CaseItem[];
  pending: PendingChange[];
  events: CaseEvent[];
  /** Whether the reader may change the case (open, review, propose, approve). */
  mayWrite: boolean;
}

/** A case with everything done under it (cases.read: support reads, operators and admins change). */
export async function caseDetail(caseId: number): Promise<CaseDetail | null> {
  const { db, actor } = await authorize("cases.read", "case.read");
  const [found] = await db.sql.query<{ id: number }>("SELECT id FROM console.cases WHERE id = $1", [caseId]);
  if (!found) return null;
  const [row, locale] = await Promise.all([caseOf(db.sql, caseId), getLocale()]);
  if (locale === "cs") {
    const kinds = await caseKinds(db.sql, true);
    row.kindName = kinds.find((k) => k.code === row.kind)?.nameCs ?? row.kindName;
  }
  const items = await db.sql.query<CaseItem>(
    `WITH items AS (
       SELECT b.object_id, 'block' AS kind, b.id AS block_id, r.id AS request_id, r.state_id, r.valid_from,
              least(r.valid_to, r.canceled, b.unblocked_at AT TIME ZONE 'UTC') AS ends, b.unblocked_at IS NOT NULL AS lifted, m.author, m.approved_by
         FROM console.blocks b JOIN object_state_request r ON r.id = b.blocked_request_id
         JOIN console.request_meta m ON m.request_id = r.id
        WHERE b.case_id = $1
       UNION ALL
       SELECT r.object_id, 'request', NULL, r.id, r.state_id, r.valid_from, least(r.valid_to, r.canceled), r.canceled IS NOT NULL, m.author, m.approved_by
         FROM console.request_meta m JOIN object_state_request r ON r.id = m.request_id
        WHERE m.case_id = $1 AND m.block_id IS NULL)
     SELECT i.object_id AS "objectId", o.name AS object, t.name AS type, i.kind, i.block_id AS "blockId", i.request_id AS "requestId",
            s.name AS state, i.valid_from AT TIME ZONE 'UTC' AS "from", i.ends AT TIME ZONE 'UTC' AS "to", i.lifted, i.author,
            i.approved_by AS "approvedBy",
            ARRAY(SELECT es.name FROM object_state os JOIN enum_object_states es ON es.id = os.state_id
                   WHERE os.object_id = o.id AND os.valid_to IS NULL ORDER BY es.importance DESC NULLS LAST, es.id) AS "statesNow"
       FROM items i JOIN object_registry o ON o.id = i.object_id JOIN enum_object_type t ON t.id = o.type
       JOIN enum_object_states s ON s.id = i.state_id
      ORDER BY o.name, i.valid_from, i.request_id`,
    [caseId],
  );
  const events = await db.sql.query<CaseEvent>(
    `SELECT e.id, e.at, e.actor, e.event, e.pending_id AS "pendingId", e.object_id AS "objectId", o.name AS object, e.detail
       FROM console.case_events e LEFT JOIN object_registry o ON o.id = e.object_id
      WHERE e.case_id = $1 ORDER BY e.id`,
    [caseId],
  );
  const pending = await pendingChanges({ caseId, all: true });
  return { case: row, items, pending, events, mayWrite: roleAllows(actor.role, "cases.write") };
}

/**
 * A case's record as CSV (in English, instants in the registry's zone with its offset): the case,
 * then what was made in it, then every step in order — what an authority reads without the console.
 */
export async function caseRecordCsv(caseId: number): Promise<string | null> {
  const detail = await caseDetail(caseId);
  if (!detail) return null;
  const zone = readConfig().registryTimeZone;
  // ISO 8601 in the registry's zone, with its offset: 2026-12-02T11:07:00+01:00.
  const at = (d: Date | string | null) => {
    if (d === null) return null;
    const ms = new Date(d).getTime();
    const offset = zoneOffsetMinutes(ms, zone);
    const hhmm = `${String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0")}:${String(Math.abs(offset) % 60).padStart(2, "0")}`;
    return `${wallTime(ms, zone)}${offset < 0 ? "-" : "+"}${hhmm}`;
  };
  // A change's summary is kept with its instants marked (lib/audit/said.ts).
  const said = (value: unknown) => {
    const message = restoredMessage(value);
    return message ? english(message) : value == null || typeof value === "object" ? "" : String(value);
  };
  const c = detail.case;
  const lines = [
    ["record", "case", "kind", "reference", "requested_by", "review_by", "status", "opened_by", "opened_at", "ended_by", "ended_at"],
    ["case", c.id, c.kindName, c.reference, c.requestedBy, c.reviewBy, c.status, c.createdBy, at(c.createdAt), c.endedBy, at(c.endedAt)],
    [],
    ["record", "object", "type", "change", "state", "from", "until", "ended_early", "made_by", "approved_by", "states_now"],
    ...detail.items.map((i) => [
      "item",
      i.object,
      i.type,
      i.kind === "block" ? `block ${i.blockId}` : `request ${i.requestId}`,
      i.state,
      at(i.from),
      at(i.to),
      i.lifted ? "yes" : "no",
      i.author,
      i.approvedBy,
      i.statesNow.join(" "),
    ]),
    [],
    ["record", "at", "actor", "event", "object", "change", "detail"],
    ...detail.events.map((e) => [
      "step",
      at(e.at),
      e.actor,
      e.event,
      e.object,
      e.pendingId,
      [
        said(e.detail.summary),
        said(e.detail.note),
        said(e.detail.reason),
        e.detail.nextReview ? `next review ${said(e.detail.nextReview)}` : "",
      ]
        .filter(Boolean)
        .join("; "),
    ]),
  ];
  return `${lines.map((row) => row.map((v) => csvField((v ?? null) as string | number | null)).join(",")).join("\r\n")}\r\n`;
}
