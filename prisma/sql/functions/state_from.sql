CREATE OR REPLACE FUNCTION console.state_from(p_start timestamp with time zone)
 RETURNS tstzmultirange
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
    SELECT CASE WHEN p_start IS NULL THEN '{}'::tstzmultirange ELSE tstzmultirange(tstzrange(p_start, NULL)) END
$function$;
