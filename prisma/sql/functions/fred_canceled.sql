CREATE OR REPLACE FUNCTION console.fred_canceled(p_from timestamp without time zone, p_at timestamp without time zone)
 RETURNS timestamp without time zone
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
    SELECT greatest(p_from, p_at)
$function$;
