import { randomBytes } from "node:crypto";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { type Database, openDatabase } from "../lib/db/client";
import { databaseUrl, withClient } from "./fred";

/** A test database: `drop` removes it; `url`: its address, for other processes (PostgreSQL). */
export interface TestDatabase {
  db: Database;
  drop(): Promise<void>;
  url?: string;
}

/**
 * The databases integration tests run against: always PGlite, and PostgreSQL too when
 * TEST_DATABASE_URL points at a server where the test user may create databases. Both start from
 * what testing/global-setup.ts built once for the whole run.
 */
export interface TestBackend {
  name: "pglite" | "postgres";
  /** A new, empty database. */
  create(): Promise<TestDatabase>;
  /** A new database with every migration applied: what `create` and then `migrate` give, copied. */
  createMigrated(): Promise<TestDatabase>;
}

async function pgliteCopy(template: string): Promise<TestDatabase> {
  const dir = await mkdtemp(path.join(tmpdir(), "rsc-test-"));
  const dataDir = path.join(dir, "pglite");
  await cp(template, dataDir, { recursive: true });
  const db = await openDatabase({ databaseUrl: undefined, pgliteDir: dataDir });
  return {
    db,
    async drop() {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const pgliteBackend: TestBackend = {
  name: "pglite",
  create: () => pgliteCopy(inject("pgliteEmpty")),
  createMigrated: () => pgliteCopy(inject("pgliteMigrated")),
};

function postgresBackend(adminUrl: string): TestBackend {
  const create = async (template: string): Promise<TestDatabase> => {
    const name = `rsc_test_${randomBytes(6).toString("hex")}`;
    await withClient(adminUrl, async (admin) => {
      await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
      // FRED's instants are UTC timestamps and the console must read and write them the same
      // whatever a session's time zone is: PGlite runs in UTC, PostgreSQL tests in Prague's zone.
      await admin.query(`ALTER DATABASE ${name} SET TimeZone TO 'Europe/Prague'`);
    });
    const url = databaseUrl(adminUrl, name);
    const db = await openDatabase({ databaseUrl: url, pgliteDir: "" });
    return {
      db,
      url,
      async drop() {
        await db.close();
        await withClient(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      },
    };
  };
  return {
    name: "postgres",
    create: () => create(""),
    createMigrated: () => create(inject("postgresTemplate")),
  };
}

export function testBackends(): TestBackend[] {
  const url = process.env.TEST_DATABASE_URL;
  return url ? [pgliteBackend, postgresBackend(url)] : [pgliteBackend];
}
