import { hkdfSync } from "node:crypto";

/** The name authenticator apps and security keys show for the console's accounts. */
export const ISSUER = "Registry State Console";

/** A 32-byte key for `use`, derived from NEXTAUTH_SECRET (HKDF-SHA-256): second factors' secrets, security key challenges, recovery codes' hashes. */
export function derivedKey(use: "second-factor secrets" | "security key challenges" | "recovery codes"): Buffer {
  const secret = process.env.NEXTAUTH_SECRET;
  if (!secret) throw new Error("NEXTAUTH_SECRET is not set: second factors cannot be read or written");
  return Buffer.from(hkdfSync("sha256", secret, "registry-state-console", use, 32));
}
