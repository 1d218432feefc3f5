CREATE OR REPLACE FUNCTION console.state_parameters_stored()
 RETURNS TABLE(zone text, day_hour integer, outzone_hour integer, protection_months integer)
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
    SELECT max(val) FILTER (WHERE id = 10),
           coalesce(max(val) FILTER (WHERE id = 9), '0')::integer,
           coalesce(max(val) FILTER (WHERE id = 14), max(val) FILTER (WHERE id = 9), '0')::integer,
           coalesce(max(val) FILTER (WHERE id = 11), '6')::integer
      FROM enum_parameters WHERE id IN (9, 10, 11, 14)
$function$;
