import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { type Database, openDatabase } from "./client";
import { DatabaseError } from "./prisma-sql";

// The console's SQL through Prisma reads and fails the same way on PGlite and on PostgreSQL (whose
// test databases default to Europe/Prague, so a value that depended on the session's zone shows).
describe.each(testBackends())("SQL through Prisma on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let url: string | undefined;
  beforeAll(async () => {
    ({ db, drop, url } = await backend.create());
  });
  afterAll(() => drop());

  it("reads instants exactly whatever the database's default zone, and sends Date parameters as UTC instants", async () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    const [row] = await db.sql.query<{ tz: Date; ts: Date; same: boolean; wall: string }>(
      `SELECT $1::timestamptz AS tz, ($1::timestamptz AT TIME ZONE 'UTC') AS ts, $1 = '2026-01-02T03:04:05.678Z'::timestamptz AS same,
              ($1::timestamptz AT TIME ZONE 'UTC')::text AS wall`,
      [at],
    );
    expect(row).toEqual({ tz: at, ts: at, same: true, wall: "2026-01-02 03:04:05.678" });
  });

  it("gives bigint as a number (text beyond 2^53), numeric as its decimal text, arrays and json as values", async () => {
    const [row] = await db.sql.query(
      "SELECT 5::bigint AS small, 9007199254740993::bigint AS big, 1.25::numeric AS n, ARRAY[1, 2]::bigint[] AS ids, '{\"a\": [1]}'::jsonb AS j",
    );
    expect(row).toEqual({ small: 5, big: "9007199254740993", n: "1.25", ids: [1, 2], j: { a: [1] } });
  });

  it("runs a void function with run(), and a transaction's statements on one connection", async () => {
    const seen = await db.sql.transaction(async (tx) => {
      expect(await tx.run("SELECT pg_advisory_xact_lock(42)")).toBeGreaterThanOrEqual(0);
      await tx.run("SELECT set_config('console.probe', 'inside', true)");
      const [probe] = await tx.query<{ v: string }>("SELECT current_setting('console.probe') AS v");
      return probe.v;
    });
    expect(seen).toBe("inside");
  });

  it("fails with PostgreSQL's SQLSTATE, message and detail, and rolls the transaction back", async () => {
    const raised = await db.sql
      .query("DO $$ BEGIN RAISE EXCEPTION 'refused here' USING ERRCODE = 'P0001', DETAIL = 'why'; END $$")
      .catch((error: unknown) => error);
    expect(raised).toBeInstanceOf(DatabaseError);
    expect(raised).toMatchObject({ code: "P0001", message: "refused here" });
    await db.sql.run("CREATE TEMP TABLE probe (id int PRIMARY KEY)");
    const duplicate = await db.sql
      .transaction(async (tx) => {
        await tx.prisma.$executeRawUnsafe("INSERT INTO probe VALUES (1)");
        await tx.run("INSERT INTO probe VALUES (1)");
      })
      .catch((error: unknown) => error);
    expect(duplicate).toMatchObject({ code: "23505" });
    expect(await db.sql.query("SELECT * FROM probe")).toEqual([]);
  });

  it.runIf(backend.name === "postgres")("refuses to start when its sessions would not run in UTC, saying what to change", async () => {
    const zoned = new URL(url as string);
    zoned.searchParams.set("options", "-c TimeZone=Europe/Prague");
    await expect(openDatabase({ databaseUrl: zoned.toString(), pgliteDir: "" })).rejects.toThrow(
      /time zone Europe\/Prague, not UTC .*ALTER ROLE <role> SET TimeZone = 'UTC'/,
    );
  });
});
