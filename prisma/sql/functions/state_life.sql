CREATE OR REPLACE FUNCTION console.state_life(p_crdate timestamp with time zone, p_erdate timestamp with time zone)
 RETURNS tstzmultirange
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
    SELECT tstzmultirange(tstzrange(p_crdate, p_erdate, '[)'))
$function$;
