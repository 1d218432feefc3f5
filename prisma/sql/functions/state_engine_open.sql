CREATE OR REPLACE FUNCTION console.state_engine_open(p_id integer, p_at timestamp with time zone)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
BEGIN
    IF NOT pg_try_advisory_xact_lock_shared(7353002, 0) THEN
        INSERT INTO console.state_pending (object_id, at) VALUES (p_id, p_at);
        RETURN false;
    END IF;
    RETURN true;
END
$function$;
