CREATE OR REPLACE FUNCTION console.registry_instant(p_day date, p_hour integer, p_zone text)
 RETURNS timestamp with time zone
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
    SELECT (p_day + make_interval(hours => p_hour)) AT TIME ZONE p_zone
$function$;
