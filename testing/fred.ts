import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { pgExecutor } from "../lib/db/driver";
import { fredKnownBugCauses as knownBugCauses } from "../lib/states/shadow";

/** The real fred-db 2.52.0 schema: GPL test data beside the repository (../shared/fred-db), never copied into it. */
export const FRED_STRUCTURE_SQL = path.join(process.cwd(), "..", "shared", "fred-db", "structure.sql");

export function fredSchemaAvailable(): boolean {
  return existsSync(FRED_STRUCTURE_SQL);
}

/** A PostgreSQL client program (psql, pg_dump): the PostgreSQL 15 one beside the server binaries, else the one on PATH. */
export function postgresProgram(name: string): string {
  const beside = `/usr/lib/postgresql/15/bin/${name}`;
  return existsSync(beside) ? beside : name;
}

/** One connection for `work`, closed afterwards. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** `url` with another database name. */
export function databaseUrl(url: string, name: string): string {
  const other = new URL(url);
  other.pathname = `/${name}`;
  return other.toString();
}

/** `url` connecting as FRED's own role, fred (the owner of FRED's tables), without a password. */
export function fredRoleUrl(url: string): string {
  const fredUrl = new URL(url);
  fredUrl.username = "fred";
  fredUrl.password = "";
  return fredUrl.toString();
}

/** Creates a role unless it exists (roles belong to the whole server; tests create them concurrently). */
export function createRoleSql(name: string, options: string): string {
  return `DO $$ BEGIN CREATE ROLE ${name} ${options}; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`;
}

/** The login role the console runs as in tests, a member of console_app (docs/operating.md "Database roles"). */
export const CONSOLE_RUNTIME_ROLE = "console_runtime";

/**
 * What a DBA does for the console's two roles (docs/operating.md "Database roles"): the group role console_app
 * (NOLOGIN; the owner role need not have CREATEROLE then) and a login role in it. Returns `url` with
 * that login role.
 */
export async function createConsoleRuntimeRole(adminUrl: string, url: string): Promise<string> {
  await withClient(adminUrl, async (client) => {
    // Test files in parallel do this at once on a fresh cluster: one at a time (roles are cluster-wide,
    // and two GRANTs of the same membership at once can fail with "tuple concurrently updated").
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtext('rsc-test-console-roles'))");
    await client.query(createRoleSql("console_app", "NOLOGIN"));
    await client.query(createRoleSql(CONSOLE_RUNTIME_ROLE, "LOGIN"));
    await client.query(`GRANT console_app TO ${CONSOLE_RUNTIME_ROLE}`);
    await client.query("COMMIT");
  });
  const runtime = new URL(url);
  runtime.username = CONSOLE_RUNTIME_ROLE;
  runtime.password = "";
  return runtime.toString();
}

/**
 * A new database holding an empty FRED registry, loaded the way fred-db's README says: role fred,
 * a UTF8 database it owns, the extensions pgcrypto, pg_trgm and unaccent, then structure.sql run by
 * psql as fred with ON_ERROR_STOP. `url` connects as the admin user (a superuser in tests). `name`:
 * the new database's (default: a random rsc_fred_… one). The DBA's part of the console's roles is
 * done too: `consoleUrl` connects as the console's runtime login role (a member of console_app), so
 * fred, which may not create roles, can adopt the registry.
 */
export async function createFredDatabase(
  adminUrl: string,
  name = `rsc_fred_${randomBytes(6).toString("hex")}`,
): Promise<{ url: string; fredUrl: string; consoleUrl: string; drop(): Promise<void> }> {
  await withClient(adminUrl, async (client) => {
    await client.query(createRoleSql("fred", "LOGIN"));
    await client.query(`CREATE DATABASE ${name} OWNER fred TEMPLATE template0 ENCODING 'UTF8'`);
  });
  const url = databaseUrl(adminUrl, name);
  await withClient(url, async (client) => {
    for (const extension of ["pgcrypto", "pg_trgm", "unaccent"]) await client.query(`CREATE EXTENSION ${extension}`);
  });
  const fredUrl = fredRoleUrl(url);
  // psql as the README says.
  execFileSync(postgresProgram("psql"), ["-q", "-X", "-v", "ON_ERROR_STOP=1", "-d", fredUrl, "-f", FRED_STRUCTURE_SQL], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, PGOPTIONS: "--client-min-messages=warning" },
  });
  const consoleUrl = await createConsoleRuntimeRole(adminUrl, url);
  return {
    url,
    fredUrl,
    consoleUrl,
    drop: () => withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}

