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

/** Describes a connection failure in words an operator can act on. */
export function explainConnectionError(error: unknown, where: string): StartupError {
  const e = (error ?? {}) as PgLikeError;
  const detail = e.message ?? String(error);
  switch (e.code) {
    case "ECONNREFUSED":
      return new StartupError(`cannot reach PostgreSQL at ${where}: connection refused. Is the server running? Check DATABASE_URL.`);
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new StartupError(`cannot reach PostgreSQL at ${where}: host not found. Check the host in DATABASE_URL.`);
    case "ETIMEDOUT":
      return new StartupError(`cannot reach PostgreSQL at ${where}: connection timed out. Check DATABASE_URL and the network.`);
    case "28P01":
    case "28000":
      return new StartupError(`PostgreSQL at ${where} refused the login: ${detail}. Check the user and password in DATABASE_URL.`);
    case "3D000":
      return new StartupError(`PostgreSQL at ${where}: ${detail}. Create it (createdb) or fix the database name in DATABASE_URL.`);
    default:
      if (/timeout/i.test(detail)) {
        return new StartupError(`cannot reach PostgreSQL at ${where}: connection timed out. Check DATABASE_URL and the network.`);
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
