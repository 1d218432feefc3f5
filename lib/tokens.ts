import "server-only";
import { createHash, randomBytes } from "node:crypto";
import * as z from "zod";
import { auditedChange } from "./actions/change";
import { idSchema } from "./actions/ids";
import { type Message, msg, zodError } from "./actions/message";
import { InputError } from "./actions/result";
import { authorize } from "./auth/guard";
import type { SqlExecutor } from "./db/driver";

// API tokens: the clients that may read the state change feed (lib/feed.ts). Administrators
// create and revoke them; only a token's hash is kept.

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
