import { Prisma, type PrismaClient } from "../generated/prisma/client";
import { type ConsoleExecutor, runAgainIfVictim, type SqlDriver } from "./driver";

/**
 * The console's SQL goes through Prisma: `$queryRawUnsafe` and `$executeRawUnsafe` with numbered
 * parameters ($1, $2, …, never text pasted into the statement), and `$transaction` for every change.
 * This file is the one place that turns Prisma's values and errors into the shapes the rest of the
 * console reads, so that callers see the same rows and the same PostgreSQL errors on PGlite and on
 * PostgreSQL:
 *
 * - Parameters: instants go as ISO 8601 in UTC. (Prisma's adapters would send a Date as a wall-clock
 *   text without zone, which a `timestamptz` comparison reads in the session's time zone.)
 * - Rows: `bigint` becomes a number (a string above 2^53), `numeric` its decimal text (without
 *   trailing zeros: Prisma reads it as a Decimal); a `date`
 *   column must be read as `::text` in the query (Prisma makes it a Date at UTC midnight); a
 *   `void` function is called with `run`; `interval` and range columns are cast (Prisma reads neither).
 * - Errors: a failed statement becomes a {@link DatabaseError} with PostgreSQL's SQLSTATE `code`,
 *   its message, detail and hint, whichever adapter raised it.
 */

/** A statement PostgreSQL refused, read the same way whichever adapter ran it. */
export class DatabaseError extends Error {
  override name = "DatabaseError";
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly detail?: string,
    readonly hint?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

interface AdapterCause {
  kind?: string;
  code?: string;
  message?: string;
  detail?: string;
  hint?: string;
  originalCode?: string;
  originalMessage?: string;
  type?: string;
}

// The adapters' words for a database that cannot be reached, as the SQLSTATE of a lost connection.
const CONNECTION_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TlsConnectionError", "TooManyConnections"]);

/** The PostgreSQL error inside a Prisma error, as a DatabaseError; anything else unchanged. */
function fromPrisma(error: unknown): unknown {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return error;
  const cause = (error.meta?.driverAdapterError as { cause?: AdapterCause } | undefined)?.cause;
  if (!cause) return error;
  if (cause.kind === "postgres")
    return new DatabaseError(cause.message ?? error.message, cause.code, cause.detail, cause.hint, { cause: error });
  if (cause.originalCode)
    return new DatabaseError(cause.originalMessage ?? error.message, cause.originalCode, undefined, undefined, { cause: error });
  if (cause.kind && CONNECTION_KINDS.has(cause.kind))
    return new DatabaseError(`connection to the database lost (${cause.kind})`, "08006", undefined, undefined, { cause: error });
  if (cause.kind === "UnsupportedNativeDataType")
    return new DatabaseError(
      `a column of type ${cause.type} cannot be read through Prisma: cast it in the query`,
      undefined,
      undefined,
      undefined,
      { cause: error },
    );
  return error;
}

function toDatabase(params: unknown[] | undefined): unknown[] {
  return (params ?? []).map((value) => (value instanceof Date ? value.toISOString() : value));
}

function fromDatabase(value: unknown): unknown {
  if (typeof value === "bigint")
    return value >= Number.MIN_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER ? Number(value) : value.toString();
  if (Prisma.Decimal.isDecimal(value)) return (value as Prisma.Decimal).toString();
  if (Array.isArray(value)) return value.map(fromDatabase);
  return value;
}

function rowsFromDatabase<T>(rows: Record<string, unknown>[]): T[] {
  for (const row of rows) {
    for (const key in row) {
      const value = row[key];
      if (
        typeof value === "bigint" ||
        Array.isArray(value) ||
        (typeof value === "object" && value !== null && Prisma.Decimal.isDecimal(value))
      )
        row[key] = fromDatabase(value);
    }
  }
  return rows as T[];
}

function prismaExecutor(client: Prisma.TransactionClient): ConsoleExecutor {
  return {
    prisma: client,
    async query<T>(sql: string, params?: unknown[]) {
      try {
        return rowsFromDatabase<T>(await client.$queryRawUnsafe<Record<string, unknown>[]>(sql, ...toDatabase(params)));
      } catch (error) {
        throw fromPrisma(error);
      }
    },
    async run(sql: string, params?: unknown[]) {
      try {
        return await client.$executeRawUnsafe(sql, ...toDatabase(params));
      } catch (error) {
        throw fromPrisma(error);
      }
    },
  };
}

// A change may run as long as its work needs (the state engine over a whole registry takes
// minutes); statement_timeout and lock_timeout bound the statements inside it, not Prisma's clock.
const TRANSACTION_OPTIONS = { maxWait: 60_000, timeout: 3_600_000 };

/** The console's raw SQL over `prisma`: plain statements, and transactions that PostgreSQL may ask to run again. */
export function prismaSql(prisma: PrismaClient, kind: SqlDriver["kind"], location: string, close: () => Promise<void>): SqlDriver {
  return {
    kind,
    location,
    ...prismaExecutor(prisma),
    async transaction(work) {
      const once = () =>
        prisma
          .$transaction((tx) => work(prismaExecutor(tx)), TRANSACTION_OPTIONS)
          .catch((error: unknown) => {
            throw fromPrisma(error);
          });
      // PGlite has one connection and no concurrent transactions: no victims to run again.
      return kind === "postgres" ? runAgainIfVictim(once) : once();
    },
    close,
  };
}
