import bcrypt from "bcryptjs";

/** bcrypt work factor: about a quarter of a second per check on current hardware. */
const COST = 12;
export const MIN_PASSWORD_LENGTH = 12;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

// Compared against when the user does not exist, so that answer takes as long as a wrong password.
const DUMMY_HASH = "$2b$12$C6UzMDM.H6dfI/f/IKcEeO5b6k1pLq4kVx0QnFh9a3yQ8Vt2cKZ0S";
export async function spendPasswordCheck(password: string): Promise<void> {
  await bcrypt.compare(password, DUMMY_HASH);
}

/** Why a new password is not acceptable, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > 200) return "The password must have at most 200 characters.";
  return null;
}

export function randomPassword(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}
