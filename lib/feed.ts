import "server-only";
import * as z from "zod";
import { InputError } from "./actions/result";
import { requestDatabase } from "./auth/request-context";
import type { SqlExecutor } from "./db/driver";
import { logAnonymousRefusal } from "./log";
import { feedClient } from "./tokens";

// The state change feed (migration 20261124030000_console_pages; current text in prisma/sql/functions/state_feed_*.sql): every state entered or left, in
// commit order, for other systems holding an API token.

const FEED_PAGE_MAX = 1000;

export interface StateChange {
  /** The feed's id: increasing, each change once. Ask for `after` the last one you have. */
  id: number;
  objectId: number;
  object: string;
  type: string;
  state: string;
  change: "entered" | "left";
  at: string;
  /** The case the manual request behind the change was made in (issue 42), if any. */
  case: { id: number; reference: string } | null;
}

export interface FeedPage {
  changes: StateChange[];
  /** The id to ask after next time (the last one here, or the one asked after when none). */
  next: number;
  /** More changes wait after `next`. */
  more: boolean;
}

/** Numbers the committed changes that have no number yet (see console.sequence_state_changes). */
export async function sequenceStateChanges(db: SqlExecutor): Promise<number> {
  const [{ n }] = await db.query<{ n: string }>("SELECT console.sequence_state_changes()::text AS n");
  return Number(n);
}

const feedQuerySchema = z.object({
  after: z
    .string()
    .regex(/^\d{1,15}$/, { error: "after must be a change id: a whole number, 0 for the beginning." })
    .transform(Number)
    .optional()
    .default(0),
  states: z
    .string()
    .max(1000, { error: "states is too long." })
    .regex(/^[A-Za-z0-9, ]*$/, { error: "states must be state names separated by commas." })
    .optional()
    .default(""),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, { error: `limit must be a whole number from 1 to ${FEED_PAGE_MAX}.` })
    .transform(Number)
    .refine((n) => n >= 1 && n <= FEED_PAGE_MAX, { error: `limit must be a whole number from 1 to ${FEED_PAGE_MAX}.` })
    .optional()
    .default(500),
});

/**
 * One page of the feed for a client: changes after `after`, of the named states (comma-separated
 * state names; all when empty), oldest first. Reading is idempotent: the same `after` gives the
 * same changes. Refused without a valid token (null).
 */
export async function readStateChanges(authorization: string | null, params: Record<string, string | undefined>): Promise<FeedPage | null> {
  const db = (await requestDatabase()).sql;
  const client = await feedClient(db, authorization);
  if (!client) {
    // Logged (rate-limited), not audited: the endpoint is public, and an audit row per anonymous
    // request would let anyone grow the audit log and queue every console write behind its chain lock.
    logAnonymousRefusal("feed.token", { code: authorization ? "invalid or revoked token" : "no token" });
    return null;
  }
  const parsed = feedQuerySchema.safeParse(params);
  if (!parsed.success) throw new InputError(parsed.error.issues[0]?.message ?? "The query is not valid.");
  const { after, limit } = parsed.data;
  const names = parsed.data.states
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const known = await db.query<{ id: number; name: string }>("SELECT id, name FROM enum_object_states WHERE name = ANY ($1::text[])", [
    names,
  ]);
  const unknown = names.filter((n) => !known.some((k) => k.name === n));
  if (unknown.length > 0) throw new InputError(`Unknown state(s): ${unknown.map((n) => n.slice(0, 50)).join(", ")}.`);

  await sequenceStateChanges(db);
  const rows = await db.query<{
    seq: string;
    object_id: number;
    object: string;
    type: string;
    state: string;
    change: "entered" | "left";
    at: Date;
    case_id: number | null;
    case_reference: string | null;
  }>(
    // A manual state's change names the case of the request behind it: for an entry the request that
    // began last by then, for a leaving the one that ended last by then (FRED keeps UTC timestamps).
    `SELECT c.seq::text AS seq, c.object_id, o.name AS object, t.name AS type, s.name AS state, c.change, c.at,
            k.case_id, k.reference AS case_reference
       FROM console.state_changes c
       JOIN enum_object_states s ON s.id = c.state_id
       JOIN object_registry o ON o.id = c.object_id JOIN enum_object_type t ON t.id = o.type
       LEFT JOIN LATERAL (
         SELECT m.case_id, cs.reference
           FROM object_state_request r JOIN console.request_meta m ON m.request_id = r.id JOIN console.cases cs ON cs.id = m.case_id
          WHERE s.manual AND r.object_id = c.object_id AND r.state_id = c.state_id
            AND CASE WHEN c.change = 'entered' THEN r.valid_from
                     ELSE least(coalesce(r.canceled, 'infinity'), coalesce(r.valid_to, 'infinity')) END <= c.at AT TIME ZONE 'UTC'
          ORDER BY CASE WHEN c.change = 'entered' THEN r.valid_from
                        ELSE least(coalesce(r.canceled, 'infinity'), coalesce(r.valid_to, 'infinity')) END DESC
          LIMIT 1) k ON true
      WHERE c.seq > $1 AND (cardinality($2::int[]) = 0 OR c.state_id = ANY ($2::int[]))
      ORDER BY c.seq LIMIT $3`,
    [after, known.map((k) => k.id), limit + 1],
  );
  await db.query("UPDATE console.api_tokens SET last_used_at = now(), last_after = $2 WHERE id = $1", [client.id, after]);
  const page = rows.slice(0, limit);
  return {
    changes: page.map((r) => ({
      id: Number(r.seq),
      objectId: r.object_id,
      object: r.object,
      type: r.type,
      state: r.state,
      change: r.change,
      at: r.at.toISOString(),
      case: r.case_id === null ? null : { id: r.case_id, reference: r.case_reference as string },
    })),
    next: page.length > 0 ? Number(page[page.length - 1].seq) : after,
    more: rows.length > limit,
  };
}
