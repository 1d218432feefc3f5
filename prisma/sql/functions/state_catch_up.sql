CREATE OR REPLACE FUNCTION console.state_catch_up(p_id integer)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
    v_at timestamptz;
    v_w timestamptz;
BEGIN
    IF p_id IS NULL OR current_setting('registry.state_marks', true) = 'off' THEN
        RETURN;
    END IF;
    v_at := console.state_clock();
    IF NOT EXISTS (SELECT 1 FROM console.state_next_event ne WHERE ne.object_id = p_id AND ne.next_at <= v_at)
       AND NOT EXISTS (SELECT 1 FROM console.state_pending sp WHERE sp.object_id = p_id) THEN
        RETURN;
    END IF;
    IF NOT console.state_engine_open(p_id, v_at) THEN
        RETURN;
    END IF;
    PERFORM console.state_object_row_lock(p_id);
    v_w := console.state_exact_to(p_id);
    IF v_w < v_at THEN
        PERFORM console.state_object_apply(p_id, v_w, v_at, true);
    END IF;
END
$function$;
