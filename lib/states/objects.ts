import type { SqlExecutor } from "../db/driver";
import { StartupError } from "../db/errors";

/**
 * The live objects with this name (domain FQDN or handle, any case) and, if given, type. Domain
 * names are lower case and handles upper case in the registry; one name may belong to objects of
 * several types.
 */
export function liveObjectsNamed(db: SqlExecutor, name: string, type?: string | null): Promise<{ id: number; type: string }[]> {
  return db.query<{ id: number; type: string }>(
    `SELECT o.id, t.name AS type FROM object_registry o JOIN enum_object_type t ON t.id = o.type
      WHERE o.erdate IS NULL AND o.name IN (lower($1), upper($1)) AND ($2::text IS NULL OR t.name = $2)
      ORDER BY o.id`,
    [name.trim(), type ?? null],
  );
}

/** The id of the live object with this name, for command-line tools; a name shared by several types needs `type`. */
export async function findObjectIdByName(db: SqlExecutor, name: string, type?: string): Promise<number> {
  const rows = await liveObjectsNamed(db, name, type);
  if (rows.length === 0) throw new StartupError(`no live ${type ?? "object"} is named “${name}”`);
  if (rows.length > 1) {
    throw new StartupError(`“${name}” names a ${rows.map((r) => r.type).join(" and a ")}; say which with --type`);
  }
  return rows[0].id;
}
