CREATE OR REPLACE FUNCTION console.request_period(p_from timestamp without time zone, p_to timestamp without time zone, p_canceled timestamp without time zone)
 RETURNS tsrange
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
    SELECT CASE WHEN p_canceled IS NULL AND p_to IS NULL THEN tsrange(p_from, NULL, '[)')
                ELSE tsrange(p_from, greatest(p_from, least(coalesce(p_canceled, 'infinity'), coalesce(p_to, 'infinity'))), '[)')
           END
$function$;
