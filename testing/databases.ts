import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { type Database, openDatabase } from "../lib/db/client";

/**
 * The databases integration tests run against: always PGlite, and PostgreSQL too when
 * TEST_DATABASE_URL points at a server where the test user may create databases.
 */
export interface TestBackend {
  name: "pglite" | "postgres";
  /** A new, empty database; `drop` removes it; `url`: its address, for other processes (PostgreSQL). */
  create(): Promise<{ db: Database; drop(): Promise<void>; url?: string }>;
}

// initdb takes seconds; every test database after the first is a copy of one initialised directory.
let template: Promise<string> | undefined;

function pgliteTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "rsc-template-"));
    const dataDir = path.join(dir, "pglite");
    const db = await openDatabase({ databaseUrl: undefined, pgliteDir: dataDir });
    await db.close();
    process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
    return dataDir;
  })();
  return template;
}

const pgliteBackend: TestBackend = {
  name: "pglite",
  async create() {
    const dir = await mkdtemp(path.join(tmpdir(), "rsc-test-"));
    const dataDir = path.join(dir, "pglite");
    await cp(await pgliteTemplate(), dataDir, { recursive: true });
    const db = await openDatabase({ databaseUrl: undefined, pgliteDir: dataDir });
    return {
      db,
      async drop() {
        await db.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
};

function postgresBackend(adminUrl: string): TestBackend {
  return {
    name: "postgres",
    async create() {
      const name = `rsc_test_${randomBytes(6).toString("hex")}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      // FRED's instants are UTC timestamps and the console must read and write them the same
      // whatever a session's time zone is: PGlite runs in UTC, PostgreSQL tests in Prague's zone.
      await admin.query(`ALTER DATABASE ${name} SET TimeZone TO 'Europe/Prague'`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const db = await openDatabase({ databaseUrl: url.toString(), pgliteDir: "" });
      return {
        db,
        url: url.toString(),
        async drop() {
          await db.close();
          const cleanup = new pg.Client({ connectionString: adminUrl });
          await cleanup.connect();
          await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await cleanup.end();
        },
      };
    },
  };
}

export function testBackends(): TestBackend[] {
  const url = process.env.TEST_DATABASE_URL;
  return url ? [pgliteBackend, postgresBackend(url)] : [pgliteBackend];
}
