// How long a password may be: the server's rules (lib/auth/passwords.ts, password-policy.ts) and the
// forms' input bounds read these, so the browser refuses what the server would.
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;
