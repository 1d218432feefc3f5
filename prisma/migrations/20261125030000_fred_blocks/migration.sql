-- Blocks whoever made them. The console records its own blocks in console.blocks; FRED's
-- administrative blocking (fred-server blockDomainsId, libfred CreateAdminObjectBlockRequestId)
-- records none: it cancels the object's server* requests in force, then inserts, in one statement,
-- requests for the chosen server* states and serverBlocked with the same start, end and creation
-- instant, and keeps its reason in object_state_request_reason.reason_creation of the serverBlocked
-- request. A serverBlocked request no console.blocks row names is such a block, and its states are
-- the server* requests inserted with it. The console reads every block through console.object_blocks.

-- 'fred': a block made by FRED (taken over by the console when it was changed or lifted there), or
-- the console's change of one. Lifting it restores what was in force before its serverBlocked
-- sequence began, as FRED's restore does (console.block_restore_states): FRED keeps no record of
-- the requests it canceled. 'console': the block restores what it displaced (console.block_displaced).
ALTER TABLE console.blocks ADD COLUMN made_by text NOT NULL DEFAULT 'console' CHECK (made_by IN ('console', 'fred'));

-- Every block: its serverBlocked request (request_id), the console's block (block_id; NULL for one
-- FRED made and the console has not touched), its period and reason, and the requests of its other
-- states (request_ids, prohibitions: state names, by state id). period is the effective one,
-- [valid_from, LEAST(canceled, valid_to)) (console.request_period): empty when lifted before it began.
CREATE VIEW console.object_blocks AS
SELECT r.id AS request_id,
       b.id AS block_id,
       r.object_id,
       coalesce(b.made_by, 'fred') AS made_by,
       b.created_by,
       r.crdate,
       r.valid_from,
       r.valid_to,
       r.canceled,
       console.request_period(r.valid_from, r.valid_to, r.canceled) AS period,
       b.unblocked_at,
       b.unblocked_by,
       rr.reason_creation AS reason,
       rr.reason_cancellation,
       coalesce(m.request_ids, '{}') AS request_ids,
       coalesce(m.prohibitions, '{}') AS prohibitions
  FROM object_state_request r
  JOIN enum_object_states s ON s.id = r.state_id AND s.name = 'serverBlocked'
  LEFT JOIN console.blocks b ON b.blocked_request_id = r.id
  LEFT JOIN object_state_request_reason rr ON rr.object_state_request_id = r.id
 CROSS JOIN LATERAL (
    SELECT array_agg(x.id ORDER BY x.state_id, x.id) AS request_ids, array_agg(xs.name ORDER BY x.state_id, x.id) AS prohibitions
      FROM object_state_request x JOIN enum_object_states xs ON xs.id = x.state_id
     WHERE x.object_id = r.object_id AND x.id <> r.id
       AND CASE WHEN b.id IS NOT NULL
                THEN EXISTS (SELECT FROM console.request_meta xm WHERE xm.request_id = x.id AND xm.block_id = b.id)
                ELSE xs.manual AND xs.name LIKE 'server%' AND xs.name <> 'serverBlocked'
                     AND x.valid_from = r.valid_from AND x.valid_to IS NOT DISTINCT FROM r.valid_to AND x.crdate = r.crdate
                     AND NOT EXISTS (SELECT FROM console.request_meta xm WHERE xm.request_id = x.id AND xm.block_id IS NOT NULL)
           END
 ) m;

-- What FRED's restore (libfred CreateAdminObjectStateRestoreRequestId) requests again when the
-- object's block is lifted at p_at (UTC): the object's serverBlocked history row in force at p_at
-- (the latest whose end is not before p_at), followed back through rows that each begin where the
-- one before ended to the start of that sequence, and the manual server* states in force just
-- before that start (begun before it, not ended before it). Nothing when no serverBlocked row is in
-- force. FRED requests each of them again from the lifting on, with no end.
CREATE FUNCTION console.block_restore_states(p_object_id integer, p_at timestamp)
RETURNS TABLE (state_id integer)
LANGUAGE sql STABLE AS $$
    WITH blocked AS (
        SELECT os.valid_from, os.valid_to,
               coalesce(lag(os.valid_to) OVER (ORDER BY os.valid_from) = os.valid_from, false) AS follow_up
          FROM object_state os JOIN enum_object_states s ON s.id = os.state_id AND s.name = 'serverBlocked'
         WHERE os.object_id = p_object_id
    ),
    current_row AS (SELECT max(valid_from) AS valid_from FROM blocked WHERE valid_to IS NULL OR p_at <= valid_to),
    sequence_start AS (
        SELECT max(b.valid_from) AS valid_from FROM blocked b, current_row c WHERE b.valid_from <= c.valid_from AND NOT b.follow_up
    )
    SELECT DISTINCT os.state_id
      FROM sequence_start q
      JOIN object_state os ON os.object_id = p_object_id AND os.valid_from < q.valid_from
                          AND (os.valid_to IS NULL OR q.valid_from <= os.valid_to)
      JOIN enum_object_states s ON s.id = os.state_id
     WHERE s.manual AND s.name LIKE 'server%'
     ORDER BY os.state_id
$$;
