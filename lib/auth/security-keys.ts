import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import * as z from "zod";
import { readConfig } from "../config";
import type { ConsoleExecutor } from "../db/driver";
import { derivedKey, ISSUER } from "./factor-keys";

/**
 * Security keys and passkeys (WebAuthn, @simplewebauthn/server) as a second factor for password and
 * directory sign-in. Keys are registered as discoverable credentials, so the sign-in step needs no
 * list of a person's keys: the challenge comes with the answer "your password is right", bound to
 * that person. Challenges are not stored: each is a random nonce with its purpose, person and time,
 * signed (HMAC-SHA-256, a key derived from NEXTAUTH_SECRET), valid for five minutes; a sign-in
 * challenge is also refused when it is older than the key's last use, so none is accepted twice.
 */
export const CHALLENGE_LIFETIME_MS = 5 * 60_000;
const PURPOSES = { register: 1, "sign-in": 2 } as const;
type Purpose = keyof typeof PURPOSES;
const MAC_BYTES = 16;

const challengeKey = () => derivedKey("security key challenges");

/** A signed challenge: purpose, person (0: any signed-in person), time, nonce, MAC; base64url. */
export function issueChallenge(purpose: Purpose, userId: number, now = Date.now()): string {
  const body = Buffer.alloc(1 + 4 + 8 + 16);
  body.writeUInt8(PURPOSES[purpose], 0);
  body.writeUInt32BE(userId, 1);
  body.writeBigUInt64BE(BigInt(now), 5);
  randomBytes(16).copy(body, 13);
  const mac = createHmac("sha256", challengeKey()).update(body).digest().subarray(0, MAC_BYTES);
  return Buffer.concat([body, mac]).toString("base64url");
}

/** When a challenge of `purpose` for `userId` was issued, or null: forged, changed, for another purpose or person, or expired. */
export function readChallenge(challenge: string, purpose: Purpose, userId: number, now = Date.now()): number | null {
  const bytes = Buffer.from(challenge, "base64url");
  if (bytes.length !== 29 + MAC_BYTES || bytes.toString("base64url") !== challenge) return null;
  const body = bytes.subarray(0, 29);
  const mac = createHmac("sha256", challengeKey()).update(body).digest().subarray(0, MAC_BYTES);
  if (!timingSafeEqual(mac, bytes.subarray(29))) return null;
  if (body.readUInt8(0) !== PURPOSES[purpose] || body.readUInt32BE(1) !== userId) return null;
  const issuedAt = Number(body.readBigUInt64BE(5));
  return issuedAt <= now + 1000 && now - issuedAt <= CHALLENGE_LIFETIME_MS ? issuedAt : null;
}

const base64url = z.string().regex(/^[A-Za-z0-9_-]+$/);
/** A credential as @simplewebauthn/browser hands it over, with the `response` of its kind. */
const credentialAnswer = <R extends z.ZodRawShape>(response: R) =>
  z.object({
    id: base64url.min(16).max(1400),
    rawId: base64url.max(1400),
    type: z.literal("public-key"),
    response: z.object({ clientDataJSON: base64url.max(4000), ...response }),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  });
/** What a browser sends back from navigator.credentials.create(). */
export const registrationResponseSchema = credentialAnswer({
  attestationObject: base64url.max(20_000),
  transports: z.array(z.string().max(20)).max(10).optional(),
});
/** What a browser sends back from navigator.credentials.get(). */
export const authenticationResponseSchema = credentialAnswer({
  authenticatorData: base64url.max(4000),
  signature: base64url.max(1000),
  userHandle: base64url.max(200).optional(),
});

/** The options for navigator.credentials.create(): a discoverable credential, none of the person's keys again. */
export async function registrationOptions(
  user: { id: number; username: string; displayName: string | null },
  existing: { credentialId: string; transports: string[] }[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { rpId } = readConfig().securityKeys;
  return generateRegistrationOptions({
    rpName: ISSUER,
    rpID: rpId,
    userName: user.username,
    userDisplayName: user.displayName ?? user.username,
    userID: new TextEncoder().encode(`console-user-${user.id}`),
    challenge: Buffer.from(issueChallenge("register", 0), "base64url"),
    attestationType: "none",
    excludeCredentials: existing.map((key) => ({ id: key.credentialId, transports: key.transports as AuthenticatorTransport[] })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    timeout: CHALLENGE_LIFETIME_MS,
  });
}

/** The new key of a registration response, or null when it does not verify (wrong origin, old challenge, …). */
export async function verifiedRegistration(
  response: RegistrationResponseJSON,
): Promise<{ credentialId: string; publicKey: Uint8Array; counter: number; transports: string[] } | null> {
  const { origin, rpId } = readConfig().securityKeys;
  try {
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: (challenge) => readChallenge(challenge, "register", 0) !== null,
      expectedOrigin: origin,
      expectedRPID: rpId,
      requireUserVerification: false,
    });
    if (!verification.verified) return null;
    const { credential } = verification.registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: credential.transports ?? response.response.transports ?? [],
    };
  } catch {
    return null;
  }
}

/**
 * Checks a sign-in with a security key of `userId` (the answer to a challenge the password step
 * gave): true when one of the person's keys signed an unused challenge. The key's counter and last
 * use are updated, so that the same answer is not accepted again.
 */
export async function checkSecurityKey(tx: ConsoleExecutor, userId: number, assertion: string): Promise<boolean> {
  let response: AuthenticationResponseJSON;
  try {
    const parsed = authenticationResponseSchema.safeParse(JSON.parse(assertion));
    if (!parsed.success) return false;
    response = parsed.data as AuthenticationResponseJSON;
  } catch {
    return false;
  }
  const [key] = await tx.query<{ id: number; public_key: Uint8Array; counter: number; transports: string[]; last_used_at: Date | null }>(
    "SELECT id, public_key, counter, transports, last_used_at FROM console.security_keys WHERE user_id = $1 AND credential_id = $2 FOR UPDATE",
    [userId, response.id],
  );
  if (!key) return false;
  const { origin, rpId } = readConfig().securityKeys;
  const lastUsed = key.last_used_at ? new Date(key.last_used_at).getTime() : null;
  try {
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: (challenge) => {
        const issuedAt = readChallenge(challenge, "sign-in", userId);
        return issuedAt !== null && (lastUsed === null || issuedAt > lastUsed);
      },
      expectedOrigin: origin,
      expectedRPID: rpId,
      credential: {
        id: response.id,
        publicKey: new Uint8Array(key.public_key),
        counter: Number(key.counter),
        transports: key.transports as AuthenticatorTransport[],
      },
      requireUserVerification: false,
    });
    if (!verification.verified) return false;
    await tx.prisma.securityKey.update({
      where: { id: key.id },
      data: { counter: verification.authenticationInfo.newCounter, lastUsedAt: new Date() },
      select: { id: true },
    });
    return true;
  } catch {
    // A counter lower than the last one seen (a cloned key), a wrong signature, origin or challenge.
    return false;
  }
}
