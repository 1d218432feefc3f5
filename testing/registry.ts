import type { SqlExecutor } from "../lib/db/driver";
import { runStateEngine } from "../lib/states/engine";
import type { TestBackend, TestDatabase } from "./databases";

/** Building blocks for state engine tests: objects with FRED's tables, written as a registry would. */
export const TYPE = { contact: 1, nsset: 2, domain: 3, keyset: 4 } as const;

/** A registrar row with FRED's required columns filled. */
export async function createRegistrar(db: SqlExecutor, id: number, handle: string, name: string): Promise<void> {
  await db.query(
    `INSERT INTO registrar (id, handle, name, organization, dic, street1, city, postalcode, telephone, email, url)
     VALUES ($1::int, $2::text, $3::text, $3::text, 'CZ' || (10000000 + $1::int), 'Main street 1', 'Praha', '110 00', '+420.123456789',
             lower($2::text) || '@example.cz', 'https://' || lower($2::text) || '.example.cz')
     ON CONFLICT DO NOTHING`,
    [id, handle, name],
  );
}

export async function baseRegistry(db: SqlExecutor): Promise<void> {
  await createRegistrar(db, 1, "REG-TEST", "Test registrar");
  await db.query(
    `INSERT INTO zone (id, fqdn, ex_period_min, ex_period_max, val_period, enum_zone) VALUES
       (1, 'cz', 12, 120, 0, false), (2, '0.2.4.e164.arpa', 12, 120, 6, true) ON CONFLICT DO NOTHING`,
  );
}

export async function createObject(db: SqlExecutor, type: number, name: string, crdate: string): Promise<number> {
  const [{ id }] = await db.query<{ id: number }>(
    "INSERT INTO object_registry (roid, type, name, crid, crdate) VALUES ('ROID-' || $2, $1, $2, 1, $3) RETURNING id",
    [type, name, crdate],
  );
  await db.query("INSERT INTO object (id, clid) VALUES ($1, 1)", [id]);
  if (type === TYPE.contact) await db.query("INSERT INTO contact (id, name) VALUES ($1, $2)", [id, name]);
  if (type === TYPE.nsset) await db.query("INSERT INTO nsset (id) VALUES ($1)", [id]);
  if (type === TYPE.keyset) await db.query("INSERT INTO keyset (id) VALUES ($1)", [id]);
  return id;
}

export interface DomainSpec {
  name: string;
  crdate: string;
  exdate: string;
  registrant: number;
  nsset: number | null;
  keyset?: number | null;
  validationExdate?: string;
}

export async function createDomain(db: SqlExecutor, spec: DomainSpec): Promise<number> {
  const id = await createObject(db, TYPE.domain, spec.name, spec.crdate);
  await db.query("INSERT INTO domain (id, zone, registrant, nsset, keyset, exdate) VALUES ($1, $2, $3, $4, $5, $6)", [
    id,
    spec.validationExdate ? 2 : 1,
    spec.registrant,
    spec.nsset,
    spec.keyset ?? null,
    spec.exdate,
  ]);
  if (spec.validationExdate) await db.query("INSERT INTO enumval (domainid, exdate) VALUES ($1, $2)", [id, spec.validationExdate]);
  return id;
}

export async function createRequest(
  db: SqlExecutor,
  objectId: number,
  state: string,
  from: string,
  to: string | null = null,
  canceled: string | null = null,
): Promise<number> {
  const [{ id }] = await db.query<{ id: number }>(
    `INSERT INTO object_state_request (object_id, state_id, valid_from, valid_to, crdate, canceled)
     SELECT $1, id, $3::timestamptz AT TIME ZONE 'UTC', $4::timestamptz AT TIME ZONE 'UTC',
            least($3::timestamptz, coalesce($5::timestamptz, $3::timestamptz)) AT TIME ZONE 'UTC' - interval '1 day',
            $5::timestamptz AT TIME ZONE 'UTC'
       FROM enum_object_states WHERE name = $2 RETURNING id`,
    [objectId, state, from, to, canceled],
  );
  return id;
}

/** Whether the recorded history says the object had the state at the instant. */
export async function held(db: SqlExecutor, objectId: number, state: string, at: Date | string): Promise<boolean> {
  const [{ held }] = await db.query<{ held: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM object_state os JOIN enum_object_states s ON s.id = os.state_id
                     WHERE os.object_id = $1 AND s.name = $2 AND os.valid_from <= $3 AND (os.valid_to IS NULL OR os.valid_to > $3)) AS held`,
    [objectId, state, at],
  );
  return held;
}

export interface HistoryRow {
  object_id: number;
  state_id: number;
  valid_from: string;
  valid_to: string | null;
}

/** The whole recorded history, in a form two databases can be compared by. */
export async function wholeHistory(db: SqlExecutor): Promise<HistoryRow[]> {
  return db.query<HistoryRow>(
    `SELECT object_id, state_id,
            to_char(valid_from, 'YYYY-MM-DD"T"HH24:MI:SS.US') AS valid_from,
            to_char(valid_to, 'YYYY-MM-DD"T"HH24:MI:SS.US') AS valid_to
       FROM object_state ORDER BY object_id, state_id, valid_from`,
  );
}

/** Rows of one object and state that overlap in time, or more than one open row; [] when sound. */
export async function historyProblems(db: SqlExecutor): Promise<unknown[]> {
  return db.query(
    `SELECT a.object_id, a.state_id, a.id AS a, b.id AS b
       FROM object_state a JOIN object_state b
         ON a.object_id = b.object_id AND a.state_id = b.state_id AND a.id < b.id
        AND tsrange(a.valid_from, a.valid_to, '[)') && tsrange(b.valid_from, b.valid_to, '[)')
     UNION ALL
     SELECT object_id, state_id, NULL, NULL FROM object_state WHERE valid_to IS NOT NULL AND valid_to < valid_from`,
  );
}

/**
 * Counts the calls of a PL/pgSQL function (triggers included) from now on in this transaction:
 * switches track_functions on for it and returns what reads the count since. The server's count is
 * the backend's, not the transaction's (pending statistics carry over), hence the difference.
 */
export async function functionCalls(tx: SqlExecutor, fn: string): Promise<() => Promise<number>> {
  await tx.query("SET LOCAL track_functions = 'pl'");
  const read = async () => {
    const [row] = await tx.query<{ n: number }>("SELECT coalesce(pg_stat_get_xact_function_calls($1::regproc), 0)::int AS n", [fn]);
    return Number(row.n);
  };
  const before = await read();
  return async () => (await read()) - before;
}

/** Runs `work` in one transaction with the engine's marking clock set to `at`. */
export async function changeAt<T>(
  db: { transaction<R>(work: (tx: SqlExecutor) => Promise<R>): Promise<R> },
  at: string,
  work: (tx: SqlExecutor) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT set_config('registry.state_clock', $1, true)", [at]);
    return work(tx);
  });
}

/**
 * A migrated test database holding the registry `build` writes, with history built as of `at` by a
 * full engine run. Marks are off while building: the state triggers would otherwise mark every
 * object at the real clock.
 */
export async function registryAt(
  backend: Pick<TestBackend, "createMigrated">,
  at: Date,
  build: (tx: SqlExecutor) => Promise<void>,
): Promise<TestDatabase> {
  const created = await backend.createMigrated();
  await created.db.sql.transaction(async (tx) => {
    await tx.query("SELECT set_config('registry.state_marks', 'off', true)");
    await baseRegistry(tx);
    await build(tx);
    await runStateEngine(tx, { at, full: true });
  });
  return created;
}
