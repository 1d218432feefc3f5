/**
 * A problem that stops the console from starting. Its message is one line that says what is
 * wrong and what to do; entry points print it without a stack trace and exit.
 */
export class StartupError extends Error {
  override name = "StartupError";
}

interface PgLikeError {
  code?: string;
  message?: string;
  address?: string;
  port?: number;
}

/** Describes a connection failure in words an operator can act on; `variable`: the setting that holds the URL. */
export function explainConnectionError(error: unknown, where: string, variable = "DATABASE_URL"): StartupError {
  const e = (error ?? {}) as PgLikeError;
  const detail = e.message ?? String(error);
  switch (e.code) {
    case "ECONNREFUSED":
      return new StartupError(`cannot reach PostgreSQL at ${where}: connection refused. Is the server running? Check ${variable}.`);
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new StartupError(`cannot reach PostgreSQL at ${where}: host not found. Check the host in ${variable}.`);
    case "ETIMEDOUT":
      return new StartupError(`cannot reach PostgreSQL at ${where}: connection timed out. Check ${variable} and the network.`);
    case "28P01":
    case "28000":
      return new StartupError(`PostgreSQL at ${where} refused the login: ${detail}. Check the user and password in ${variable}.`);
    case "3D000":
      return new StartupError(`PostgreSQL at ${where}: ${detail}. Create it (createdb) or fix the database name in ${variable}.`);
    default:
      if (/timeout/i.test(detail)) {
        return new StartupError(`cannot reach PostgreSQL at ${where}: connection timed out. Check ${variable} and the network.`);
      }
      return new StartupError(`cannot use PostgreSQL at ${where}: ${detail}`);
  }
}

/** Prints a startup failure as one line and exits; anything else keeps its stack for debugging. */
export function exitOnStartupError(error: unknown, context = "Registry State Console cannot start"): never {
  if (error instanceof StartupError) {
    console.error(`${context}: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
}

// Connection-level failures: the database is down, restarting, or unreachable. PostgreSQL's
// SQLSTATE classes 08 (connection exception) and 57P (operator intervention), node's socket
// errors, and the pg driver's and Prisma's words for the same.
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "P1001",
  "P1002",
  "P1017",
]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|Connection ended unexpectedly|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down|in recovery mode)|terminating connection due to administrator command|Can't reach database server|server closed the connection unexpectedly|Client was closed and is not queryable/i;

/** Whether `error` (or what caused it) means the database cannot be reached right now. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === "string" && UNAVAILABLE_CODES.has(e.code)) return true;
  if (typeof e.message === "string" && UNAVAILABLE_MESSAGE.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}
