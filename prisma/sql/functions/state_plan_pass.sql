CREATE OR REPLACE FUNCTION console.state_plan_pass(OUT kind text, OUT objects integer, OUT periods integer)
 RETURNS record
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET "TimeZone" TO 'UTC'
 SET jit TO 'off'
 SET work_mem TO '256MB'
AS $function$
DECLARE
    -- The database's clock, not console.state_clock(): a pass has no instant of its own to choose (the
    -- plan keeps every period that has not ended by then; the forecast reads it from its own clock).
    v_at timestamptz := now();
    v_started timestamptz := clock_timestamp();
    v_ids integer[];
BEGIN
    objects := 0;
    periods := 0;
    -- Beside and in shadow FRED's engine writes the states and nothing marks a change.
    IF EXISTS (SELECT FROM console.registry_origin o WHERE o.mode <> 'charge') THEN
        kind := 'not in charge';
        RETURN;
    END IF;
    IF NOT pg_try_advisory_xact_lock(7353002, 2) THEN
        kind := 'busy';
        RETURN;
    END IF;
    IF NOT console.state_plan_trusted() THEN
        kind := 'full';
        -- DELETE, not TRUNCATE: TRUNCATE's lock would make every list wait for the whole build.
        DELETE FROM console.state_plan_stale;
        DELETE FROM console.state_plan;
        -- In the order of the forecast's index: a list's range of one state's starts then reads few pages.
        INSERT INTO console.state_plan (object_id, state_id, valid_from, valid_to)
        SELECT r.object_id, r.state_id, r.valid_from, r.valid_to
          FROM console.object_state_periods(NULL) r
         WHERE r.valid_to IS NULL OR r.valid_to > v_at
         ORDER BY r.state_id, r.valid_from;
        GET DIAGNOSTICS periods = ROW_COUNT;
        SELECT count(DISTINCT p.object_id) INTO objects FROM console.state_plan p;
        UPDATE console.state_plan_status SET built_at = now();
        ANALYZE console.state_plan;
    ELSE
        kind := 'marked';
        WITH m AS (DELETE FROM console.state_plan_stale RETURNING object_id)
        SELECT coalesce(array_agg(DISTINCT m.object_id), '{}') INTO v_ids FROM m;
        objects := cardinality(v_ids);
        IF objects > 0 THEN
            DELETE FROM console.state_plan p WHERE p.object_id = ANY (v_ids);
            INSERT INTO console.state_plan (object_id, state_id, valid_from, valid_to)
            SELECT i.id, x.state_id, x.lo, x.hi
              FROM unnest(v_ids) i (id)
             CROSS JOIN LATERAL unnest(console.object_state_periods_of(i.id, v_at)) x
             WHERE x.hi IS NULL OR x.hi > v_at;
            GET DIAGNOSTICS periods = ROW_COUNT;
        END IF;
        -- Periods that ended more than a day ago are no one's forecast.
        DELETE FROM console.state_plan p USING enum_object_states s
         WHERE p.state_id = s.id AND p.valid_to < v_at - interval '1 day';
    END IF;
    UPDATE console.state_plan_status
       SET last_pass_at = now(), last_pass_kind = kind, last_pass_objects = objects, last_pass_periods = periods,
           last_pass_ms = round(extract(epoch FROM clock_timestamp() - v_started)::numeric * 1000, 1);
END
$function$;
