CREATE OR REPLACE FUNCTION console.state_object_lock(p_id integer, p_at timestamp with time zone)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
BEGIN
    IF NOT console.state_engine_open(p_id, p_at) THEN
        RETURN false;
    END IF;
    PERFORM console.state_object_row_lock(p_id);
    RETURN true;
END
$function$;
