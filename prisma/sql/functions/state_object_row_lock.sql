CREATE OR REPLACE FUNCTION console.state_object_row_lock(p_id integer)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
    PERFORM 1 FROM object_state os WHERE os.object_id = p_id AND os.state_id = 16 AND os.valid_to IS NULL FOR UPDATE;
    PERFORM 1 FROM console.state_next_event ne WHERE ne.object_id = p_id FOR UPDATE;
    IF NOT FOUND THEN
        INSERT INTO console.state_next_event (object_id) VALUES (p_id) ON CONFLICT (object_id) DO NOTHING;
        PERFORM 1 FROM console.state_next_event ne WHERE ne.object_id = p_id FOR UPDATE;
    END IF;
END
$function$;
