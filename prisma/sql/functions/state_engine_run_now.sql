CREATE OR REPLACE FUNCTION console.state_engine_run_now(p_full boolean DEFAULT false, p_object_id integer DEFAULT NULL::integer)
 RETURNS TABLE(kind text, objects integer, opened integer, closed integer, cursor_before timestamp with time zone, cursor_after timestamp with time zone)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    v_at timestamptz := coalesce(nullif(current_setting('registry.state_clock', true), '')::timestamptz, now());
BEGIN
    IF v_at < now() OR v_at > clock_timestamp() + interval '1 millisecond' THEN
        RAISE EXCEPTION 'state engine: registry.state_clock is set to %, which is not the present (a console change''s instant); '
                        'only the owner role may run the engine at an instant of its choosing (console.state_engine_run)', v_at
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN QUERY SELECT * FROM console.state_engine_run(v_at, p_full, p_object_id);
END
$function$;
