CREATE OR REPLACE FUNCTION console.linkable_state_periods(p_crdate timestamp with time zone, p_erdate timestamp with time zone, p_linked boolean, p_last_linked timestamp with time zone, p_updated timestamp with time zone, p_delete_prohibited tstzmultirange, p_zone text, p_day_hour integer, p_protection_months integer)
 RETURNS TABLE(state_id integer, valid_from timestamp with time zone, valid_to timestamp with time zone)
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
SELECT 16, p_crdate, p_erdate WHERE p_linked AND (p_erdate IS NULL OR p_erdate > p_crdate)
UNION ALL
SELECT 17, lower(per), upper(per)
  FROM unnest((console.state_from(console.registry_instant(
                   (greatest((p_crdate AT TIME ZONE p_zone)::date, (p_last_linked AT TIME ZONE p_zone)::date,
                             (p_updated AT TIME ZONE p_zone)::date)
                    + make_interval(months => p_protection_months))::date,
                   p_day_hour, p_zone))
               - coalesce(p_delete_prohibited, '{}')) * console.state_life(p_crdate, p_erdate)) AS per
 WHERE NOT p_linked
$function$;
