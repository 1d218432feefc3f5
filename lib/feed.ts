import "server-only";
import { createHash, randomBytes } from "node:crypto";
import * as z from "zod";
import { auditedChange } from "./actions/change";
import { idSchema } from "./actions/ids";
import { type Message, msg, zodError } from "./actions/message";
import { InputError } from "./actions/result";
import { authorize } from "./auth/guard";
import { requestDatabase } from "./auth/request-context";
import type { SqlExecutor } from "./db/driver";
import { logAnonymousRefusal } from "./log";

// The state change feed (migration 20261124030000_console_pages; current text in prisma/sql/functions/state_feed_*.sql): every state entered or left, in
// commit order, for other systems holding an API token.

export const FEED_PAGE_MAX = 1000;

export interface StateChange {
  /** The feed's id: increasing, each change once. Ask for `after` the last one you have. */
  id: number;
  objectId: number;
  object: string;
  type: string;
  state: string;
  change: "entered" | "left";
  at: string;
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

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

export interface FeedClient {
  id: number;
  name: string;
}

/** The client an `Authorization: Bearer <token>` header names, if its token is valid and not revoked. */
export async function feedClient(db: SqlExecutor, authorization: string | null): Promise<FeedClient | null> {
  const token = /^Bearer\s+(rsc_[A-Za-z0-9_-]{20,100})$/.exec(authorization?.trim() ?? "")?.[1];
  if (!token) return null;
  const [client] = await db.query<FeedClient>("SELECT id, name FROM console.api_tokens WHERE token_hash = $1 AND revoked_at IS NULL", [
    hash(token),
  ]);
  return client ?? null;
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
  }>(
    `SELECT c.seq::text AS seq, c.object_id, o.name AS object, t.name AS type, s.name AS state, c.change, c.at
       FROM console.state_changes c
       JOIN enum_object_states s ON s.id = c.state_id
       JOIN object_registry o ON o.id = c.object_id JOIN enum_object_type t ON t.id = o.type
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
    })),
    next: page.length > 0 ? Number(page[page.length - 1].seq) : after,
    more: rows.length > limit,
  };
}

export interface ApiTokenRecord {
  id: number;
  name: string;
  createdBy: string;
  createdAt: string;
  revokedAt: string | null;
  revokedBy: string | null;
  lastUsedAt: string | null;
  lastAfter: number | null;
}

/** The feed's clients, for administrators. */
export async function listApiTokens(): Promise<ApiTokenRecord[]> {
  const { db } = await authorize("users.manage", "tokens.list");
  const rows = await db.sql.query<{
    id: number;
    name: string;
    created_by: string;
    created_at: Date;
    revoked_at: Date | null;
    revoked_by: string | null;
    last_used_at: Date | null;
    last_after: string | null;
  }>("SELECT id, name, created_by, created_at, revoked_at, revoked_by, last_used_at, last_after::text FROM console.api_tokens ORDER BY id");
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    createdBy: r.created_by,
    createdAt: r.created_at.toISOString(),
    revokedAt: r.revoked_at?.toISOString() ?? null,
    revokedBy: r.revoked_by,
    lastUsedAt: r.last_used_at?.toISOString() ?? null,
    lastAfter: r.last_after === null ? null : Number(r.last_after),
  }));
}

const createTokenSchema = z.object({
  name: z
    .string({ error: zodError("tokens.nameMissing") })
    .trim()
    .min(1, { error: zodError("tokens.nameMissing") })
    .max(100, { error: zodError("tokens.nameTooLong", { max: 100 }) }),
});

/** A new token for a client; the token itself is in the result only, never stored. */
export function createApiToken(input: unknown): Promise<{ message: Message; token: string }> {
  return auditedChange("users.manage", "token.create", createTokenSchema, input, async (tx, data, actor) => {
    const [taken] = await tx.query("SELECT 1 FROM console.api_tokens WHERE lower(name) = lower($1)", [data.name]);
    if (taken) throw new InputError(msg("tokens.nameTaken", { name: data.name }), { name: [msg("field.taken")] });
    const token = `rsc_${randomBytes(32).toString("base64url")}`;
    const [{ id }] = await tx.query<{ id: number }>(
      "INSERT INTO console.api_tokens (name, token_hash, created_by) VALUES ($1, $2, $3) RETURNING id",
      [data.name, hash(token), actor.username],
    );
    return {
      result: { message: msg("tokens.created", { name: data.name }), token },
      audit: { input: { tokenId: id, name: data.name } },
    };
  });
}

const revokeTokenSchema = z.object({ tokenId: idSchema("token") });

/** Revokes a client's token: its next request is refused. */
export function revokeApiToken(input: unknown): Promise<{ message: Message }> {
  return auditedChange("users.manage", "token.revoke", revokeTokenSchema, input, async (tx, data, actor) => {
    const [token] = await tx.query<{ name: string; revoked_at: Date | null }>(
      "SELECT name, revoked_at FROM console.api_tokens WHERE id = $1 FOR UPDATE",
      [data.tokenId],
    );
    if (!token) throw new InputError(msg("tokens.noToken", { id: String(data.tokenId) }));
    if (token.revoked_at) throw new InputError(msg("tokens.alreadyRevoked", { name: token.name }));
    await tx.query("UPDATE console.api_tokens SET revoked_at = now(), revoked_by = $2 WHERE id = $1", [data.tokenId, actor.username]);
    return {
      result: { message: msg("tokens.revoked", { name: token.name }) },
      audit: { input: { tokenId: data.tokenId, name: token.name } },
    };
  });
}
