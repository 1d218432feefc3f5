CREATE OR REPLACE FUNCTION console.request_canceled(p_canceled timestamp without time zone, p_canceled_at timestamp with time zone)
 RETURNS timestamp without time zone
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
    SELECT CASE WHEN p_canceled IS NOT NULL THEN coalesce(p_canceled_at AT TIME ZONE 'UTC', p_canceled) END
$function$;
