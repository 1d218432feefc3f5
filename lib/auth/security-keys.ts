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
import { COSEALG } from "@simplewebauthn/server/helpers";
import * as z from "zod";
import { readConfig } from "../config";
import type { ConsoleExecutor } from "../db/driver";
import { derivedKey, ISSUER } from "./factor-keys";

/**
 * Security keys and passkeys (WebAuthn, @simplewebauthn/server) as a second factor for password and
 * directory sign-in. The challenge and the ids of the person's keys come with the answer "your
 * password is right", bound to that person. Challenges are not stored: each is a random nonce with its purpose, person and time,
 * signed (HMAC-SHA-256, a key derived from NEXTAUTH_SECRET), valid for five minutes; a sign-in
 * challenge is also refused when it is older than the key's last use, so none is accepted twice.
 */
export const CHALLENGE_LIFETIME_MS = 5 * 60_000;
const PURPOSES = { register: 1, "sign-in": 2 } as const;
type Purpose = keyof typeof PURPOSES;
const BODY_BYTES = 1 + 4 + 8 + 16;
const MAC_BYTES = 16;

const macOf = (body: Buffer) => createHmac("sha256", derivedKey("security key challenges")).update(body).digest().subarray(0, MAC_BYTES);

/** A signed challenge: purpose, person (0: any signed-in person), time, nonce, MAC; base64url. */
export function issueChallenge(purpose: Purpose, userId: number, now = Date.now()): string {
  const body = Buffer.alloc(BODY_BYTES);
  body.writeUInt8(PURPOSES[purpose], 0);
  body.writeUInt32BE(userId, 1);
  body.writeBigUInt64BE(BigInt(now), 5);
  randomBytes(16).copy(body, 13);
  return Buffer.concat([body, macOf(body)]).toString("base64url");
}

/** When a challenge of `purpose` for `userId` was issued, or null: forged, changed, for another purpose or person. */
function openChallenge(challenge: string, purpose: Purpose, userId: number): number | null {
  const bytes = Buffer.from(challenge, "base64url");
  if (bytes.length !== BODY_BYTES + MAC_BYTES || bytes.toString("base64url") !== challenge) return null;
  const body = bytes.subarray(0, BODY_BYTES);
  if (!timingSafeEqual(macOf(body), bytes.subarray(BODY_BYTES))) return null;
  if (body.readUInt8(0) !== PURPOSES[purpose] || body.readUInt32BE(1) !== userId) return null;
  return Number(body.readBigUInt64BE(5));
}

/** Clocks of instances behind one load balancer may differ by this much. */
const CLOCK_SKEW_MS = 30_000;
const fresh = (issuedAt: number, now: number) => issuedAt <= now + CLOCK_SKEW_MS && now - issuedAt <= CHALLENGE_LIFETIME_MS;

/** When a challenge of `purpose` for `userId` was issued, or null: forged, changed, for another purpose or person, or expired. */
export function readChallenge(challenge: string, purpose: Purpose, userId: number, now = Date.now()): number | null {
  const issuedAt = openChallenge(challenge, purpose, userId);
  return issuedAt !== null && fresh(issuedAt, now) ? issuedAt : null;
}

const base64url = z.string().regex(/^[A-Za-z0-9_-]+$/);
/** The transports WebAuthn names (others are dropped: they are only hints). */
const TRANSPORTS: string[] = ["usb", "nfc", "ble", "hybrid", "internal", "smart-card", "cable"];
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
  transports: z
    .array(z.string().max(20))
    .max(10)
    .optional()
    .transform((list) => list?.filter((t) => TRANSPORTS.includes(t))),
});
/** What a browser sends back from navigator.credentials.get(). */
const authenticationResponseSchema = credentialAnswer({
  authenticatorData: base64url.max(4000),
  signature: base64url.max(1000),
  userHandle: base64url.max(200).optional(),
});

