CREATE OR REPLACE FUNCTION console.state_apply(p_at timestamp with time zone, p_ids integer[], OUT opened integer, OUT closed integer)
 RETURNS record
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_custom_plan'
 SET jit TO 'off'
 SET work_mem TO '256MB'
AS $function$
DECLARE
    v_rows integer;
BEGIN
    INSERT INTO pg_temp.state_desired (object_id, state_id, lo, hi, w)
    SELECT r.object_id, r.state_id, r.valid_from, r.valid_to, sw.w
      FROM console.object_state_periods(p_ids) r
      JOIN pg_temp.state_work sw ON sw.object_id = r.object_id
     WHERE r.valid_to IS NULL OR r.valid_to > sw.w;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    IF v_rows > 5000 THEN
        ANALYZE pg_temp.state_work;
        ANALYZE pg_temp.state_desired;
    END IF;

    WITH closing AS (
        SELECT os.id, greatest(os.valid_from AT TIME ZONE 'UTC', coalesce(c.hi, sw.w)) AS valid_to
          FROM object_state os
          JOIN pg_temp.state_work sw ON sw.object_id = os.object_id
          LEFT JOIN pg_temp.state_desired c
                 ON c.object_id = os.object_id AND c.state_id = os.state_id AND c.lo <= sw.w
         WHERE os.valid_to IS NULL
           AND (p_ids IS NULL OR os.object_id = ANY (p_ids))
           AND (os.state_id = ANY (console.engine_automatic_states())
                OR os.state_id IN (SELECT s.id FROM enum_object_states s WHERE s.manual))
           AND (c.object_id IS NULL OR c.hi <= p_at)
    )
    UPDATE object_state os SET valid_to = closing.valid_to AT TIME ZONE 'UTC' FROM closing WHERE os.id = closing.id;
    GET DIAGNOSTICS closed = ROW_COUNT;

    INSERT INTO object_state (object_id, state_id, valid_from, valid_to)
    SELECT d.object_id, d.state_id, greatest(d.lo, d.w) AT TIME ZONE 'UTC', CASE WHEN d.hi <= p_at THEN d.hi AT TIME ZONE 'UTC' END
      FROM pg_temp.state_desired d
      -- The state's open row, if any (at most one: FRED's object_state_now_idx is unique). A join,
      -- not a NOT EXISTS inside the OR: planned on an empty object_state (a first build) that
      -- subquery became a sequential scan per desired row of the rows this statement inserts.
      LEFT JOIN object_state op ON op.object_id = d.object_id AND op.state_id = d.state_id AND op.valid_to IS NULL
     WHERE d.lo <= p_at
       AND (d.lo > d.w OR NOT EXISTS (
               SELECT 1 FROM object_state os
                WHERE os.object_id = d.object_id AND os.state_id = d.state_id
                  AND os.valid_from <= d.w AT TIME ZONE 'UTC' AND (os.valid_to IS NULL OR os.valid_to > d.w AT TIME ZONE 'UTC')))
       AND (d.hi <= p_at OR op.id IS NULL);
    GET DIAGNOSTICS opened = ROW_COUNT;

    -- When each object's states change next, if nothing else changes (the cursor covers exactness).
    -- (DELETE, not TRUNCATE: TRUNCATE's lock would make every reader wait for the whole run.)
    IF p_ids IS NULL THEN
        DELETE FROM console.state_next_event;
    ELSE
        DELETE FROM console.state_next_event ne WHERE ne.object_id = ANY (p_ids);
    END IF;
    INSERT INTO console.state_next_event (object_id, next_at)
    SELECT x.object_id, min(x.at)
      FROM (SELECT d.object_id, d.lo AS at FROM pg_temp.state_desired d WHERE d.lo > p_at
            UNION ALL
            SELECT d.object_id, d.hi FROM pg_temp.state_desired d WHERE d.hi > p_at) x
     GROUP BY x.object_id;
    IF p_ids IS NULL THEN
        ANALYZE console.state_next_event;
    END IF;
END
$function$;
