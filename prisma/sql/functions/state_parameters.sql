CREATE OR REPLACE FUNCTION console.state_parameters()
 RETURNS TABLE(zone text, day_hour integer, outzone_hour integer, protection_months integer)
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
            SELECT * FROM (VALUES ('Europe/Prague'::text, '0'::integer, '14'::integer, '6'::integer)) AS p (zone, day_hour, outzone_hour, protection_months)
        $function$;
