import "server-only";
import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import * as z from "zod";
import { idSchema } from "../actions/ids";
import { zodError } from "../actions/message";
import { InputError } from "../actions/result";
import { authorize } from "../auth/guard";
import { registrationOptions, registrationResponseSchema, verifiedRegistration } from "../auth/security-keys";
import { type Message, msg } from "../i18n/message";
import { ownSignInChange } from "./reauth";
import { findUser } from "./store";

/** The most security keys one person may register. */
export const MAX_SECURITY_KEYS = 10;
const NAME_MAX = 60;

/** A security key as /preferences lists it. */
export interface OwnSecurityKey {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export async function ownSecurityKeys(): Promise<OwnSecurityKey[]> {
  const { actor, db } = await authorize("self.password", "security_keys.read");
  const keys = await db.prisma.securityKey.findMany({
    where: { userId: actor.userId },
    orderBy: { id: "asc" },
    select: { id: true, name: true, createdAt: true, lastUsedAt: true },
  });
  return keys.map((key) => ({ ...key, createdAt: key.createdAt.toISOString(), lastUsedAt: key.lastUsedAt?.toISOString() ?? null }));
}

/** The options the browser gives navigator.credentials.create() to register a new key of the signed-in person. */
export async function securityKeyOptions(): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { actor, db } = await authorize("self.password", "security_keys.options");
  const user = await db.prisma.user.findUniqueOrThrow({
    where: { id: actor.userId },
    select: { id: true, username: true, displayName: true, securityKeys: { select: { credentialId: true, transports: true } } },
  });
  return registrationOptions(user, user.securityKeys);
}

const addSchema = z.object({
  name: z
    .string({ error: zodError("securityKeys.nameMissing") })
    .trim()
    .min(1, { error: zodError("securityKeys.nameMissing") })
    .max(NAME_MAX, { error: zodError("securityKeys.nameTooLong", { max: NAME_MAX }) }),
  response: z
    .string({ error: zodError("securityKeys.noResponse") })
    .min(1, { error: zodError("securityKeys.noResponse") })
    .max(40_000, { error: zodError("securityKeys.notVerified") })
    .transform((text, ctx) => {
      try {
        const parsed = registrationResponseSchema.safeParse(JSON.parse(text));
        if (parsed.success) return parsed.data as RegistrationResponseJSON;
      } catch {}
      ctx.addIssue({ code: "custom", message: zodError("securityKeys.notVerified")() });
      return z.NEVER;
    }),
});

/** Registers the key that answered `response` (to options from securityKeyOptions) under `name`, with the person's current password. */
export function addSecurityKey(input: unknown): Promise<{ message: Message }> {
  return ownSignInChange("user.security_key.add", addSchema, input, async (tx, data, actor) => {
    const key = await verifiedRegistration(data.response, actor.userId);
    if (!key) throw new InputError(msg("securityKeys.notVerified"));
    // The person's row is locked, so two keys added at once cannot pass the limit together.
    await findUser(tx, actor.userId);
    if ((await tx.prisma.securityKey.count({ where: { userId: actor.userId } })) >= MAX_SECURITY_KEYS) {
      throw new InputError(msg("securityKeys.tooMany", { max: MAX_SECURITY_KEYS }));
    }
    if (await tx.prisma.securityKey.findUnique({ where: { credentialId: key.credentialId }, select: { id: true } })) {
      throw new InputError(msg("securityKeys.alreadyAdded"));
    }
    const { id } = await tx.prisma.securityKey.create({
      data: { userId: actor.userId, name: data.name, ...key, publicKey: new Uint8Array(key.publicKey) },
      select: { id: true },
    });
    return {
      result: { message: msg("securityKeys.added", { name: data.name }) },
      audit: { userId: actor.userId, keyId: id, name: data.name },
      notice: "security_key_added",
    };
  });
}

const removeSchema = z.object({ keyId: idSchema("securityKey") });

/** Removes one of the signed-in person's own keys, with their current password. */
export function removeSecurityKey(input: unknown): Promise<{ message: Message }> {
  return ownSignInChange("user.security_key.remove", removeSchema, input, async (tx, data, actor) => {
    const key = await tx.prisma.securityKey.findFirst({ where: { id: data.keyId, userId: actor.userId }, select: { name: true } });
    // deleteMany: gone meanwhile (an administrator's reset) is the same answer as never there.
    const { count } = await tx.prisma.securityKey.deleteMany({ where: { id: data.keyId, userId: actor.userId } });
    if (!key || count === 0) throw new InputError(msg("input.unknown", { what: "securityKey" }));
    return {
      result: { message: msg("securityKeys.removed", { name: key.name }) },
      audit: { userId: actor.userId, keyId: data.keyId, name: key.name },
      notice: "security_key_removed",
    };
  });
}