/**
 * The options for navigator.credentials.create(): a key of the signed-in person, none of their keys
 * again. Not a discoverable credential (the sign-in names the person's keys), so a security key
 * needs no PIN for it and U2F keys work too; a phone or laptop makes a passkey anyway.
 */
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
    challenge: Buffer.from(issueChallenge("register", user.id), "base64url"),
    attestationType: "none",
    excludeCredentials: existing.map((key) => ({ id: key.credentialId, transports: key.transports as AuthenticatorTransport[] })),
    authenticatorSelection: { residentKey: "discouraged", userVerification: "discouraged" },
    timeout: CHALLENGE_LIFETIME_MS,
    // The keys' usual algorithms, named rather than taken from the runtime: on Node 24 the library
    // would offer ML-DSA-44 first (Node's Web Crypto has it, as an experimental feature), and a key
    // registered with it was refused at its sign-in.
    supportedAlgorithmIDs: [COSEALG.EdDSA, COSEALG.ES256, COSEALG.RS256],
  });
}

/** The new key of `userId` a registration response carries, or null when it does not verify (wrong origin, old or another person's challenge, …). */
export async function verifiedRegistration(
  response: RegistrationResponseJSON,
  userId: number,
): Promise<{ credentialId: string; publicKey: Uint8Array; counter: number; transports: string[] } | null> {
  const { origin, rpId } = readConfig().securityKeys;
  try {
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: (challenge) => readChallenge(challenge, "register", userId) !== null,
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
      // The library's copy of response.response.transports: registrationResponseSchema kept the known ones.
      transports: credential.transports ?? [],
    };
  } catch (error) {
    console.warn(`security key registration of user ${userId} refused: ${(error as Error).message}`);
    return null;
  }
}

/**
 * How a sign-in with a security key went: "ok"; "expired" (the person took longer than five
 * minutes: asked again, not counted as a guess); or why it was refused: not one of the person's
 * keys, a replayed or foreign challenge, a counter that did not go forward (a cloned key?), or a
 * signature or origin that does not verify.
 */
export type SecurityKeyCheck = "ok" | "expired" | "unknown_key" | "replayed" | "counter" | "invalid";

/**
 * Checks a sign-in with a security key of `userId` (the answer to a challenge the password step
 * gave). The key's counter and last use are updated, so that the same answer is not accepted again.
 */
export async function checkSecurityKey(tx: ConsoleExecutor, userId: number, assertion: string): Promise<SecurityKeyCheck> {
  let response: AuthenticationResponseJSON;
  try {
    const parsed = authenticationResponseSchema.safeParse(JSON.parse(assertion));
    if (!parsed.success) return "invalid";
    response = parsed.data as AuthenticationResponseJSON;
  } catch {
    return "invalid";
  }
  const [key] = await tx.query<{ id: number; public_key: Uint8Array; counter: number; transports: string[]; last_used_at: Date | null }>(
    "SELECT id, public_key, counter, transports, last_used_at FROM console.security_keys WHERE user_id = $1 AND credential_id = $2 FOR UPDATE",
    [userId, response.id],
  );
  if (!key) return "unknown_key";
  const { origin, rpId } = readConfig().securityKeys;
  const lastUsed = key.last_used_at ? new Date(key.last_used_at).getTime() : null;
  const now = Date.now();
  let issued: number | null = null;
  let refusal = "invalid" as SecurityKeyCheck;
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: (challenge) => {
        issued = openChallenge(challenge, "sign-in", userId);
        if (issued === null) return false;
        // A challenge is used once: none issued before the key's last use is accepted.
        if (lastUsed !== null && issued <= lastUsed) refusal = "replayed";
        else if (!fresh(issued, now)) refusal = "expired";
        else return true;
        return false;
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
  } catch (error) {
    const message = (error as Error).message;
    if (/counter value/i.test(message)) refusal = "counter";
    if (refusal !== "expired") console.warn(`security key sign-in of user ${userId} refused (${refusal}): ${message}`);
    return refusal;
  }
  if (!verification.verified || issued === null) return "invalid";
  // Outside the try: a database error is not a wrong key (the transaction runs again or fails).
  // The last use is never before the challenge's issue (another instance's clock may be ahead).
  await tx.prisma.securityKey.update({
    where: { id: key.id },
    data: { counter: verification.authenticationInfo.newCounter, lastUsedAt: new Date(Math.max(now, issued)) },
    select: { id: true },
  });
  return "ok";
}
