import { createHmac } from "node:crypto";
import bcrypt from "bcrypt";

/**
 * bcrypt work factor: about a quarter of a second per check on current hardware. The native addon
 * runs each hash and check on libuv's thread pool: a sign-in never holds up the thread that serves
 * everyone's pages (bcryptjs, before it, held it in slices of up to 100 ms, about 300 ms a check).
 */
const COST = 12;

/**
 * bcrypt reads at most 72 bytes of its input and silently ignores the rest, so two long passphrases
 * that share their first 72 bytes would both match one hash. New hashes therefore run the whole
 * password through HMAC-SHA-256 first and give bcrypt its Base64 form (44 ASCII characters: under
 * the limit, and no NUL byte, where some bcrypt implementations stop). The key is a fixed label, not
 * a secret: it only keeps these digests from being plain SHA-256 values that could be matched
 * against other sites' leaked unsalted hashes ("shucking"); bcrypt's salt and cost do the rest.
 *
 * Stored form: `rsc2:` followed by bcrypt's own string. Hashes without the prefix (`$2a$`/`$2b$`,
 * written before) are checked as before — bcrypt of the password itself — and replaced by the
 * new form at the next successful sign-in (`needsRehash`).
 */
const PREHASH_KEY = "registry-state-console password v2";
const V2_PREFIX = "rsc2:";

function preHash(password: string): string {
  return createHmac("sha256", PREHASH_KEY).update(password, "utf8").digest("base64");
}

export async function hashPassword(password: string): Promise<string> {
  return V2_PREFIX + (await bcrypt.hash(preHash(password), COST));
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  if (hash.startsWith(V2_PREFIX)) return bcrypt.compare(preHash(password), hash.slice(V2_PREFIX.length));
  if (hash.startsWith("$2")) return bcrypt.compare(password, hash);
  return false;
}

/** Whether a stored hash is of an older form and should be replaced once the password is known. */
export function needsRehash(hash: string): boolean {
  return !hash.startsWith(V2_PREFIX);
}

// Compared against when the user does not exist, so that answer takes as long as a wrong password.
const DUMMY_HASH = `${V2_PREFIX}$2b$12$C6UzMDM.H6dfI/f/IKcEeO5b6k1pLq4kVx0QnFh9a3yQ8Vt2cKZ0S`;
export async function spendPasswordCheck(password: string): Promise<void> {
  await verifyPassword(password, DUMMY_HASH);
}

export function randomPassword(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}
