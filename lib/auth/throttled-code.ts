/**
 * How a throttled sign-in reaches the sign-in form: next-auth hands the message of the error
 * raised in authorize() to the browser as its `error` code, so the code carries what the form
 * says — which limit stopped the attempt and how many seconds until the next one may be made.
 * Shared by the server (lib/auth/options.ts) and the form (a client component): no server imports.
 */

const THROTTLED = "Throttled";

/** Which limit refused: this address's attempts, the account's hourly ceiling, or all accounts' together. */
const THROTTLE_SCOPES = ["address", "account", "global"] as const;
export type ThrottleScope = (typeof THROTTLE_SCOPES)[number];

export function throttledCode(scope: ThrottleScope, retryAfterSeconds: number): string {
  return `${THROTTLED}:${scope}:${Math.max(1, Math.ceil(retryAfterSeconds))}`;
}

/** The scope and wait of a throttled code; null for any other code. A bare "Throttled" (older servers) waits a minute. */
export function parseThrottledCode(code: string): { scope: ThrottleScope; seconds: number } | null {
  if (code === THROTTLED) return { scope: "address", seconds: 60 };
  const match = /^Throttled:(address|account|global):(\d{1,7})$/.exec(code);
  return match ? { scope: match[1] as ThrottleScope, seconds: Number(match[2]) } : null;
}
