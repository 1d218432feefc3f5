// Limits of a request that the forms show and the server enforces (no server-only imports here, so
// client components read the same values).

/** A start this close to now (in the past) is taken as now: the form took a moment to send. */
export const START_GRACE_MS = 60_000;
/** The longest reason a request or block takes. */
export const REASON_MAX = 300;
