// The console's two database roles (issue 26, docs/operating.md "Database roles"): migrations run as the
// owner; the running console as a member of console_app, which does the console's work and nothing
// else: no DDL, no DISABLE TRIGGER, no TRUNCATE, no rewriting of the audit log or its head, no
// password hashes but through console.user_set_password_hash, no engine run at an instant of its
// choosing. Checked on the embedded database (the process acts as console_app), on PostgreSQL in a
// registry the console created, and on an adopted FRED registry, where FRED's own roles keep
// exactly their rights and can still do their work.
import { randomUUID } from "node:crypto";
import bcrypt from "bcrypt";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../prisma/demo/load";
import { testBackends } from "../../testing/databases";
import {
  CONSOLE_RUNTIME_ROLE,
  createConsoleRuntimeRole,
  createFredDatabase,
  createRoleSql,
  databaseUrl,
  fredSchemaAvailable,
  type Grant,
  publicGrants,
  withClient,
} from "../../testing/fred";
import { actAs, signedInAs, TEST_CLIENT } from "../../testing/sessions";
import { audit } from "../audit/log";
import { verifyAuditChain } from "../audit/verify";
import { openSession } from "../auth/sessions";
import { signInWithPassword } from "../auth/sign-in";
import { blockObject } from "../requests/block";
import { cancelStateRequest } from "../requests/cancel";
import { createStateRequest } from "../requests/create";
import { unblockObject } from "../requests/unblock";
import { runStateEngine } from "../states/engine";
import { createUser, setUserPassword } from "../users/admin";
import { changeOwnPassword } from "../users/own-password";
import { unadopt } from "./adopt";
import { type Database, openDatabase } from "./client";
import { type DirectDriver, rolledBack, type SqlDriver, type SqlExecutor } from "./driver";
import { StartupError } from "./errors";
import { migrate } from "./migrations";
import { actAsRuntimeRole, checkRuntimeRole, databaseRole, RUNTIME_GROUP } from "./roles";

const adminUrl = process.env.TEST_DATABASE_URL;
const ZONE = "Europe/Prague";
/** A role with no grants at all (PUBLIC's rights only). */
const NO_GRANTS = "rsc_no_grants";
/** A role with the rights FRED's servers have: DML on FRED's tables. */
const FRED_SERVER = "rsc_fred_server";
/** The owner role of a registry the console creates on PostgreSQL: owns its database, may not create roles. */
const CONSOLE_OWNER = "rsc_console_owner";

/** The functions console_app may execute among schema console's SECURITY DEFINER ones. */
const RUNTIME_FUNCTIONS = [
  "console.audit_chain_lock()",
  "console.fred_feed_poll()",
  "console.fred_state_update(integer[])",
  "console.lock_objects(integer[])",
  "console.object_keys_catch_up(boolean)",
  "console.state_engine_run_now(boolean,integer)",
  "console.state_plan_pass()",
  "console.user_set_password_hash(integer,text,text)",
];

interface Roles {
  /** The console as it runs: acting as console_app (a login role in it on PostgreSQL). */
  runtime: Database;
  /** Work as the owner role. */
  owner<T>(work: (sql: SqlDriver, direct: DirectDriver) => Promise<T>): Promise<T>;
  /** Work as `role`, in a transaction that is rolled back (a superuser's SET LOCAL ROLE). */
  as<T>(role: string, work: (sql: SqlExecutor) => Promise<T>): Promise<T>;
  drop(): Promise<void>;
  /** An adopted FRED registry: FRED's server role and its rights before and after adoption. */
  fred?: { url: string; adminUrl: string; before: Grant[]; after: Grant[] };
}

/** Runs `work` as `role` in a transaction of `sql`'s that is always rolled back; returns its outcome. */
async function asRole<T>(
  db: { transaction<R>(work: (tx: SqlExecutor) => Promise<R>): Promise<R> },
  role: string,
  work: (sql: SqlExecutor) => Promise<T>,
): Promise<T> {
  const undo = new Error("rolled back");
  let result: T | undefined;
  await db
    .transaction(async (tx) => {
      await tx.run(`SET LOCAL ROLE ${role}`);
      result = await work(tx);
      throw undo;
    })
    .catch((error: unknown) => {
      if (error !== undo) throw error;
    });
  return result as T;
}

const pgliteBackend = testBackends()[0];

/**
 * Builds a setup whose databases `build` opens through `open`; when it fails half-way, they are
 * closed and `drop` removes the database, so no failed run leaves one behind on the server.
 */
async function settingUp(drop: () => Promise<void>, build: (open: (url: string) => Promise<Database>) => Promise<Roles>): Promise<Roles> {
  const opened: Database[] = [];
  try {
    return await build(async (url) => {
      const db = await openDatabase({ databaseUrl: url, pgliteDir: "" });
      opened.push(db);
      return db;
    });
  } catch (error) {
    await Promise.all(opened.map((db) => db.close().catch(() => {})));
    await drop().catch(() => {});
    throw error;
  }
}

/** The embedded database as the console server runs it: migrated, demo data, then SET ROLE console_app. */
async function embeddedRoles(): Promise<Roles> {
  const { db, drop } = await pgliteBackend.create();
  await migrate(db.direct);
  await seedDemo(db.direct, { domains: 60, seed: 3, now: new Date(), timeZone: ZONE });
  await actAsRuntimeRole(db.direct);
  // One connection: the owner's work steps out of console_app and back.
  const stepOut = async <T>(work: () => Promise<T>): Promise<T> => {
    await db.direct.exec("RESET ROLE");
    try {
      return await work();
    } finally {
      await db.direct.exec(`SET ROLE ${RUNTIME_GROUP}`);
    }
  };
  await stepOut(() => db.direct.exec(`CREATE ROLE ${NO_GRANTS} NOLOGIN`));
  return {
    runtime: db,
    owner: (work) => stepOut(() => work(db.sql, db.direct)),
    as: (role, work) => stepOut(() => asRole(db.sql, role, work)),
    drop,
  };
}

/**
 * A registry the console created on PostgreSQL, set up as docs/operating.md "Database roles" says: the DBA
 * creates the owner (which owns the database and may not create roles), console_app and a login role
 * in it; the owner migrates; the console runs as the login role.
 */
