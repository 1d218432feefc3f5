import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { renderSVG } from "uqr";
import type { ConsoleExecutor } from "../db/driver";
import { derivedKey, ISSUER } from "./factor-keys";
import { checkSecurityKey } from "./security-keys";

/**
 * A second factor for password and directory sign-in: TOTP (RFC 6238: SHA-1, 6 digits, 30 s, the
 * authenticator apps' defaults) and ten one-time recovery codes. The secret is kept encrypted
 * (AES-256-GCM, a key derived from NEXTAUTH_SECRET); a code is accepted in the step before, at or
 * after now, and never twice.
 */
const PERIOD = 30;
const RECOVERY_CODES = 10;

/** SECOND_FACTOR: "optional" (default: whoever wants one enrols) or "admins" (administrators must). */
export function secondFactorPolicy(env: Record<string, string | undefined> = process.env): "optional" | "admins" {
  return env.SECOND_FACTOR === "admins" ? "admins" : "optional";
}

const key = () => derivedKey("second-factor secrets");

export function sealSecret(base32: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const sealed = Buffer.concat([cipher.update(base32, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), sealed.toString("base64")].join(".");
}

export function openSecret(sealed: string): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || !data) throw new Error("a second factor's secret is not in a known form");
  const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]).toString("utf8");
}

const totp = (base32: string, username: string) =>
  new TOTP({ issuer: ISSUER, label: username, secret: Secret.fromBase32(base32), period: PERIOD, digits: 6, algorithm: "SHA1" });

/** What an authenticator app is given: the otpauth:// URI of `base32` and that URI as an SVG QR code. */
export function enrolmentOf(base32: string, username: string): { uri: string; qrSvg: string } {
  const uri = totp(base32, username).toString();
  return { uri, qrSvg: renderSVG(uri, { ecc: "M" }) };
}

/** A new secret, in base32 (typed by hand when no camera is at hand). */
export function newSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The step a right code is for (one before, now or one after), null for a wrong or reused one. */
export function acceptedStep(base32: string, code: string, lastStep: number | null, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = TOTP.validate({ token: code, secret: Secret.fromBase32(base32), period: PERIOD, timestamp: now, window: 1 });
  if (delta === null) return null;
  const step = TOTP.counter({ period: PERIOD, timestamp: now }) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

const normalCode = (code: string) => code.replace(/[\s-]/g, "").toLowerCase();

/**
 * What is kept of a recovery code: an HMAC-SHA-256 under a key derived from NEXTAUTH_SECRET, which
 * the database never holds, so a code cannot be found from a stolen hash by trying its 2^40 values
 * (ASVS 4.0 V2.6.2, V2.6.3). Codes made before are kept as their plain SHA-256 and still accepted.
 */
const hashCode = (code: string) => `h1:${createHmac("sha256", derivedKey("recovery codes")).update(normalCode(code)).digest("hex")}`;
const legacyHashCode = (code: string) => createHash("sha256").update(normalCode(code)).digest("hex");

/** Ten recovery codes (shown once) and what is kept of them. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const raw = randomBytes(5).toString("hex");
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  return { codes, hashes: codes.map(hashCode) };
}

/** The index of the recovery code `code` is, or -1. */
export function recoveryIndex(hashes: string[], code: string): number {
  const forms = [Buffer.from(hashCode(code)), Buffer.from(legacyHashCode(code))];
  return hashes.findIndex((h) => forms.some((hash) => h.length === hash.length && timingSafeEqual(Buffer.from(h), hash)));
}

/** Which second factors a person has: an authenticator app (with its recovery codes), security keys. */
interface SecondFactorMethods {
  totp: boolean;
  key: boolean;
}

export type SecondFactorCheck =
  | { kind: "none" }
  /** `keyIds`: the person's security keys; `problem`: why an answer was refused (for the audit). */
  | { kind: "missing" | "wrong"; methods: SecondFactorMethods; keyIds: string[]; problem?: string }
  | { kind: "totp" | "recovery" | "security_key" };

/**
 * Checks the second factor of `userId` for a sign-in: "none" (the person has none), "missing" (one
 * is needed and neither a code nor a security key's answer came, or the key's answer came too
 * late), "wrong", or how it was passed. A passed code or challenge is used up.
 */
export async function checkSecondFactor(
  tx: ConsoleExecutor,
  userId: number,
  given: { code?: string; assertion?: string },
): Promise<SecondFactorCheck> {
  const [factor] = await tx.query<{ secret: string; last_step: string | number | null; recovery_hashes: string[] }>(
    "SELECT secret, last_step, recovery_hashes FROM console.second_factors WHERE user_id = $1 AND confirmed_at IS NOT NULL FOR UPDATE",
    [userId],
  );
  const keys = await tx.prisma.securityKey.findMany({ where: { userId }, orderBy: { id: "asc" }, select: { credentialId: true } });
  if (!factor && keys.length === 0) return { kind: "none" };
  const asked = { methods: { totp: Boolean(factor), key: keys.length > 0 }, keyIds: keys.map((k) => k.credentialId) };
  const typed = given.code?.trim() ?? "";
  if (given.assertion && keys.length > 0) {
    const outcome = await checkSecurityKey(tx, userId, given.assertion);
    if (outcome === "ok") return { kind: "security_key" };
    if (outcome === "expired") return { kind: "missing", ...asked };
    return { kind: "wrong", ...asked, problem: `security_key_${outcome}` };
  }
  if (!typed) return { kind: given.assertion ? "wrong" : "missing", ...asked };
  if (!factor) return { kind: "wrong", ...asked };
  const step = acceptedStep(openSecret(factor.secret), typed, factor.last_step === null ? null : Number(factor.last_step));
  if (step !== null) {
    await tx.prisma.secondFactor.update({ where: { userId }, data: { lastStep: step }, select: { userId: true } });
    return { kind: "totp" };
  }
  const index = recoveryIndex(factor.recovery_hashes, typed);
  if (index < 0) return { kind: "wrong", ...asked };
  await tx.prisma.secondFactor.update({
    where: { userId },
    data: { recoveryHashes: factor.recovery_hashes.filter((_, i) => i !== index) },
    select: { userId: true },
  });
  return { kind: "recovery" };
}