/**
 * Why FRED's update_object_states and the console's engine may differ on an object at instant `at`
 * (FRED's known bugs, docs/fred.md "The state rules"): lib/states/shadow.ts's, which shadow's comparison uses, on a
 * test's client. Keys `object:state` or `object:*`; values describe the bug.
 */
export function fredKnownBugCauses(client: pg.Client, at: string, zone: string): Promise<Map<string, string>> {
  return knownBugCauses(pgExecutor(client), at, zone);
}

/**
 * Objects at every threshold of every rule, as registry data (lib/states/fred-*.test.ts): domains
 * whose expiration (or validation) date is a threshold's day, the day before and the day after,
 * each plain and with the requests the rules depend on; contacts, nssets and keysets whose
 * creation, last update or last link is six months ago, the day before and after.
 */
export const fredEdgeCases = (zone: string) => `
DO $$
DECLARE
    today date := (now() AT TIME ZONE '${zone}')::date;
    v_holder integer;
    v_ns integer;
    v_id integer;
    v_n integer := 0;
    v_variant text;
    v_k integer;
    v_state integer;
BEGIN
    PERFORM set_config('registry.state_marks', 'off', true);
    INSERT INTO object_registry (roid, type, name, crid, crdate) VALUES ('EDGE-HOLDER', 1, 'EDGE-HOLDER', 1, '2020-01-01') RETURNING object_registry.id INTO v_holder;
    INSERT INTO object (id, clid) VALUES (v_holder, 1);
    INSERT INTO contact (id, name) VALUES (v_holder, 'Edge holder');
    INSERT INTO object_registry (roid, type, name, crid, crdate) VALUES ('EDGE-NS', 2, 'EDGE-NS', 1, '2020-01-01') RETURNING object_registry.id INTO v_ns;
    INSERT INTO object (id, clid) VALUES (v_ns, 1);
    INSERT INTO nsset (id) VALUES (v_ns);
    -- Domains: expiration at each threshold (-30 notify, 0 expired, 25 e-mail warning, 30 unguarded
    -- and outzone, 34 letter, 61 delete candidate) and a day either side, and validation at each
    -- of its thresholds (-30, -15, 0).
    FOREACH v_k IN ARRAY ARRAY[31, 30, 29, 16, 15, 14, 1, 0, -1, -24, -25, -26, -29, -30, -31, -33, -34, -35, -60, -61, -62] LOOP
        FOREACH v_variant IN ARRAY ARRAY['plain', 'renew', 'inzone', 'outzone', 'delete', 'validation'] LOOP
            v_n := v_n + 1;
            INSERT INTO object_registry (roid, type, name, crid, crdate)
            VALUES ('EDGE-D' || v_n, 3, 'edge-' || v_n || '-' || v_variant || '.cz', 1, '2020-01-01') RETURNING object_registry.id INTO v_id;
            INSERT INTO object (id, clid) VALUES (v_id, 1);
            IF v_variant = 'validation' THEN
                INSERT INTO domain (id, zone, registrant, nsset, exdate) VALUES (v_id, 1, v_holder, v_ns, today + 400);
                INSERT INTO enumval (domainid, exdate) VALUES (v_id, today + v_k);
            ELSE
                INSERT INTO domain (id, zone, registrant, nsset, exdate) VALUES (v_id, 1, v_holder, v_ns, today + v_k);
            END IF;
            v_state := CASE v_variant WHEN 'renew' THEN 2 WHEN 'inzone' THEN 6 WHEN 'outzone' THEN 5 WHEN 'delete' THEN 1 END;
            IF v_state IS NOT NULL THEN
                INSERT INTO object_state_request (object_id, state_id, valid_from, crdate)
                VALUES (v_id, v_state, now() AT TIME ZONE 'UTC' - interval '100 days', now() AT TIME ZONE 'UTC' - interval '100 days');
            END IF;
        END LOOP;
    END LOOP;
    -- A domain with no nsset.
    INSERT INTO object_registry (roid, type, name, crid, crdate) VALUES ('EDGE-NONS', 3, 'edge-no-nsset.cz', 1, '2020-01-01') RETURNING object_registry.id INTO v_id;
    INSERT INTO object (id, clid) VALUES (v_id, 1);
    INSERT INTO domain (id, zone, registrant, nsset, exdate) VALUES (v_id, 1, v_holder, NULL, today + 400);
    -- Unlinked contacts, nssets and keysets: created, updated or last linked six months ago (at
    -- 10:00 UTC), the day before and the day after.
    FOREACH v_k IN ARRAY ARRAY[-1, 0, 1] LOOP
        FOREACH v_variant IN ARRAY ARRAY['created', 'updated', 'unlinked'] LOOP
            FOREACH v_state IN ARRAY ARRAY[1, 2, 4] LOOP
                v_n := v_n + 1;
                INSERT INTO object_registry (roid, type, name, crid, crdate)
                VALUES ('EDGE-O' || v_n, v_state, 'EDGE-' || v_n || '-' || upper(v_variant), 1,
                        CASE WHEN v_variant = 'created' THEN (today - interval '6 months')::date + v_k + time '10:00' ELSE '2020-01-01' END)
                RETURNING object_registry.id INTO v_id;
                INSERT INTO object (id, clid, update) VALUES (v_id, 1,
                        CASE WHEN v_variant = 'updated' THEN (today - interval '6 months')::date + v_k + time '10:00' END);
                IF v_state = 1 THEN INSERT INTO contact (id, name) VALUES (v_id, 'Edge contact'); END IF;
                IF v_state = 2 THEN INSERT INTO nsset (id) VALUES (v_id); END IF;
                IF v_state = 4 THEN INSERT INTO keyset (id) VALUES (v_id); END IF;
                IF v_variant = 'unlinked' THEN
                    INSERT INTO object_state (object_id, state_id, valid_from, valid_to)
                    VALUES (v_id, 16, '2020-01-01', (today - interval '6 months')::date + v_k + time '10:00');
                END IF;
            END LOOP;
        END LOOP;
    END LOOP;
END $$;
`;