async function postgresRoles(admin: string): Promise<Roles> {
  const name = `rsc_roles_${randomUUID().slice(0, 8)}`;
  await withClient(admin, async (client) => {
    await client.query(createRoleSql(CONSOLE_OWNER, "LOGIN"));
    await client.query(createRoleSql(NO_GRANTS, "NOLOGIN"));
    await client.query(`CREATE DATABASE ${name} OWNER ${CONSOLE_OWNER}`);
    await client.query(`ALTER DATABASE ${name} SET TimeZone TO '${ZONE}'`);
  });
  const url = databaseUrl(admin, name);
  const dropDatabase = () => withClient(admin, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {});
  return settingUp(dropDatabase, async (open) => {
    const ownerUrl = new URL(url);
    ownerUrl.username = CONSOLE_OWNER;
    // The DBA's part first: console_app exists before the owner, which may not create roles, migrates.
    const runtimeUrl = await createConsoleRuntimeRole(admin, url);
    const owner = await open(ownerUrl.toString());
    await migrate(owner.direct);
    await seedDemo(owner.direct, { domains: 60, seed: 3, now: new Date(), timeZone: ZONE });
    const runtime = await open(runtimeUrl);
    const superuser = await open(url);
    return {
      runtime,
      owner: (work) => work(owner.sql, owner.direct),
      as: (role, work) => asRole(superuser.sql, role, work),
      async drop() {
        await Promise.all([runtime.close(), owner.close(), superuser.close()]);
        await dropDatabase();
      },
    };
  });
}

/**
 * An adopted FRED registry: fred-db 2.52 loaded as its README says, a role with the rights FRED's
 * servers have, the registry adopted by its owner fred, demo data loaded, the console running as
 * its login role.
 */
async function fredRoles(admin: string): Promise<Roles> {
  const fred = await createFredDatabase(admin);
  return settingUp(fred.drop, async (open) => {
    await withClient(admin, async (client) => {
      await client.query(createRoleSql(FRED_SERVER, "LOGIN"));
      await client.query(createRoleSql(NO_GRANTS, "NOLOGIN"));
    });
    await withClient(fred.fredUrl, async (client) => {
      await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${FRED_SERVER}`);
      await client.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${FRED_SERVER}`);
    });
    const before = await withClient(fred.url, publicGrants);
    const owner = await open(fred.fredUrl);
    await migrate(owner.direct, undefined, { adoptAs: "charge" });
    const after = await withClient(fred.url, publicGrants);
    await seedDemo(owner.direct, { domains: 60, seed: 3, now: new Date(), timeZone: ZONE });
    const runtime = await open(fred.consoleUrl);
    const superuser = await open(fred.url);
    const serverUrl = new URL(fred.url);
    serverUrl.username = FRED_SERVER;
    return {
      runtime,
      owner: (work) => work(owner.sql, owner.direct),
      as: (role, work) => asRole(superuser.sql, role, work),
      fred: { url: serverUrl.toString(), adminUrl: fred.url, before, after },
      async drop() {
        await Promise.all([runtime.close(), owner.close(), superuser.close()]);
        await fred.drop();
      },
    };
  });
}

const setups: { name: string; embedded: boolean; fred: boolean; create: () => Promise<Roles> }[] = [
  { name: "the embedded database (PGlite)", embedded: true, fred: false, create: embeddedRoles },
];
if (adminUrl) {
  setups.push({ name: "PostgreSQL, a registry the console created", embedded: false, fred: false, create: () => postgresRoles(adminUrl) });
  if (fredSchemaAvailable())
    setups.push({ name: "PostgreSQL, an adopted FRED registry", embedded: false, fred: true, create: () => fredRoles(adminUrl) });
}

/** Expects `sql` to be refused by the database's rights (not by a trigger's own check). */
async function refusedByRights(db: SqlExecutor, sql: string): Promise<void> {
  const error = await db.run(sql).then(
    () => null,
    (e: unknown) => e as { code?: string; message?: string },
  );
  expect(error, sql).not.toBeNull();
  expect(error?.code, `${sql}: ${error?.message}`).toBe("42501");
  expect(error?.message, sql).toMatch(/permission denied|must be owner/);
}

