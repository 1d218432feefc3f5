CREATE OR REPLACE FUNCTION console.state_moved_later(p_id integer, p_states integer[], p_old_exdate date DEFAULT NULL::date)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
    v_at timestamptz := console.state_clock();
BEGIN
    IF NOT console.state_engine_open(p_id, v_at) THEN
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM console.state_next_event ne WHERE ne.object_id = p_id AND ne.next_at > v_at)
       AND NOT EXISTS (SELECT 1 FROM object_state os
                        WHERE os.object_id = p_id AND os.valid_to IS NULL AND os.state_id = ANY (p_states))
       AND NOT EXISTS (SELECT 1 FROM console.state_pending sp WHERE sp.object_id = p_id) THEN
        RETURN;
    END IF;
    PERFORM console.state_changed(p_id, 0::smallint, p_old_exdate);
END
$function$;
