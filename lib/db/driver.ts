import type { PGlite, Transaction } from "@electric-sql/pglite";
import pg from "pg";
import type { Prisma } from "../generated/prisma/client";

/**
 * Plain SQL that behaves the same on PGlite and on PostgreSQL. The console's own reads and writes
 * use the implementation over Prisma (prisma-sql.ts); this file's direct connection is for what
 * Prisma does not do: scripts of many statements (migrations, adoption) and start-up.
 */
export interface SqlExecutor {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** A statement whose rows are not read (a void function, SET LOCAL, a write): the number of rows it changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
}

/** What a read needs: statements, and a transaction (a statement timeout, one consistent view). */
export interface SqlReader extends SqlExecutor {
  readonly kind: "pglite" | "postgres";
  readonly location: string;
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
}

/** The console's executor (prisma-sql.ts): raw SQL and Prisma's models, on one connection and transaction. */
export interface ConsoleExecutor extends SqlExecutor {
  /** Prisma's model API, inside the same transaction as `query` and `run`. */
  readonly prisma: Prisma.TransactionClient;
}

export interface SqlDriver extends ConsoleExecutor {
  readonly kind: "pglite" | "postgres";
  /** Where the data lives, safe to print (no password). */
  readonly location: string;
  transaction<T>(work: (tx: ConsoleExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The direct connection's executor: also runs scripts of several statements (no parameters). */
export interface ScriptExecutor extends SqlExecutor {
  exec(sql: string): Promise<void>;
}

/** The direct connection (not through Prisma): migrations, adoption, start-up checks. */
export interface DirectDriver extends ScriptExecutor {
  readonly direct: true;
  readonly kind: "pglite" | "postgres";
  readonly location: string;
  transaction<T>(work: (tx: ScriptExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** A PostgreSQL pool's connections now (the metrics'); none on the embedded database. */
  connections?(): { total: number; idle: number; waiting: number };
}

// DATE values stay 'YYYY-MM-DD' strings on both drivers: a calendar date has no instant, and
// turning it into a Date would place it at midnight in some process's local time zone.
const DATE_OID = 1082;
// FRED stores instants as `timestamp` (without time zone) holding UTC wall-clock time: they are read
// as UTC, whatever the process's own time zone is.
const TIMESTAMP_OID = 1114;

function parseUtcTimestamp(value: string): Date {
  if (value === "infinity") return new Date(8.64e15);
  if (value === "-infinity") return new Date(-8.64e15);
  const bc = value.endsWith(" BC");
  const text = `${(bc ? value.slice(0, -3) : value).replace(" ", "T")}Z`;
  return new Date(text);
}

/**
 * Instants go to the database as ISO 8601 in UTC: written into a FRED `timestamp` column, the
 * zone suffix is ignored and the UTC wall-clock time stays; read as timestamptz, it is exact. (The
 * drivers would otherwise write the process's local time, which a `timestamp` column keeps as is.)
 */
function toDatabase(params: unknown[] | undefined): unknown[] | undefined {
  return params?.map((value) => (value instanceof Date ? value.toISOString() : value));
}

const pgliteParsers = { [DATE_OID]: (value: string) => value, [TIMESTAMP_OID]: parseUtcTimestamp };

function pgliteExecutor(db: PGlite | Transaction): ScriptExecutor {
  return {
    async query<T>(sql: string, params?: unknown[]) {
      const result = await db.query<T>(sql, toDatabase(params), { parsers: pgliteParsers });
      return result.rows;
    },
    async run(sql: string, params?: unknown[]) {
      return (await db.query(sql, toDatabase(params))).affectedRows ?? 0;
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
  };
}

export function pgliteDriver(db: PGlite, location: string, onClose: () => void = () => {}): DirectDriver {
  return {
    direct: true,
    kind: "pglite",
    location,
    ...pgliteExecutor(db),
    transaction: (work) => db.transaction((tx) => work(pgliteExecutor(tx))),
    async close() {
      if (!db.closed) await db.close();
      onClose();
    },
  };
}

const pgTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === DATE_OID) return (value: string) => value;
    if (oid === TIMESTAMP_OID) return parseUtcTimestamp;
    return pg.types.getTypeParser(oid, format as "text");
  }) as typeof pg.types.getTypeParser,
};

export function pgExecutor(client: pg.Pool | pg.PoolClient | pg.Client): ScriptExecutor {
  return {
    async query<T>(sql: string, params?: unknown[]) {
      const result = await client.query({ text: sql, values: toDatabase(params), types: pgTypes });
      return result.rows as T[];
    },
    async run(sql: string, params?: unknown[]) {
      return (await client.query({ text: sql, values: toDatabase(params), types: pgTypes })).rowCount ?? 0;
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
}

async function transactionOnce<T>(pool: pg.Pool, work: (tx: ScriptExecutor) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A connection that breaks while checked out must not become an uncaught error; a broken one is
  // destroyed instead of going back to the pool.
  let broken: unknown = null;
  const onError = (error: Error) => {
    broken = error;
  };
  client.on("error", onError);
  try {
    await client.query("BEGIN");
    const result = await work(pgExecutor(client));
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((rollbackError: unknown) => {
      broken ??= rollbackError;
    });
    throw error;
  } finally {
    client.off("error", onError);
    client.release(broken ? (broken as Error) : undefined);
  }
}

/**
 * A deadlock or serialization failure is PostgreSQL choosing a victim: the transaction left no
 * trace and is run again (a few times), as its documentation recommends.
 */
export async function runAgainIfVictim<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if ((code !== "40P01" && code !== "40001") || attempt >= 4) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

export function postgresDriver(pool: pg.Pool, location: string): DirectDriver {
  return {
    direct: true,
    kind: "postgres",
    location,
    ...pgExecutor(pool),
    transaction: (work) => runAgainIfVictim(() => transactionOnce(pool, work)),
    close: () => pool.end(),
    connections: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/** Runs `work` in a transaction that is always rolled back and returns what it returned: a dry run, a probe. */
export async function rolledBack<T, X extends SqlExecutor>(
  db: { transaction<R>(work: (tx: X) => Promise<R>): Promise<R> },
  work: (tx: X) => Promise<T>,
): Promise<T> {
  const undo = new Error("rolled back on purpose");
  let result: T | undefined;
  await db
    .transaction(async (tx) => {
      result = await work(tx);
      throw undo;
    })
    .catch((error: unknown) => {
      if (error !== undo) throw error;
    });
  return result as T;
}

/** host:port/database of a connection string, without credentials. */
export function describePostgresUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname || "localhost"}:${u.port || "5432"}${u.pathname}`;
  } catch {
    return "the server in DATABASE_URL";
  }
}