describe.each(setups)("database roles on $name", (setup) => {
  let roles: Roles;

  beforeAll(async () => {
    roles = await setup.create();
  }, 240_000);
  afterAll(() => roles?.drop());

  const domainWithoutRequests = async (): Promise<number> => {
    const [row] = await roles.runtime.sql.query<{ id: number }>(
      `SELECT d.id FROM domain d JOIN object_registry o ON o.id = d.id
        WHERE o.erdate IS NULL AND NOT EXISTS (SELECT FROM object_state_request r WHERE r.object_id = d.id)
          AND NOT EXISTS (SELECT FROM console.blocks b WHERE b.object_id = d.id)
        ORDER BY d.id DESC LIMIT 1`,
    );
    return row.id;
  };

  it("the running console acts as console_app, not as the owner", async () => {
    const role = await databaseRole(roles.runtime.sql);
    expect(role.runtime).toBe(true);
    expect(role.owner).toBe(false);
    expect(await roles.owner(async (sql) => (await databaseRole(sql)).owner)).toBe(true);
    // The migration record is up to date: the runtime role can check it (nothing is written).
    expect((await migrate(roles.runtime.direct)).applied).toEqual([]);
  });

  it("gives console_app DML, and only DML, on tables later migrations create in schema console", async () => {
    const rights = await roles.owner((sql) =>
      rolledBack(sql, async (tx) => {
        await tx.run("CREATE TABLE console.roles_later (id serial PRIMARY KEY, note text)");
        return tx.query<{ privilege: string; granted: boolean }>(
          `SELECT p AS privilege, has_table_privilege($1, 'console.roles_later', p) AS granted
             FROM unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']) p
           UNION ALL
           SELECT 'USAGE of its sequence', has_sequence_privilege($1, 'console.roles_later_id_seq', 'USAGE')`,
          [RUNTIME_GROUP],
        );
      }),
    );
    expect(Object.fromEntries(rights.map((r) => [r.privilege, r.granted]))).toEqual({
      SELECT: true,
      INSERT: true,
      UPDATE: true,
      DELETE: true,
      TRUNCATE: false,
      REFERENCES: false,
      TRIGGER: false,
      "USAGE of its sequence": true,
    });
  });

  it("does the console's work as console_app: users, passwords, sign-in, requests, blocks, the engine, the audit log", async () => {
    const admin = await signedInAs(roles.runtime, "admin");
    const operator = await signedInAs(roles.runtime, "operator");
    const name = `clerk-${randomUUID().slice(0, 6)}`;
    const [first, second, third] = ["Lantern", "Quarry", "Pelican"].map((word) => `${word} ${randomUUID()} ${word.length}`);
    await actAs(admin, () => createUser({ username: name, role: "support", password: first }));
    const [{ id: userId }] = await roles.runtime.sql.query<{ id: number }>("SELECT id FROM console.users WHERE username = $1", [name]);
    await actAs(admin, () => setUserPassword({ userId, password: second }));
    expect((await signInWithPassword(roles.runtime.sql, name, second, TEST_CLIENT)).ok).toBe(true);
    expect((await signInWithPassword(roles.runtime.sql, name, first, TEST_CLIENT)).ok).toBe(false);
    // The person changes their own password.
    const own = {
      claims: { sid: await openSession(roles.runtime.sql, userId, TEST_CLIENT), uid: userId },
      ...TEST_CLIENT,
      db: roles.runtime,
    };
    await actAs(own, () => changeOwnPassword({ currentPassword: second, newPassword: third, confirmPassword: third }));
    expect((await signInWithPassword(roles.runtime.sql, name, third, TEST_CLIENT)).ok).toBe(true);
    // A hash of the older form (bcrypt of the password itself) is upgraded at sign-in.
    await roles.owner((sql) => sql.query("UPDATE console.users SET password_hash = $2 WHERE id = $1", [userId, bcrypt.hashSync(third, 4)]));
    expect((await signInWithPassword(roles.runtime.sql, name, third, TEST_CLIENT)).ok).toBe(true);
    const [{ hash }] = await roles.runtime.sql.query<{ hash: string }>("SELECT password_hash AS hash FROM console.users WHERE id = $1", [
      userId,
    ]);
    expect(hash).toMatch(/^rsc2:\$2/);

    const domain = await domainWithoutRequests();
    const created = await actAs(operator, () =>
      createStateRequest({ objectId: domain, state: "serverRenewProhibited", reason: "roles test", idempotencyKey: randomUUID() }),
    );
    const open = async (state: string) =>
      (
        await roles.runtime.sql.query(
          `SELECT 1 FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
            WHERE os.object_id = $1 AND s.name = $2 AND os.valid_to IS NULL`,
          [domain, state],
        )
      ).length === 1;
    expect(await open("serverRenewProhibited")).toBe(true);
    await actAs(operator, () => cancelStateRequest({ requestId: created.requestId, reason: "roles test done" }));
    expect(await open("serverRenewProhibited")).toBe(false);
    const block = await actAs(operator, () => blockObject({ objectId: domain, reason: "roles test block" }));
    expect(await open("serverBlocked")).toBe(true);
    await actAs(operator, () => unblockObject({ blockId: block.blockId, reason: "roles test unblock" }));
    expect(await open("serverBlocked")).toBe(false);

    for (const full of [false, true]) {
      const run = await runStateEngine(roles.runtime.sql, { full });
      expect(["incremental", "full", "busy"]).toContain(run.kind);
    }
    await audit(roles.runtime.sql, { action: "roles.test", result: "ok", actor: { username: "system", clientAddress: null } });
    const chain = await verifyAuditChain(roles.runtime.sql);
    expect(chain).toMatchObject({ ok: true, problem: null });
    expect(chain.rows).toBeGreaterThan(5);
  });

  it("cannot change the schema: no DDL, no ALTER TABLE or DISABLE TRIGGER, no TRUNCATE, no DROP", async () => {
    const tables = await roles.runtime.sql.query<{ name: string }>(
      `SELECT c.oid::regclass::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname IN ('console', 'public') AND c.relkind IN ('r', 'p') ORDER BY 1`,
    );
    expect(tables.length).toBeGreaterThan(40);
    for (const { name } of tables) {
      await refusedByRights(roles.runtime.sql, `ALTER TABLE ${name} DISABLE TRIGGER USER`);
      await refusedByRights(roles.runtime.sql, `ALTER TABLE ${name} ADD COLUMN intruder integer`);
      await refusedByRights(roles.runtime.sql, `TRUNCATE ${name} CASCADE`);
      await refusedByRights(roles.runtime.sql, `DROP TABLE ${name} CASCADE`);
    }
    for (const sql of [
      "ALTER TABLE console.audit_log DISABLE TRIGGER audit_log_no_update_delete",
      "ALTER TABLE console.audit_head DISABLE TRIGGER audit_head_guard",
      "DROP TRIGGER audit_log_append ON console.audit_log",
      "DROP SCHEMA console CASCADE",
      "DROP FUNCTION console.audit_log_append() CASCADE",
      "ALTER FUNCTION console.audit_log_append() SECURITY INVOKER",
      "CREATE TABLE console.intruder (id integer)",
      "CREATE TABLE public.intruder (id integer)",
      "CREATE FUNCTION console.intruder() RETURNS integer LANGUAGE sql AS 'SELECT 1'",
      "CREATE OR REPLACE FUNCTION console.audit_row_hash(prev_hash text, r console.audit_log) RETURNS text LANGUAGE sql AS $$ SELECT ''::text $$",
      "CREATE OR REPLACE FUNCTION public.update_object_states(integer) RETURNS void LANGUAGE sql AS $$ SELECT $$",
      "CREATE INDEX intruder_idx ON console.audit_log (actor)",
      "ALTER VIEW console.effective_requests RENAME TO intruder",
    ]) {
      await refusedByRights(roles.runtime.sql, sql);
    }
  });

  it("cannot rewrite or remove audit rows, nor lock or move the head: a re-chained log is impossible", async () => {
    for (let i = 0; i < 3; i++)
      await audit(roles.runtime.sql, { action: "roles.chain", result: "ok", actor: { username: "system", clientAddress: null } });
    const before = await verifyAuditChain(roles.runtime.sql);
    expect(before.ok).toBe(true);
    const [victim] = await roles.runtime.sql.query<{ id: string }>("SELECT max(id)::text AS id FROM console.audit_log");
    const id = Number(victim.id) - 1;
    // The re-chain: delete a row, recompute the rows after it with console.audit_row_hash, move the head.
    await refusedByRights(roles.runtime.sql, `DELETE FROM console.audit_log WHERE id = ${id}`);
    const [recomputed] = await roles.runtime.sql.query<{ hash: string }>(
      "SELECT console.audit_row_hash(p.hash, a) AS hash FROM console.audit_log a, console.audit_log p WHERE a.id = $1 AND p.id = $1 - 2",
      [id + 1],
    );
    expect(recomputed.hash).toMatch(/^[0-9a-f]{64}$/);
    await refusedByRights(
      roles.runtime.sql,
      `UPDATE console.audit_log SET id = ${id}, prev_hash = (SELECT hash FROM console.audit_log WHERE id = ${id - 1}), hash = '${recomputed.hash}' WHERE id = ${id + 1}`,
    );
    await refusedByRights(roles.runtime.sql, `UPDATE console.audit_head SET last_id = ${id}, last_hash = '${recomputed.hash}'`);
    await refusedByRights(roles.runtime.sql, "DELETE FROM console.audit_head");
    await refusedByRights(
      roles.runtime.sql,
      "INSERT INTO console.audit_head (singleton, last_id, last_hash) VALUES (true, 0, repeat('0', 64))",
    );
    await refusedByRights(roles.runtime.sql, "UPDATE console.audit_log SET actor = 'nobody'");
    await refusedByRights(roles.runtime.sql, "DELETE FROM console.audit_log");
    // The head's lock is taken through console.audit_chain_lock; a row's unkeyed hashes are the trigger's.
    await refusedByRights(roles.runtime.sql, "SELECT last_id FROM console.audit_head FOR UPDATE");
    await refusedByRights(
      roles.runtime.sql,
      "INSERT INTO console.audit_log (action, result, prev_hash, hash) VALUES ('forged', 'ok', repeat('0', 64), repeat('0', 64))",
    );
    const after = await verifyAuditChain(roles.runtime.sql);
    expect(after).toEqual(before);
  });

  it("changes a password hash only through console.user_set_password_hash, and only to a bcrypt hash", async () => {
    await refusedByRights(roles.runtime.sql, "UPDATE console.users SET password_hash = NULL");
    await refusedByRights(
      roles.runtime.sql,
      "UPDATE console.users SET username = 'intruder' WHERE id = (SELECT min(id) FROM console.users)",
    );
    const [user] = await roles.runtime.sql.query<{ id: number }>("SELECT min(id) AS id FROM console.users");
    await expect(roles.runtime.sql.query("SELECT console.user_set_password_hash($1, 'plain text')", [user.id])).rejects.toMatchObject({
      code: "22023",
    });
  });

  it("runs the engine only at the present: an instant of its choosing is the owner's", async () => {
    await refusedByRights(roles.runtime.sql, "SELECT * FROM console.state_engine_run(now() - interval '1 day', true)");
    await refusedByRights(roles.runtime.sql, "SELECT * FROM console.state_engine_run(now())");
    await expect(runStateEngine(roles.runtime.sql, { at: new Date() })).rejects.toMatchObject({ code: "42501" });
    // registry.state_clock is any session's to set; the present-only door refuses one that is not a console change's instant.
    const error = await roles.runtime.sql
      .transaction(async (tx) => {
        await tx.query("SELECT set_config('registry.state_clock', $1, true)", [new Date(Date.now() - 86_400_000).toISOString()]);
        return tx.query("SELECT * FROM console.state_engine_run_now(false)");
      })
      .catch((e: unknown) => e as { code?: string; message?: string });
    expect(error).toMatchObject({ code: "42501", message: expect.stringMatching(/only the owner role may run the engine at an instant/) });
    await refusedByRights(roles.runtime.sql, "SELECT console.state_triggers_compile()");
    // The owner runs it at an instant of its choosing, as the tests that inject a clock do.
    expect((await roles.owner((sql) => runStateEngine(sql, { at: new Date() }))).kind).toMatch(/incremental|behind|busy/);
  });

  // The embedded database's one login is a superuser, whose session may inject a clock.
  it.runIf(!setup.embedded)("cannot have the state triggers date a change at an instant of its choosing", async () => {
    const domain = await domainWithoutRequests();
    for (const days of [1, -1]) {
      const error = await roles.runtime.sql
        .transaction(async (tx) => {
          await tx.query("SELECT set_config('registry.state_clock', $1, true)", [new Date(Date.now() + days * 86_400_000).toISOString()]);
          await tx.query(
            `INSERT INTO object_state_request (object_id, state_id, valid_from, crdate)
             VALUES ($1, (SELECT id FROM enum_object_states WHERE name = 'serverUpdateProhibited'), now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')`,
            [domain],
          );
        })
        .catch((e: unknown) => e as { code?: string; message?: string });
      expect(error).toMatchObject({ code: "42501", message: expect.stringMatching(/registry.state_clock is set to .*not the present/) });
    }
    // A console change's own instant is the present.
    await roles.runtime.sql.transaction(async (tx) => {
      await tx.query("SELECT console.state_change_clock()");
      await tx.query(
        `INSERT INTO object_state_request (object_id, state_id, valid_from, crdate)
         VALUES ($1, (SELECT id FROM enum_object_states WHERE name = 'serverUpdateProhibited'), now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')`,
        [domain],
      );
    });
  });

  it("gives no role but console_app and the owner EXECUTE on schema console's SECURITY DEFINER functions", async () => {
    const functions = await roles.runtime.sql.query<{ fn: string; public: boolean; nobody: boolean; app: boolean }>(
      `SELECT p.oid::regprocedure::text AS fn,
              EXISTS (SELECT FROM aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a WHERE a.grantee = 0) AS public,
              has_function_privilege($1, p.oid, 'EXECUTE') AS nobody,
              has_function_privilege($2, p.oid, 'EXECUTE') AS app
         FROM pg_proc p WHERE p.pronamespace = 'console'::regnamespace AND p.prosecdef ORDER BY 1`,
      [NO_GRANTS, RUNTIME_GROUP],
    );
    expect(functions.length).toBeGreaterThan(15);
    expect(functions.filter((f) => f.public).map((f) => f.fn)).toEqual([]);
    expect(functions.filter((f) => f.nobody).map((f) => f.fn)).toEqual([]);
    expect(functions.filter((f) => f.app).map((f) => f.fn)).toEqual(RUNTIME_FUNCTIONS);
    // An actual call of the engine by a role with no grants.
    const call = await roles
      .as(NO_GRANTS, (sql) => sql.query("SELECT * FROM console.state_engine_run(now(), true)"))
      .then(
        () => null,
        (e: unknown) => e as { code?: string },
      );
    expect(call).toMatchObject({ code: "42501" });
    // The forecast's stored plan: written by its pass, which a role with no grants cannot call (and
    // which takes no instant: it counts from the database's clock), nor write into its tables.
    const refused = (run: Promise<unknown>) =>
      run.then(
        () => null,
        (e: unknown) => e as { code?: string },
      );
    expect(await refused(roles.as(NO_GRANTS, (sql) => sql.query("SELECT * FROM console.state_plan_pass()")))).toMatchObject({
      code: "42501",
    });
    expect(await refused(roles.as(NO_GRANTS, (sql) => sql.query("INSERT INTO console.state_plan_stale VALUES (1)")))).toMatchObject({
      code: "42501",
    });
    await refusedByRights(roles.runtime.sql, "DELETE FROM console.state_plan");
    for (const fn of RUNTIME_FUNCTIONS) {
      const [{ ok }] = await roles.runtime.sql.query<{ ok: boolean }>("SELECT has_function_privilege($1, 'EXECUTE') AS ok", [fn]);
      expect(ok, fn).toBe(true);
    }
  });

  it("reads FRED's tables but not the transfer passwords, and writes only requests", async () => {
    await refusedByRights(roles.runtime.sql, "SELECT authinfopw FROM object LIMIT 1");
    await refusedByRights(roles.runtime.sql, "UPDATE domain SET exdate = exdate + 1");
    await refusedByRights(roles.runtime.sql, "DELETE FROM object_state");
    await refusedByRights(roles.runtime.sql, "UPDATE object_registry SET name = name");
    await refusedByRights(roles.runtime.sql, "SELECT 1 FROM object_registry FOR UPDATE");
    await refusedByRights(roles.runtime.sql, "UPDATE object_state_request SET object_id = object_id");
    await refusedByRights(roles.runtime.sql, "UPDATE enum_parameters SET val = val");
    const [{ n }] = await roles.runtime.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM object o JOIN domain d ON d.id = o.id");
    expect(n).toBeGreaterThan(0);
  });

  it.runIf(setup.fred)("leaves every right of FRED's roles on FRED's tables and functions as it was", async () => {
    const fred = roles.fred as NonNullable<Roles["fred"]>;
    const without = (grants: Grant[]) => grants.filter((g) => g.grantee !== RUNTIME_GROUP);
    expect(without(fred.after)).toEqual(fred.before);
    expect(fred.before.some((g) => g.grantee === FRED_SERVER && g.object === "domain" && g.privilege === "UPDATE")).toBe(true);
    expect(fred.before).toContainEqual({ object: "update_object_states(integer)", grantee: "PUBLIC", privilege: "EXECUTE" });
    // What adoption granted is console_app's alone.
    expect(fred.after.filter((g) => g.grantee === RUNTIME_GROUP).length).toBeGreaterThan(20);
  });

  it.runIf(setup.fred)(
    "lets FRED's server role renew a domain, create a contact, request a state and call update_object_states after adoption",
    async () => {
      const fred = roles.fred as NonNullable<Roles["fred"]>;
      const [expired] = await roles.runtime.sql.query<{ id: number }>(
        `SELECT d.id FROM domain d JOIN object_state os ON os.object_id = d.id AND os.valid_to IS NULL
           JOIN enum_object_states s ON s.id = os.state_id AND s.name = 'expired'
          WHERE d.exdate > (now() AT TIME ZONE 'UTC')::date - 300 ORDER BY d.id LIMIT 1`,
      );
      expect(expired).toBeDefined();
      const openStates = async (id: number) =>
        (
          await roles.runtime.sql.query<{ name: string }>(
            `SELECT s.name FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
              WHERE os.object_id = $1 AND os.valid_to IS NULL ORDER BY 1`,
            [id],
          )
        ).map((r) => r.name);
      expect(await openStates(expired.id)).toContain("expired");
      const domain = await domainWithoutRequests();
      await withClient(fred.url, async (server) => {
        await server.query("SET TimeZone TO 'UTC'");
        // An EPP renew, as fred-server writes it.
        await server.query("BEGIN");
        await server.query("UPDATE domain SET exdate = exdate + 365 WHERE id = $1", [expired.id]);
        await server.query("COMMIT");
        await server.query("SELECT update_object_states($1)", [expired.id]);
        // A new contact.
        await server.query("BEGIN");
        const {
          rows: [contact],
        } = await server.query<{ id: number }>(
          `INSERT INTO object_registry (roid, type, name, crid, crdate)
           VALUES ('C-ROLES-' || $1, 1, 'ROLES-' || $1, (SELECT min(id) FROM registrar), now()) RETURNING id`,
          [randomUUID().slice(0, 8).toUpperCase()],
        );
        await server.query("INSERT INTO object (id, clid) VALUES ($1, (SELECT min(id) FROM registrar))", [contact.id]);
        await server.query("INSERT INTO contact (id, name) VALUES ($1, 'Roles test')", [contact.id]);
        await server.query("COMMIT");
        // fred-admin's request followed by update_object_states(id), and FRED's cron.
        await server.query(
          `INSERT INTO object_state_request (object_id, state_id, valid_from, crdate)
           VALUES ($1, (SELECT id FROM enum_object_states WHERE name = 'serverTransferProhibited'), now(), now())`,
          [domain],
        );
        await server.query("SELECT update_object_states($1)", [domain]);
        await server.query("SELECT update_object_states(0)");
        // A clock of its choosing is the owner's.
        await server.query("BEGIN");
        await server.query("SELECT set_config('registry.state_clock', '2100-01-01T00:00:00Z', true)");
        await server.query("UPDATE domain SET exdate = exdate + 1 WHERE id = $1", [expired.id]);
        await expect(server.query("COMMIT")).rejects.toMatchObject({
          code: "42501",
          message: expect.stringMatching(/registry.state_clock is set to .*not the present/),
        });
        // Schema console stays closed to FRED's roles.
        await expect(server.query("SELECT * FROM console.state_engine_run(now(), true)")).rejects.toMatchObject({ code: "42501" });
        await expect(server.query("SELECT count(*) FROM console.users")).rejects.toMatchObject({ code: "42501" });
      });
      expect(await openStates(expired.id)).not.toContain("expired");
      expect(await openStates(domain)).toContain("serverTransferProhibited");
    },
  );

  /**
   * Issue 39: no role reaches the owner through the owner's code. As a role with no grant, as the
   * runtime role and (on an adopted registry) as FRED's server role, the attacker first puts its own
   * objects in its temporary schema under every name the owner's code could resolve: a view for
   * every table and view of schemas public and console and for the engine's work tables (each read,
   * insert, update or delete of it runs the attacker's function, as whoever reads it), a function for
   * every function of those schemas and of the ones the engine calls from pg_catalog, and operators
   * for the comparisons it makes. Then it calls every SECURITY DEFINER function it may execute and
   * makes every write to FRED's tables it may make (each console trigger runs as the owner). The
   * attacker's functions record current_user: nothing may have run as anyone but the attacker.
   */
  it("runs nothing as the owner for a role with no grant, the runtime role or FRED's role, whatever it puts in pg_temp", async () => {
    const attackers = [NO_GRANTS, RUNTIME_GROUP, ...(setup.fred ? [FRED_SERVER] : [])];
    const owner = await roles.owner(async (sql) => (await sql.query<{ r: string }>("SELECT current_user::text AS r"))[0].r);
    const ids = await roles.owner((sql) =>
      sql.query<{ domain: number; contact: number; state: number; os: number; param: number }>(
        `SELECT (SELECT max(d.id) FROM domain d JOIN object_registry o ON o.id = d.id WHERE o.erdate IS NULL) AS domain,
                (SELECT max(c.id) FROM contact c) AS contact,
                (SELECT id FROM enum_object_states WHERE name = 'serverUpdateProhibited') AS state,
                (SELECT max(id) FROM object_state) AS os,
                (SELECT min(id) FROM enum_parameters) AS param`,
      ),
    );
    const { domain, contact, state, os, param } = ids[0];
    // The attacker's knowledge of the schema is the catalogue, which every role may read.
    const relations = await roles.owner((sql) =>
      sql.query<{ name: string; columns: string }>(
        `SELECT c.relname AS name,
                string_agg(format('NULL::%s AS %I', format_type(a.atttypid, a.atttypmod), a.attname), ', ' ORDER BY a.attnum) AS columns
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
          WHERE n.nspname IN ('public', 'console') AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
          GROUP BY c.relname ORDER BY c.relname`,
      ),
    );
    expect(relations.length).toBeGreaterThan(40);
    const workTables = [
      { name: "state_work", columns: "NULL::integer AS object_id, NULL::timestamptz AS w" },
      {
        name: "state_desired",
        columns:
          "NULL::integer AS object_id, NULL::integer AS state_id, NULL::timestamptz AS lo, NULL::timestamptz AS hi, NULL::timestamptz AS w",
      },
    ];
    const functions = await roles.owner((sql) =>
      sql.query<{ name: string; args: string; result: string }>(
        `SELECT DISTINCT p.proname AS name, pg_get_function_identity_arguments(p.oid) AS args, format_type(p.prorettype, NULL) AS result
           FROM pg_proc p
          WHERE p.prokind = 'f' AND NOT p.proretset AND p.prorettype <> 'trigger'::regtype
            AND NOT EXISTS (SELECT FROM unnest(p.proargtypes) t
                             WHERE t IN ('internal'::regtype, 'anyelement'::regtype, 'anyarray'::regtype, 'anynonarray'::regtype,
                                         'anyenum'::regtype, 'anyrange'::regtype, 'anymultirange'::regtype, 'anycompatible'::regtype,
                                         'anycompatiblearray'::regtype, '"any"'::regtype, 'cstring'::regtype, 'trigger'::regtype))
            AND p.prorettype NOT IN ('internal'::regtype, 'anyelement'::regtype, 'anyarray'::regtype, 'anyrange'::regtype,
                                     'anycompatible'::regtype, 'cstring'::regtype, 'void'::regtype, 'record'::regtype)
            AND (p.pronamespace IN ('public'::regnamespace, 'console'::regnamespace)
                 OR p.proname IN ('now', 'clock_timestamp', 'current_setting', 'set_config', 'lower', 'upper', 'greatest', 'least',
                                  'format', 'tstzrange', 'isempty', 'lower_inf', 'upper_inf', 'array_length', 'cardinality',
                                  'date_trunc', 'timezone', 'make_interval', 'to_char', 'hmac', 'sha256', 'encode', 'decode',
                                  'convert_to', 'nullif', 'extract', 'date_part', 'pg_advisory_xact_lock', 'txid_current', 'length'))
          ORDER BY 1, 2`,
      ),
    );
    expect(functions.length).toBeGreaterThan(40);

    const attack = async (attacker: string, shadows: { name: string; columns: string; table?: boolean }[]) =>
      roles.as(attacker, async (sql) => {
        const ran: { who: string; what: string }[] = [];
        // A fresh session: the owner's work tables from this connection's earlier engine runs are
        // dropped (by the superuser the test steps back to, in this rolled-back transaction).
        await sql.run("RESET ROLE");
        await sql.run("DROP TABLE IF EXISTS pg_temp.state_work, pg_temp.state_desired");
        // Work for FRED's regular call: the domain's next change is due.
        await sql.run(`UPDATE console.state_next_event SET next_at = now() - interval '1 minute' WHERE object_id = ${domain}`);
        await sql.run(`SET LOCAL ROLE ${attacker}`);
        await sql.run("CREATE TEMP TABLE rsc_pwned (who text, what text)");
        // A sequence counts what ran as another role even when the statement then failed and was rolled back.
        await sql.run("CREATE TEMP SEQUENCE rsc_pwned_count");
        await sql.run("GRANT ALL ON pg_temp.rsc_pwned, pg_temp.rsc_pwned_count TO PUBLIC");
        await sql.run(`CREATE FUNCTION pg_temp.rsc_seen(what text) RETURNS boolean LANGUAGE plpgsql AS $f$
          BEGIN
            IF current_user <> ${pg.escapeLiteral(attacker)} THEN PERFORM nextval('pg_temp.rsc_pwned_count'); END IF;
            INSERT INTO pg_temp.rsc_pwned VALUES (current_user, what); RETURN true;
          END $f$`);
        await sql.run(`CREATE FUNCTION pg_temp.rsc_write() RETURNS trigger LANGUAGE plpgsql AS $f$
          BEGIN PERFORM pg_temp.rsc_seen(TG_TABLE_NAME || ' ' || TG_OP); RETURN NULL; END $f$`);
        for (const { name, columns, table } of shadows) {
          if (table) {
            // As the attack was found: a table of the work table's name, its writes and reads watched.
            const t = `pg_temp.${pg.escapeIdentifier(name)}`;
            const seen = `pg_temp.rsc_seen(${pg.escapeLiteral(name)})`;
            await sql.run(`CREATE TEMP TABLE ${pg.escapeIdentifier(name)} AS SELECT ${columns} WITH NO DATA`);
            await sql.run(
              `CREATE TRIGGER rsc_write BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${t} FOR EACH STATEMENT EXECUTE FUNCTION pg_temp.rsc_write()`,
            );
            await sql.run(`ALTER TABLE ${t} ENABLE ROW LEVEL SECURITY`);
            await sql.run(`CREATE POLICY rsc_read ON ${t} USING (${seen}) WITH CHECK (${seen})`);
            await sql.run(`GRANT ALL ON ${t} TO PUBLIC`);
            continue;
          }
          await sql.run(
            `CREATE TEMP VIEW ${pg.escapeIdentifier(name)} AS SELECT ${columns} WHERE pg_temp.rsc_seen(${pg.escapeLiteral(name)})`,
          );
          await sql.run(
            `CREATE TRIGGER rsc_write INSTEAD OF INSERT OR UPDATE OR DELETE ON pg_temp.${pg.escapeIdentifier(name)} FOR EACH ROW EXECUTE FUNCTION pg_temp.rsc_write()`,
          );
          await sql.run(`GRANT ALL ON pg_temp.${pg.escapeIdentifier(name)} TO PUBLIC`);
        }
        for (const { name, args, result } of functions) {
          const params = args === "" ? "" : args;
          await sql.run("SAVEPOINT rsc_fn");
          await sql
            .run(
              `CREATE FUNCTION pg_temp.${pg.escapeIdentifier(name)}(${params}) RETURNS ${result} LANGUAGE plpgsql AS $f$
                 BEGIN PERFORM pg_temp.rsc_seen(${pg.escapeLiteral(`${name}(${args})`)}); RETURN NULL; END $f$`,
            )
            .then(
              () => sql.run("RELEASE SAVEPOINT rsc_fn"),
              () => sql.run("ROLLBACK TO SAVEPOINT rsc_fn"),
            );
        }
        for (const type of ["integer", "timestamptz", "timestamp", "text", "date", "boolean"]) {
          await sql.run(
            `CREATE FUNCTION pg_temp.rsc_op(a ${type}, b ${type}) RETURNS boolean LANGUAGE sql AS $f$ SELECT pg_temp.rsc_seen('operator ${type}') $f$`,
          );
          for (const op of ["=", "<>", "<", "<=", ">", ">="])
            await sql.run(`CREATE OPERATOR pg_temp.${op} (LEFTARG = ${type}, RIGHTARG = ${type}, FUNCTION = pg_temp.rsc_op)`);
        }
        await sql.run("SET CONSTRAINTS ALL IMMEDIATE");
        const callable = await sql.query<{ fn: string }>(
          `SELECT p.oid::regprocedure::text AS fn FROM pg_proc p
            WHERE p.prosecdef AND p.pronamespace IN ('public'::regnamespace, 'console'::regnamespace)
              AND has_function_privilege(p.oid, 'EXECUTE') AND has_schema_privilege(p.pronamespace, 'USAGE') ORDER BY 1`,
        );
        const calls: Record<string, string[]> = {
          "update_object_states(integer)": ["SELECT update_object_states(0)", `SELECT update_object_states(${domain})`],
          "console.state_engine_run_now(boolean,integer)": [
            "SELECT * FROM console.state_engine_run_now(false, NULL)",
            `SELECT * FROM console.state_engine_run_now(false, ${domain})`,
            "SELECT * FROM console.state_engine_run_now(true, NULL)",
          ],
          "console.lock_objects(integer[])": [`SELECT console.lock_objects(ARRAY[${domain}, ${contact}])`],
          "console.audit_chain_lock()": ["SELECT console.audit_chain_lock()"],
          "console.state_plan_pass()": ["SELECT * FROM console.state_plan_pass()"],
          // In charge mode (these registries) the first refuses and the second does nothing; in beside,
          // lib/states/fred-beside.test.ts makes the same attack on them.
          "console.fred_state_update(integer[])": [`SELECT console.fred_state_update(ARRAY[${domain}, ${contact}])`],
          "console.fred_feed_poll()": ["SELECT console.fred_feed_poll()"],
          "console.object_keys_catch_up(boolean)": ["SELECT console.object_keys_catch_up()", "SELECT console.object_keys_catch_up(true)"],
          "console.user_set_password_hash(integer,text,text)": [
            `SELECT console.user_set_password_hash((SELECT min(id) FROM console.users), '$2a$04$${"a".repeat(53)}', 'not the hash')`,
          ],
        };
        const writes = [
          `UPDATE domain SET exdate = exdate - 400 WHERE id = ${domain}`,
          `UPDATE domain SET nsset = NULL WHERE id = ${domain}`,
          `UPDATE object SET update = now() AT TIME ZONE 'UTC' WHERE id = ${contact}`,
          `UPDATE object_registry SET erdate = now() AT TIME ZONE 'UTC' WHERE id = ${domain}`,
          // A new object: the console's copy of the list's keys (its trigger, in charge) runs as the owner.
          `INSERT INTO object_registry (roid, type, name, crid) VALUES ('C9999999-RSC', 1, 'RSC-ATTACK', (SELECT min(id) FROM registrar))`,
          `INSERT INTO object_state_request (object_id, state_id, valid_from, crdate)
           VALUES (${domain}, ${state}, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')`,
          `DELETE FROM domain_contact_map WHERE domainid = ${domain}`,
          `INSERT INTO object_state (object_id, state_id, valid_from) VALUES (${domain}, ${state}, now() AT TIME ZONE 'UTC')`,
          `UPDATE object_state SET valid_to = valid_from WHERE id = ${os}`,
          `UPDATE enum_parameters SET val = val WHERE id = ${param}`,
          "UPDATE domain_lifecycle_parameters SET valid_for_exdate_after = valid_for_exdate_after",
          "UPDATE enumval SET publish = NOT publish",
          `INSERT INTO console.audit_log (action, result) VALUES ('intruder', 'ok')`,
        ];
        const outcomes: { sql: string; error: string | null }[] = [];
        for (const fn of callable.map((c) => c.fn)) {
          expect(calls[fn], `the attack test calls ${fn}: give it arguments`).toBeDefined();
        }
        for (const statement of [...callable.flatMap((c) => calls[c.fn] ?? []), ...writes]) {
          await sql.run("SAVEPOINT rsc_call");
          const error = await sql.run(statement).then(
            () => null,
            (e: unknown) => String((e as Error).message),
          );
          await sql.run(error === null ? "RELEASE SAVEPOINT rsc_call" : "ROLLBACK TO SAVEPOINT rsc_call");
          outcomes.push({ sql: statement, error });
        }
        ran.push(...(await sql.query<{ who: string; what: string }>("SELECT who, what FROM pg_temp.rsc_pwned")));
        const [count] = await sql.query<{ n: string }>(
          "SELECT CASE WHEN is_called THEN last_value ELSE 0 END::text AS n FROM pg_temp.rsc_pwned_count",
        );
        if (count.n !== "0") ran.push({ who: "another role", what: `${count.n} calls, rolled back with their statements` });
        return { ran, outcomes, callable: callable.map((c) => c.fn) };
      });

    for (const attacker of attackers) {
      // Every name but the engine's work tables: the owner's code must run as usual and never see them.
      const everything = await attack(attacker, relations);
      expect(
        everything.ran.filter((r) => r.who !== attacker),
        `${attacker}: ran as another role`,
      ).toEqual([]);
      expect(everything.callable.length, attacker).toBeGreaterThan(0);
      // What the role may do still works (a shadow never breaks the owner's code): it is refused only
      // by its rights or the console's own checks, never by meeting the attacker's objects.
      for (const { sql, error } of everything.outcomes)
        if (error !== null) expect(error, `${attacker}: ${sql}`).not.toMatch(/rsc_|permission denied for view|does not exist/);
      // The engine's work tables made by the attacker before the owner's: refused, never used.
      for (const table of workTables) {
        const work = await attack(attacker, [{ ...table, table: true }]);
        expect(
          work.ran.filter((r) => r.who !== attacker),
          `${attacker}: ran as another role through ${table.name}`,
        ).toEqual([]);
        const engine = work.outcomes.filter((o) => /update_object_states|state_engine_run_now/.test(o.sql));
        expect(engine.length, attacker).toBeGreaterThan(0);
        for (const { sql, error } of engine)
          if (error !== null) expect(error, `${attacker}: ${sql}`).toMatch(/belongs to another role|permission denied/);
        expect(engine.filter((o) => o.error !== null).length, `${attacker}: the engine met the work tables`).toBeGreaterThan(0);
      }
    }
    expect(owner).not.toBe(NO_GRANTS);
    // And so for every function a later migration adds: each that runs as the owner, or sets a
    // search_path, ends it with pg_temp (else PostgreSQL searches the caller's pg_temp first).
    const open = await roles.owner((sql) =>
      sql.query<{ fn: string; path: string | null }>(
        `SELECT p.oid::regprocedure::text AS fn,
                (SELECT c FROM unnest(p.proconfig) c WHERE c LIKE 'search_path=%') AS path
           FROM pg_proc p
          WHERE p.pronamespace IN ('console'::regnamespace, 'public'::regnamespace)
            AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
            AND (p.prosecdef OR EXISTS (SELECT FROM unnest(p.proconfig) c WHERE c LIKE 'search_path=%'))
          ORDER BY 1`,
      ),
    );
    expect(open.length).toBeGreaterThan(20);
    expect(open.filter((f) => !/pg_temp"?$/.test(f.path ?? ""))).toEqual([]);
  });

  it.runIf(setup.fred)("gives every right back as it was before adoption when db:unadopt removes the console", async () => {
    const fred = roles.fred as NonNullable<Roles["fred"]>;
    await roles.owner((_sql, direct) => unadopt(direct, { dryRun: false }));
    expect(await withClient(fred.adminUrl, publicGrants)).toEqual(fred.before);
  });
});

describe("the migrating role and the running console's role", () => {
  it("tells what the DBA must run when console_app is missing and the owner may not create roles", async () => {
    const { db, drop } = await pgliteBackend.create();
    try {
      const [{ name }] = await db.sql.query<{ name: string }>("SELECT current_database() AS name");
      // The extensions are a superuser's (or trusted ones); the owner has the database and schema public.
      await db.direct.exec(
        `CREATE EXTENSION btree_gist; CREATE EXTENSION pg_trgm; CREATE ROLE rsc_owner NOLOGIN;
         GRANT CREATE ON DATABASE "${name}" TO rsc_owner; GRANT CREATE ON SCHEMA public TO rsc_owner; SET ROLE rsc_owner`,
      );
      const error = await migrate(db.direct).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StartupError);
      expect((error as Error).message).toMatch(
        /migration 20261125230000_database_roles failed and was rolled back: .*rsc_owner may not create roles.*CREATE ROLE console_app NOLOGIN;.*GRANT console_app TO/,
      );
    } finally {
      await drop();
    }
  });

  describe.skipIf(!adminUrl)("on PostgreSQL", () => {
    let name: string;
    let url: string;
    let runtimeUrl: string;

    beforeAll(async () => {
      name = `rsc_roles_${randomUUID().slice(0, 8)}`;
      await withClient(adminUrl as string, (client) => client.query(`CREATE DATABASE ${name}`));
      url = databaseUrl(adminUrl as string, name);
      runtimeUrl = await createConsoleRuntimeRole(adminUrl as string, url);
      await withClient(adminUrl as string, (client) => client.query(createRoleSql("rsc_stranger", "LOGIN")));
    });
    afterAll(() => withClient(adminUrl as string, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));

    it("refuses to migrate as the runtime role, saying to use DATABASE_OWNER_URL", async () => {
      const runtime = await openDatabase({ databaseUrl: runtimeUrl, pgliteDir: "" });
      try {
        await expect(migrate(runtime.direct)).rejects.toThrow(
          new RegExp(
            `migration\\(s\\) are pending .* ${CONSOLE_RUNTIME_ROLE} at .* is the console's runtime role \\(console_app\\).*DATABASE_OWNER_URL`,
          ),
        );
      } finally {
        await runtime.close();
      }
    });

    it("warns when the console runs with owner rights, and refuses a role that is neither owner nor in console_app", async () => {
      const owner = await openDatabase({ databaseUrl: url, pgliteDir: "" });
      const runtime = await openDatabase({ databaseUrl: runtimeUrl, pgliteDir: "" });
      const strangerUrl = new URL(url);
      strangerUrl.username = "rsc_stranger";
      const stranger = await openDatabase({ databaseUrl: strangerUrl.toString(), pgliteDir: "" });
      try {
        await migrate(owner.direct);
        expect(await checkRuntimeRole(owner.sql, false)).toMatch(
          /the console runs with owner rights: DATABASE_URL connects as postgres.*Set DATABASE_OWNER_URL to the owner role/,
        );
        expect(await checkRuntimeRole(owner.sql, true)).toMatch(/Point DATABASE_URL at a login role that is a member of console_app/);
        expect(await checkRuntimeRole(runtime.sql, true)).toBeNull();
        await expect(checkRuntimeRole(stranger.sql, true)).rejects.toThrow(
          /DATABASE_URL connects as rsc_stranger, which is not a member of console_app.*GRANT console_app TO rsc_stranger;/,
        );
      } finally {
        await Promise.all([owner.close(), runtime.close(), stranger.close()]);
      }
    });
  });
});
