CREATE OR REPLACE FUNCTION console.state_clock_chosen(p_clock text)
 RETURNS timestamp with time zone
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
DECLARE
    v_at timestamptz := p_clock::timestamptz;
BEGIN
    IF (v_at >= now() AND v_at <= clock_timestamp() + interval '1 millisecond')
       OR pg_has_role(session_user, (SELECT n.nspowner FROM pg_namespace n WHERE n.nspname = 'console'), 'USAGE') THEN
        RETURN v_at;
    END IF;
    RAISE EXCEPTION 'registry.state_clock is set to %, which is not the present: only the owner role may date state changes '
                    'at an instant of its choosing', v_at
        USING ERRCODE = 'insufficient_privilege';
END
$function$;