/**
 * FRED's known bugs, as registry data (after fredEdgeCases): written past the console's request
 * rules (they stand for what FRED's programs wrote before adoption). Each object's name says which.
 */
export const fredBugCases = (zone: string) => `
DO $$
DECLARE
    today date := (now() AT TIME ZONE '${zone}')::date;
    v_holder integer := (SELECT o.id FROM object_registry o WHERE o.name = 'EDGE-HOLDER');
    v_ns integer := (SELECT o.id FROM object_registry o WHERE o.name = 'EDGE-NS');
    v_id integer;
BEGIN
    PERFORM set_config('registry.state_marks', 'off', true);
    -- A request for an automatic state (expired) on a domain that has not expired.
    INSERT INTO object_registry (roid, type, name, crid, crdate) VALUES ('BUG-AUTO', 3, 'bug-automatic.cz', 1, '2020-01-01') RETURNING object_registry.id INTO v_id;
    INSERT INTO object (id, clid) VALUES (v_id, 1);
    INSERT INTO domain (id, zone, registrant, nsset, exdate) VALUES (v_id, 1, v_holder, v_ns, today + 400);
    INSERT INTO object_state_request (object_id, state_id, valid_from) VALUES (v_id, 9, now() AT TIME ZONE 'UTC' - interval '1 day');
    -- A request for a domain's state (serverOutzoneManual) on a contact.
    INSERT INTO object_registry (roid, type, name, crid, crdate) VALUES ('BUG-TYPE', 1, 'BUG-WRONG-TYPE', 1, '2020-01-01') RETURNING object_registry.id INTO v_id;
    INSERT INTO object (id, clid) VALUES (v_id, 1);
    INSERT INTO contact (id, name) VALUES (v_id, 'Wrong type');
    INSERT INTO object_state_request (object_id, state_id, valid_from) VALUES (v_id, 5, now() AT TIME ZONE 'UTC' - interval '1 day');
    -- A request in force whose cancellation is set in the future.
    INSERT INTO object_registry (roid, type, name, crid, crdate) VALUES ('BUG-CANCEL', 3, 'bug-canceled-later.cz', 1, '2020-01-01') RETURNING object_registry.id INTO v_id;
    INSERT INTO object (id, clid) VALUES (v_id, 1);
    INSERT INTO domain (id, zone, registrant, nsset, exdate) VALUES (v_id, 1, v_holder, v_ns, today + 400);
    INSERT INTO object_state_request (object_id, state_id, valid_from, canceled)
    VALUES (v_id, 3, now() AT TIME ZONE 'UTC' - interval '1 day', now() AT TIME ZONE 'UTC' + interval '30 days');
    -- A contact created at 23:30 UTC six months ago: 00:30 the next day in the registry's zone, so
    -- six months have passed by FRED's count and not yet by the registry's calendar.
    INSERT INTO object_registry (roid, type, name, crid, crdate)
    VALUES ('BUG-LATE', 1, 'BUG-CREATED-LATE', 1, (today - interval '6 months')::date + time '23:30') RETURNING object_registry.id INTO v_id;
    INSERT INTO object (id, clid) VALUES (v_id, 1);
    INSERT INTO contact (id, name) VALUES (v_id, 'Created late');
    -- Shown in the closing tally too: the domain whose request ends exactly at the run's instant is
    -- written at run time (its end must be that instant).
    INSERT INTO object_registry (roid, type, name, crid, crdate) VALUES ('BUG-END', 3, 'bug-ends-at-run.cz', 1, '2020-01-01') RETURNING object_registry.id INTO v_id;
    INSERT INTO object (id, clid) VALUES (v_id, 1);
    INSERT INTO domain (id, zone, registrant, nsset, exdate) VALUES (v_id, 1, v_holder, v_ns, today + 400);
END $$;
`;

