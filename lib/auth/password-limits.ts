// How long a password may be: the server's rules (lib/auth/passwords.ts, password-policy.ts) and the
// forms' input bounds read these, so the browser refuses what the server would.
export const MIN_PASSWORD_LENGTH = 12;
/** ASVS 4.0 V2.1.2: passwords of 64 characters and more are allowed, longer than 128 refused. */
export const MAX_PASSWORD_LENGTH = 128;
/** A password set before that limit (up to 200 characters) is still typed at sign-in and as the current one. */
export const MAX_CURRENT_PASSWORD_LENGTH = 200;
