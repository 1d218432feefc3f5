// Vitest's global setup: the databases every integration test file starts from, built once per run
// instead of once per file (issue 43). An empty PGlite directory (initdb takes seconds) and one with
// every migration applied; with TEST_DATABASE_URL, a migrated PostgreSQL database that test
// databases are created from as a template. testing/databases.ts copies them.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../lib/db/client";
import { migrate } from "../lib/db/migrations";
import { databaseUrl, withClient } from "./fred";

declare module "vitest" {
  export interface ProvidedContext {
    /** A PGlite data directory initialised and nothing else. */
    pgliteEmpty: string;
    /** A PGlite data directory with every migration applied. */
    pgliteMigrated: string;
    /** A PostgreSQL database with every migration applied, to create test databases from; "" without TEST_DATABASE_URL. */
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(tmpdir(), "rsc-templates-"));
  const empty = path.join(dir, "empty");
  const migrated = path.join(dir, "migrated");
  await (await openDatabase({ databaseUrl: undefined, pgliteDir: empty })).close();
  const db = await openDatabase({ databaseUrl: undefined, pgliteDir: migrated });
  await migrate(db.direct);
  await db.close();

  const adminUrl = process.env.TEST_DATABASE_URL;
  const template = adminUrl ? `rsc_template_${process.pid}` : "";
  if (adminUrl) {
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await adminQuery(adminUrl, `CREATE DATABASE ${template}`);
    const pgDb = await openDatabase({ databaseUrl: databaseUrl(adminUrl, template), pgliteDir: "" });
    await migrate(pgDb.direct);
    await pgDb.close();
  }
  project.provide("pgliteEmpty", empty);
  project.provide("pgliteMigrated", migrated);
  project.provide("postgresTemplate", template);
  return async () => {
    await rm(dir, { recursive: true, force: true });
    if (adminUrl) await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
  };
}

const adminQuery = (url: string, sql: string) => withClient(url, (client) => client.query(sql));