/**
 * The states FRED's own views (fred-db structure.sql: domain_states, contact_states, nsset_states,
 * keyset_states, as update_object_states diffs them) want each object to have at the statement's
 * now(): object id → sorted distinct state ids. Objects the views do not list (deleted) are absent.
 * Run it in a UTC session, as FRED's programs are: the views compare FRED's UTC timestamps with
 * CURRENT_TIMESTAMP and CURRENT_DATE.
 */
export async function fredDesiredStates(client: pg.Client, ids: number[]): Promise<Map<number, number[]>> {
  const { rows } = await client.query<{ object_id: number; states: number[] }>(
    `SELECT v.object_id, array_sort_dist(v.states) AS states
       FROM (SELECT object_id, states FROM domain_states UNION ALL SELECT object_id, states FROM contact_states
             UNION ALL SELECT object_id, states FROM nsset_states UNION ALL SELECT object_id, states FROM keyset_states) v
      WHERE v.object_id = ANY ($1::int[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.object_id, r.states]));
}

/** One right on schema public or what is in it. */
export interface Grant {
  object: string;
  grantee: string;
  privilege: string;
}

/**
 * Every right on schema public and what is in it (tables, views, sequences, columns, functions),
 * by grantee, read from the catalogue (a NULL acl is the object's default rights) and from
 * information_schema's role_table_grants and role_routine_grants.
 */
export async function publicGrants(client: pg.Client): Promise<Grant[]> {
  const { rows } = await client.query<Grant>(
    `SELECT c.oid::regclass::text AS object, coalesce(r.rolname, 'PUBLIC') AS grantee, a.privilege_type AS privilege
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      CROSS JOIN LATERAL aclexplode(coalesce(c.relacl, acldefault(CASE WHEN c.relkind = 'S' THEN 's' ELSE 'r' END::"char", c.relowner))) a
       LEFT JOIN pg_roles r ON r.oid = a.grantee
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
     UNION ALL
     SELECT c.oid::regclass::text || '.' || at.attname, coalesce(r.rolname, 'PUBLIC'), a.privilege_type
       FROM pg_attribute at JOIN pg_class c ON c.oid = at.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      CROSS JOIN LATERAL aclexplode(at.attacl) a LEFT JOIN pg_roles r ON r.oid = a.grantee
      WHERE n.nspname = 'public' AND at.attnum > 0
     UNION ALL
     SELECT p.oid::regprocedure::text, coalesce(r.rolname, 'PUBLIC'), a.privilege_type
       FROM pg_proc p CROSS JOIN LATERAL aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
       LEFT JOIN pg_roles r ON r.oid = a.grantee
      WHERE p.pronamespace = 'public'::regnamespace
     UNION ALL
     SELECT 'schema public', coalesce(r.rolname, 'PUBLIC'), a.privilege_type
       FROM pg_namespace n CROSS JOIN LATERAL aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) a
       LEFT JOIN pg_roles r ON r.oid = a.grantee
      WHERE n.nspname = 'public'
     UNION ALL
     SELECT 'information_schema ' || table_schema || '.' || table_name, grantee, privilege_type
       FROM information_schema.role_table_grants WHERE table_schema = 'public'
     UNION ALL
     SELECT 'information_schema ' || routine_schema || '.' || specific_name, grantee, privilege_type
       FROM information_schema.role_routine_grants WHERE routine_schema = 'public'
     ORDER BY 1, 2, 3`,
  );
  return rows;
}
