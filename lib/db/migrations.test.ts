import { afterEach, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import type { Database } from "./client";
import { StartupError } from "./errors";
import { checksum, type Migration, migrate, readMigrations } from "./migrations";

function migration(name: string, sql: string): Migration {
  return { name, sql, checksum: checksum(sql), registry: false };
}

async function tables(db: Database, schema: string): Promise<string[]> {
  const rows = await db.sql.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
    [schema],
  );
  return rows.map((r) => r.table_name);
}

describe.each(testBackends())("migrations on $name", (backend) => {
  const drops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(drops.splice(0).map((drop) => drop()));
  });
  async function freshDatabase(): Promise<Database> {
    const { db, drop } = await backend.create();
    drops.push(drop);
    return db;
  }

  it.skipIf(backend.name !== "postgres")(
    "creates a migration's objects as the owner of schema console when a superuser runs it",
    async () => {
      const db = await freshDatabase();
      await db.direct.exec(`
        DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'rsc_schema_owner') THEN CREATE ROLE rsc_schema_owner NOLOGIN; END IF; END $$;
        DO $$ BEGIN EXECUTE format('GRANT CREATE ON DATABASE %I TO rsc_schema_owner', current_database()); END $$;
        CREATE SCHEMA console AUTHORIZATION rsc_schema_owner;`);
      const files = [
        migration(
          "001_f",
          "CREATE FUNCTION console.f() RETURNS integer LANGUAGE sql AS 'SELECT 1'; REVOKE EXECUTE ON FUNCTION console.f() FROM PUBLIC;",
        ),
      ];
      await migrate(db.direct, files);
      const owners = await db.sql.query<{ name: string; owner: string }>(
        `SELECT 'f' AS name, pg_get_userbyid(proowner)::text AS owner FROM pg_proc WHERE proname = 'f' AND pronamespace = 'console'::regnamespace
         UNION ALL SELECT relname, pg_get_userbyid(relowner)::text FROM pg_class WHERE relname = 'schema_migrations' AND relnamespace = 'console'::regnamespace
         ORDER BY 1`,
      );
      expect(owners).toEqual([
        { name: "f", owner: "rsc_schema_owner" },
        { name: "schema_migrations", owner: "rsc_schema_owner" },
      ]);
    },
  );

  it("applies every migration to an empty database and is a no-op the second time", async () => {
    const db = await freshDatabase();
    const files = await readMigrations();
    expect(files.length).toBeGreaterThan(0);

    const first = await migrate(db.direct);
    expect(first.applied).toEqual(files.map((m) => m.name));
    const recorded = await db.sql.query<{ name: string; checksum: string }>(
      "SELECT name, checksum FROM console.schema_migrations ORDER BY name",
    );
    expect(recorded).toEqual(files.map((m) => ({ name: m.name, checksum: m.checksum })));

    const before = await db.sql.query("SELECT name, applied_at FROM console.schema_migrations ORDER BY name");
    const second = await migrate(db.direct);
    expect(second.applied).toEqual([]);
    expect(await db.sql.query("SELECT name, applied_at FROM console.schema_migrations ORDER BY name")).toEqual(before);
  });

  it("refuses to start when an applied migration was changed, and changes nothing", async () => {
    const db = await freshDatabase();
    const files = [migration("001_a", "CREATE TABLE a (id int);"), migration("002_b", "CREATE TABLE b (id int);")];
    await migrate(db.direct, files);
    const edited = [files[0], migration("002_b", "CREATE TABLE b (id int, extra text);"), migration("003_c", "CREATE TABLE c (id int);")];

    const failure = migrate(db.direct, edited);
    await expect(failure).rejects.toBeInstanceOf(StartupError);
    await expect(failure).rejects.toThrow(/migration 002_b was changed after it was applied/);
    expect(await tables(db, "public")).toEqual(["a", "b"]);
  });

  it("refuses a database migrated by a newer version of the console", async () => {
    const db = await freshDatabase();
    await migrate(db.direct, [migration("001_a", "CREATE TABLE a (id int);"), migration("002_b", "CREATE TABLE b (id int);")]);
    await expect(migrate(db.direct, [migration("001_a", "CREATE TABLE a (id int);")])).rejects.toThrow(
      /has migration 002_b applied, which this version of the console does not have/,
    );
  });

  it("refuses a migration that sorts before one already applied", async () => {
    const db = await freshDatabase();
    await migrate(db.direct, [migration("002_b", "CREATE TABLE b (id int);")]);
    await expect(
      migrate(db.direct, [migration("001_a", "CREATE TABLE a (id int);"), migration("002_b", "CREATE TABLE b (id int);")]),
    ).rejects.toThrow(/001_a sorts before the already applied 002_b/);
    expect(await tables(db, "public")).toEqual(["b"]);
  });

  it("refuses a database that holds someone else's schema and leaves it untouched", async () => {
    const db = await freshDatabase();
    await db.direct.exec("CREATE TABLE customers (id int); CREATE TABLE invoices (id int);");
    await expect(migrate(db.direct)).rejects.toThrow(
      /already holds 2 tables in schema public but neither a console migration record nor a FRED registry/,
    );
    expect(await tables(db, "public")).toEqual(["customers", "invoices"]);
    expect(await tables(db, "console")).toEqual([]);
  });

  it("rolls a failing migration back completely and records nothing for it", async () => {
    const db = await freshDatabase();
    const files = [
      migration("001_a", "CREATE TABLE a (id int);"),
      migration("002_bad", "CREATE TABLE half (id int); SELECT no_such_function();"),
    ];
    await expect(migrate(db.direct, files)).rejects.toThrow(/migration 002_bad failed and was rolled back/);
    expect(await tables(db, "public")).toEqual(["a"]);
    const recorded = await db.sql.query<{ name: string }>("SELECT name FROM console.schema_migrations");
    expect(recorded.map((r) => r.name)).toEqual(["001_a"]);
  });

  it("applies each migration once when several processes start together", async () => {
    const db = await freshDatabase();
    const files = [migration("001_a", "CREATE TABLE a (id int);"), migration("002_b", "CREATE TABLE b (id int);")];
    const results = await Promise.all([migrate(db.direct, files), migrate(db.direct, files), migrate(db.direct, files)]);
    expect(results.flatMap((r) => r.applied).sort()).toEqual(["001_a", "002_b"]);
    expect(await tables(db, "public")).toEqual(["a", "b"]);
  });
});
