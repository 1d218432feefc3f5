import type { DirectDriver, SqlDriver, SqlExecutor } from "./driver";
import { StartupError } from "./errors";

/**
 * The group role of the running console (migration 20261125230000_database_roles): the console's
 * DML and nothing else. Migrations and adoption run as the owner role (docs/operating.md "Database roles").
 */
export const RUNTIME_GROUP = "console_app";

export interface DatabaseRole {
  /** The role the connection acts as (current_user). */
  name: string;
  /** Has the owner's rights: a member of schema console's owner (or a superuser); before schema console exists, a role that may create it. */
  owner: boolean;
  /** A member of console_app. */
  runtime: boolean;
}

/** Who the connection is, as far as the console's two roles go. */
export async function databaseRole(db: SqlExecutor): Promise<DatabaseRole> {
  const [row] = await db.query<DatabaseRole>(
    `SELECT current_user::text AS name,
            coalesce((SELECT pg_has_role(current_user, n.nspowner, 'USAGE') FROM pg_namespace n WHERE n.nspname = 'console'),
                     has_database_privilege(current_database(), 'CREATE')) AS owner,
            EXISTS (SELECT FROM pg_roles r WHERE r.rolname = $1 AND pg_has_role(current_user, r.oid, 'USAGE')) AS runtime`,
    [RUNTIME_GROUP],
  );
  return row;
}

/** Which database a connection reached: its name and the instant the console's registry began there. */
export async function databaseIdentity(db: SqlExecutor): Promise<string> {
  const [row] = await db.query<{ identity: string }>(
    `SELECT current_database() || ' ' || coalesce((SELECT since::text FROM console.registry_origin), '') AS identity`,
  );
  return row.identity;
}

/** Printed at start-up when the running console acts with the owner's rights. */
function ownerRightsWarning(role: string, ownerUrlSet: boolean): string {
  return (
    `the console runs with owner rights: DATABASE_URL connects as ${role}, which owns schema console, so the running console ` +
    "could alter its tables, disable the audit log's triggers and rewrite it. " +
    (ownerUrlSet
      ? `Point DATABASE_URL at a login role that is a member of ${RUNTIME_GROUP} and not of the owner (docs/operating.md "Database roles").`
      : `Set DATABASE_OWNER_URL to the owner role and DATABASE_URL to a login role that is a member of ${RUNTIME_GROUP} (docs/operating.md "Database roles").`)
  );
}

/**
 * Checks the running console's PostgreSQL role: a member of console_app, or (warned) the owner.
 * Returns the warning to print, if any; a role that is neither is refused with what to run.
 */
export async function checkRuntimeRole(db: SqlDriver, ownerUrlSet: boolean): Promise<string | null> {
  const role = await databaseRole(db);
  if (role.owner) return ownerRightsWarning(role.name, ownerUrlSet);
  if (!role.runtime) {
    throw new StartupError(
      `DATABASE_URL connects as ${role.name}, which is not a member of ${RUNTIME_GROUP} (and does not own schema console), so the console ` +
        `may not read or write its tables. As the database's owner or a superuser run: GRANT ${RUNTIME_GROUP} TO ${role.name};`,
    );
  }
  return null;
}

/**
 * The embedded database has one user, a superuser: after migrating, the console process acts as
 * console_app on its single connection (SET ROLE), so it runs with the rights a PostgreSQL
 * deployment gives it. This is not a boundary against SQL run inside the process (RESET ROLE gets
 * the superuser back); it keeps the embedded console honest about which rights it uses.
 */
export async function actAsRuntimeRole(db: DirectDriver): Promise<void> {
  if (db.kind !== "pglite") throw new Error("actAsRuntimeRole is for the embedded database; on PostgreSQL DATABASE_URL names the role");
  await db.run(`SET ROLE ${RUNTIME_GROUP}`);
}
