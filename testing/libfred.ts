import type { SqlExecutor } from "../lib/db/driver";

/** One object and state whose request rows are checked; `acceptsNew: false` checks stored rows only. */
export interface LibfredPair {
  objectId: number;
  stateId: number;
  /** Also require that a new request from `at` with no end would be accepted (default true). */
  acceptsNew?: boolean;
}

/** A stored request row libfred's CreateObjectStateRequestId refuses to go past. */
export interface LibfredViolation {
  /** The exception libfred throws: the row ends before it begins, or it overlaps the new request. */
  rule: "out_of_turn" | "overlayed_time_intervals";
  requestId: number;
  objectId: number;
  stateId: number;
  validFrom: Date;
  validTo: Date | null;
  canceled: Date | null;
}

/**
 * libfred's request-creation rules (FRED.md §4.1 steps 1 and 6, CreateObjectStateRequestId), run as
 * the SQL libfred runs, for each (object, state) pair: every stored request row of the pair is read
 * as [valid_from, LEAST(canceled, valid_to)); a row that ends before it begins is `out_of_turn` (from
 * then on FRED creates no request for that object and state: blocking, fred-admin, registry lock);
 * unless the pair says `acceptsNew: false`, a row that overlaps a new request [at, ∞) by libfred's
 * own overlap test is `overlayed_time_intervals`. `at` defaults to the database's now (UTC, as FRED's
 * timestamps). Returns the violating rows; [] means FRED accepts a new request for every pair.
 * A test oracle, written after libfred and kept apart from the console's own SQL on purpose.
 */
export async function libfredViolations(db: SqlExecutor, pairs: LibfredPair[], at?: Date): Promise<LibfredViolation[]> {
  if (pairs.length === 0) return [];
  const rows = await db.query<{
    rule: LibfredViolation["rule"];
    id: number;
    object_id: number;
    state_id: number;
    valid_from: Date;
    valid_to: Date | null;
    canceled: Date | null;
  }>(
    `WITH pair AS (SELECT * FROM unnest($1::int[], $2::int[], $3::boolean[]) AS p(object_id, state_id, accepts_new)),
          obj_state AS (
            SELECT r.id, r.object_id, r.state_id, r.valid_from, r.valid_to, r.canceled, p.accepts_new,
                   r.valid_from AS obj_valid_from, LEAST(r.canceled, r.valid_to) AS obj_valid_to,
                   coalesce($4::timestamp, now() AT TIME ZONE 'UTC') AS new_valid_from, NULL::timestamp AS new_valid_to
              FROM object_state_request r JOIN pair p ON p.object_id = r.object_id AND p.state_id = r.state_id)
     SELECT CASE WHEN obj_valid_to < obj_valid_from THEN 'out_of_turn' ELSE 'overlayed_time_intervals' END AS rule,
            id, object_id, state_id, valid_from, valid_to, canceled
       FROM obj_state
      WHERE obj_valid_to < obj_valid_from
         OR (accepts_new
             AND ((obj_valid_from <= new_valid_from AND (new_valid_from < obj_valid_to OR obj_valid_to IS NULL))
                  OR ((obj_valid_from < new_valid_to OR new_valid_to IS NULL) AND (new_valid_to <= obj_valid_to OR obj_valid_to IS NULL))))
      ORDER BY object_id, state_id, id`,
    [pairs.map((p) => p.objectId), pairs.map((p) => p.stateId), pairs.map((p) => p.acceptsNew ?? true), at ?? null],
  );
  return rows.map((r) => ({
    rule: r.rule,
    requestId: r.id,
    objectId: r.object_id,
    stateId: r.state_id,
    validFrom: r.valid_from,
    validTo: r.valid_to,
    canceled: r.canceled,
  }));
}

/** The (object, state) pairs of the given request rows, for libfredViolations. */
export async function requestPairs(db: SqlExecutor, requestIds: number[], acceptsNew = true): Promise<LibfredPair[]> {
  const rows = await db.query<{ object_id: number; state_id: number }>(
    "SELECT DISTINCT object_id, state_id FROM object_state_request WHERE id = ANY ($1::int[]) ORDER BY object_id, state_id",
    [requestIds],
  );
  return rows.map((r) => ({ objectId: r.object_id, stateId: r.state_id, acceptsNew }));
}
