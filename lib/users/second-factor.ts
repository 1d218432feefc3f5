import "server-only";
import * as z from "zod";
import { auditedChange } from "../actions/change";
import { idSchema } from "../actions/ids";
import { zodError } from "../actions/message";
import { InputError } from "../actions/result";
import { authorize } from "../auth/guard";
import { acceptedStep, enrolmentOf, newRecoveryCodes, newSecret, openSecret, sealSecret } from "../auth/second-factor";
import type { Actor } from "../auth/sessions";
import { type Message, msg } from "../i18n/message";
import { mailNotice, recordNotice } from "./notices";
import { ownSignInChange } from "./reauth";
import { removeSecondFactors } from "./store";

/** What /preferences shows of the signed-in person's second factor. */
export type OwnSecondFactor =
  | { state: "off" }
  /** Enrolment started: the secret to add to an app, until a code from it confirms it. */
  | { state: "pending"; base32: string; qrSvg: string }
  | { state: "on"; since: string; recoveryLeft: number };

export async function ownSecondFactor(): Promise<OwnSecondFactor> {
  const { actor, db } = await authorize("self.password", "second_factor.read");
  const factor = await db.prisma.secondFactor.findUnique({ where: { userId: actor.userId } });
  if (!factor) return { state: "off" };
  if (factor.confirmedAt) return { state: "on", since: factor.confirmedAt.toISOString(), recoveryLeft: factor.recoveryHashes.length };
  const base32 = openSecret(factor.secret);
  return { state: "pending", base32, qrSvg: enrolmentOf(base32, actor.username).qrSvg };
}

const noInput = z.object({});

/** Starts enrolment: a new secret for the person's app (a pending one is replaced). */
export function startSecondFactor(input: unknown = {}): Promise<{ message: Message }> {
  return auditedChange("self.password", "user.second_factor.start", noInput, input, async (tx, _data, actor) => {
    const existing = await tx.prisma.secondFactor.findUnique({ where: { userId: actor.userId }, select: { confirmedAt: true } });
    if (existing?.confirmedAt) throw new InputError(msg("secondFactor.alreadyOn"));
    const secret = sealSecret(newSecret());
    await tx.prisma.secondFactor.upsert({
      where: { userId: actor.userId },
      create: { userId: actor.userId, secret },
      update: { secret, lastStep: null, recoveryHashes: [] },
      select: { userId: true },
    });
    return { result: { message: msg("secondFactor.started") }, audit: { input: { userId: actor.userId } } };
  });
}

const confirmSchema = z.object({
  code: z
    .string({ error: zodError("secondFactor.codeMissing") })
    .trim()
    .regex(/^\d{6}$/, { error: zodError("secondFactor.codeForm") }),
});

/**
 * Confirms enrolment with a code from the app and the person's current password (a session alone
 * does not add a second factor: lib/users/reauth.ts); the recovery codes come back once, in the message.
 */
export function confirmSecondFactor(input: unknown): Promise<{ message: Message; recoveryCodes: string[] }> {
  return ownSignInChange("user.second_factor.enrol", confirmSchema, input, async (tx, data, actor) => {
    const pending = await tx.prisma.secondFactor.findUnique({ where: { userId: actor.userId } });
    if (!pending) throw new InputError(msg("secondFactor.notStarted"));
    if (pending.confirmedAt) throw new InputError(msg("secondFactor.alreadyOn"));
    const step = acceptedStep(openSecret(pending.secret), data.code, null);
    if (step === null) throw new InputError(msg("secondFactor.wrongCode"), { code: [msg("secondFactor.wrongCode")] });
    const { codes, hashes } = newRecoveryCodes();
    await tx.prisma.secondFactor.update({
      where: { userId: actor.userId },
      data: { confirmedAt: new Date(), lastStep: step, recoveryHashes: hashes },
      select: { userId: true },
    });
    return {
      result: { message: msg("secondFactor.enrolled", { codes: codes.join("  ") }), recoveryCodes: codes },
      audit: { userId: actor.userId },
      notice: "second_factor_enrolled",
    };
  });
}

/** The person turns their authenticator app off (to replace it, or for security keys alone), with their current password. */
export function removeOwnSecondFactor(input: unknown): Promise<{ message: Message }> {
  return ownSignInChange("user.second_factor.remove", noInput, input, async (tx, _data, actor) => {
    const { count } = await tx.prisma.secondFactor.deleteMany({ where: { userId: actor.userId, confirmedAt: { not: null } } });
    if (count === 0) throw new InputError(msg("secondFactor.notOn"));
    return { result: { message: msg("secondFactor.removed") }, audit: { userId: actor.userId }, notice: "second_factor_removed" };
  });
}

/** Ten new recovery codes for the person's app, shown once; the old ones stop working. With the current password. */
export function renewRecoveryCodes(input: unknown): Promise<{ message: Message; recoveryCodes: string[] }> {
  return ownSignInChange("user.second_factor.recovery_codes", noInput, input, async (tx, _data, actor) => {
    const { codes, hashes } = newRecoveryCodes();
    const { count } = await tx.prisma.secondFactor.updateMany({
      where: { userId: actor.userId, confirmedAt: { not: null } },
      data: { recoveryHashes: hashes },
    });
    if (count === 0) throw new InputError(msg("secondFactor.notOn"));
    return {
      result: { message: msg("secondFactor.recoveryRenewed", { codes: codes.join("  ") }), recoveryCodes: codes },
      audit: { userId: actor.userId },
      notice: "recovery_codes_renewed",
    };
  });
}

const resetSchema = z.object({ userId: idSchema("user") });

/** An administrator removes a person's second factors (a lost phone or key), app and security keys: their sessions end; they enrol again. */
export async function resetSecondFactor(input: unknown): Promise<{ message: Message }> {
  const told: { userId?: number; by?: Actor } = {};
  const result = await auditedChange("users.manage", "user.second_factor.reset", resetSchema, input, async (tx, data, actor) => {
    const user = await tx.prisma.user.findUnique({ where: { id: data.userId }, select: { username: true } });
    if (!user) throw new InputError(msg("users.noUser", { id: String(data.userId) }));
    if ((await removeSecondFactors(tx, data.userId)) === 0)
      throw new InputError(msg("secondFactor.noneToReset", { username: user.username }));
    await recordNotice(tx, data.userId, "second_factor_reset", actor);
    Object.assign(told, { userId: data.userId, by: actor });
    return { result: { message: msg("secondFactor.reset", { username: user.username }) }, audit: { input: { userId: data.userId } } };
  });
  if (told.userId && told.by) mailNotice(told.userId, "second_factor_reset", told.by);
  return result;
}
