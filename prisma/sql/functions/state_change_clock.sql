CREATE OR REPLACE FUNCTION console.state_change_clock()
 RETURNS timestamp with time zone
 LANGUAGE plpgsql
AS $function$
DECLARE
    v_now timestamptz;
BEGIN
    PERFORM pg_advisory_xact_lock_shared(7353002, 0);
    v_now := date_trunc('milliseconds', clock_timestamp() + interval '999 microseconds');
    PERFORM set_config('registry.state_clock', v_now::text, true);
    RETURN v_now;
END
$function$;
