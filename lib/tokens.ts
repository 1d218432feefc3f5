import "server-only";
import { createHash, randomBytes } from "node:crypto";
import * as z from "zod";
import { auditedChange } from "./actions/change";
import { idSchema } from "./actions/ids";
import { zodError } from "./actions/message";
import { InputError } from "./actions/result";
import { authorize } from "./auth/guard";
import type { ConsoleExecutor } from "./db/driver";
import { type Message, msg } from "./i18n/message";

// API tokens: the clients that may read the state change feed (lib/feed.ts). Administrators
// create and revoke them; only a token's hash is kept.

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

export interface FeedClient {
  id: number;
  name: string;
}

/** The client an `Authorization: Bearer <token>` header names, if its token is valid and not revoked. */
export async function feedClient(db: ConsoleExecutor, authorization: string | null): Promise<FeedClient | null> {
  const token = /^Bearer\s+(rsc_[A-Za-z0-9_-]{20,100})$/.exec(authorization?.trim() ?? "")?.[1];
  if (!token) return null;
  return db.prisma.apiToken.findFirst({ where: { tokenHash: hash(token), revokedAt: null }, select: { id: true, name: true } });
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
  const rows = await db.prisma.apiToken.findMany({ orderBy: { id: "asc" }, omit: { tokenHash: true } });
  return rows.map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    revokedAt: r.revokedAt?.toISOString() ?? null,
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    lastAfter: r.lastAfter === null ? null : Number(r.lastAfter),
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
    const taken = await tx.prisma.apiToken.findFirst({ where: { name: { equals: data.name, mode: "insensitive" } }, select: { id: true } });
    if (taken) throw new InputError(msg("tokens.nameTaken", { name: data.name }), { name: [msg("field.taken")] });
    const token = `rsc_${randomBytes(32).toString("base64url")}`;
    const { id } = await tx.prisma.apiToken.create({
      data: { name: data.name, tokenHash: hash(token), createdBy: actor.username },
      select: { id: true },
    });
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
    // One statement decides: of two administrators revoking at once, the second is told it is done.
    const { count } = await tx.prisma.apiToken.updateMany({
      where: { id: data.tokenId, revokedAt: null },
      data: { revokedAt: new Date(), revokedBy: actor.username },
    });
    const token = await tx.prisma.apiToken.findUnique({ where: { id: data.tokenId }, select: { name: true } });
    if (!token) throw new InputError(msg("tokens.noToken", { id: String(data.tokenId) }));
    if (count === 0) throw new InputError(msg("tokens.alreadyRevoked", { name: token.name }));
    return {
      result: { message: msg("tokens.revoked", { name: token.name }) },
      audit: { input: { tokenId: data.tokenId, name: token.name } },
    };
  });
}
