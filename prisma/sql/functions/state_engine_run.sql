CREATE OR REPLACE FUNCTION console.state_engine_run(p_at timestamp with time zone DEFAULT now(), p_full boolean DEFAULT false, p_object_id integer DEFAULT NULL::integer)
 RETURNS TABLE(kind text, objects integer, opened integer, closed integer, cursor_before timestamp with time zone, cursor_after timestamp with time zone)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET "TimeZone" TO 'UTC'
AS $function$
DECLARE
    v_cursor timestamptz;
    v_w timestamptz;
    v_started timestamptz := clock_timestamp();
    v_objects integer;
    v_opened integer;
    v_closed integer;
    v_ids integer[];
    v_pending tid[];
BEGIN
    IF p_at IS NULL OR NOT isfinite(p_at) THEN
        RAISE EXCEPTION 'state engine: the instant to run at must be a finite time, not %', p_at
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- Beside and in shadow FRED's update_object_states writes object_state: the console's engine
    -- (states:update, a bench, a caller of state_engine_run_now) would write a second history into it.
    IF EXISTS (SELECT FROM console.registry_origin o WHERE o.mode <> 'charge') THEN
        RAISE EXCEPTION 'state engine: the registry is in % mode, where FRED''s own update_object_states writes object_state; the console''s engine runs only in charge (npm run db:adopt -- --mode charge)',
            (SELECT o.mode FROM console.registry_origin o)
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;

    IF p_object_id IS NOT NULL THEN
        SELECT e.cursor INTO v_cursor FROM console.state_engine e;
        IF NOT pg_try_advisory_xact_lock_shared(7353002, 0) THEN
            RETURN QUERY SELECT 'busy'::text, 0, 0, 0, v_cursor, v_cursor;
            RETURN;
        END IF;
        PERFORM console.state_object_row_lock(p_object_id);
        v_w := console.state_exact_to(p_object_id);
        IF p_at < v_w THEN
            RETURN QUERY SELECT 'object'::text, 0, 0, 0, v_cursor, v_cursor;
            RETURN;
        END IF;
        SELECT a.opened, a.closed INTO v_opened, v_closed FROM console.state_object_apply(p_object_id, v_w, p_at, false) a;
        RETURN QUERY SELECT 'object'::text, 1, v_opened, v_closed, v_cursor, v_cursor;
        RETURN;
    END IF;

    IF NOT pg_try_advisory_xact_lock(7353002, 1) THEN
        RETURN QUERY SELECT 'busy'::text, 0, 0, 0, NULL::timestamptz, NULL::timestamptz;
        RETURN;
    END IF;
    -- Waits only for per-object work already under way (short); from here on, new per-object work
    -- does not wait for this run but leaves its change pending for the next one.
    PERFORM pg_advisory_xact_lock(7353002, 0);
    SELECT e.cursor, e.full_run_due OR p_full INTO v_cursor, p_full FROM console.state_engine e FOR UPDATE;
    IF v_cursor IS NOT NULL AND p_at < v_cursor THEN
        RETURN QUERY SELECT 'behind'::text, 0, 0, 0, v_cursor, v_cursor;
        RETURN;
    END IF;

    PERFORM console.state_work_tables();
    SELECT array_agg(sp.ctid) INTO v_pending FROM console.state_pending sp;
    IF p_full OR v_cursor IS NULL THEN
        INSERT INTO pg_temp.state_work (object_id, w)
        SELECT o.id, coalesce(greatest(v_cursor, ne.exact_to, sp.at), v_cursor, '-infinity')
          FROM object_registry o LEFT JOIN console.state_next_event ne ON ne.object_id = o.id
          LEFT JOIN (SELECT p.object_id, min(p.at) AS at FROM console.state_pending p WHERE p.ctid = ANY (v_pending)
                      GROUP BY p.object_id) sp ON sp.object_id = o.id
         WHERE greatest(ne.exact_to, sp.at) IS NULL OR greatest(ne.exact_to, sp.at) <= p_at;
        v_ids := NULL;
    ELSE
        -- A pending change counts from its instant: until then the object's data was as the run
        -- that held the engine saw it.
        INSERT INTO pg_temp.state_work (object_id, w)
        SELECT x.object_id, greatest(v_cursor, max(ne.exact_to), min(x.at))
          FROM (SELECT ne.object_id, NULL::timestamptz AS at FROM console.state_next_event ne WHERE ne.next_at <= p_at
                UNION ALL
                SELECT sp.object_id, sp.at FROM console.state_pending sp WHERE sp.ctid = ANY (v_pending)) x
          LEFT JOIN console.state_next_event ne ON ne.object_id = x.object_id
         GROUP BY x.object_id
        HAVING coalesce(greatest(v_cursor, max(ne.exact_to), min(x.at)), '-infinity') <= p_at;
        SELECT coalesce(array_agg(sw.object_id), '{}') INTO v_ids FROM pg_temp.state_work sw;
    END IF;
    SELECT count(*) INTO v_objects FROM pg_temp.state_work;

    SELECT a.opened, a.closed INTO v_opened, v_closed FROM console.state_apply(p_at, v_ids) a;

    -- A change left pending while a run held the engine did not mark the object's plan (its trigger
    -- stopped at state_engine_open): once no longer pending, the plan's next pass writes it again.
    WITH done AS (
        DELETE FROM console.state_pending sp
         WHERE sp.ctid = ANY (v_pending) AND sp.object_id IN (SELECT sw.object_id FROM pg_temp.state_work sw)
        RETURNING sp.object_id
    )
    INSERT INTO console.state_plan_stale (object_id) SELECT DISTINCT done.object_id FROM done;
    -- A full run follows a change the marks did not see (a load with registry.state_marks off, a
    -- migration): the plan is written again as a whole.
    IF v_ids IS NULL THEN
        UPDATE console.state_plan_status SET built_at = NULL;
    END IF;
    UPDATE console.state_engine e
       SET cursor = p_at,
           full_run_due = false,
           last_run_kind = CASE WHEN v_ids IS NULL THEN 'full' ELSE 'incremental' END,
           last_run_at = now(),
           last_run_finished_at = clock_timestamp(),
           last_run_objects = v_objects,
           last_run_opened = v_opened,
           last_run_closed = v_closed,
           last_run_ms = round(extract(epoch FROM clock_timestamp() - v_started)::numeric * 1000, 1);
    TRUNCATE pg_temp.state_work, pg_temp.state_desired;
    RETURN QUERY SELECT CASE WHEN v_ids IS NULL THEN 'full' ELSE 'incremental' END, v_objects, v_opened, v_closed, v_cursor, p_at;
END
$function$;
