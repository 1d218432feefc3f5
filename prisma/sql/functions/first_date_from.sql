CREATE OR REPLACE FUNCTION console.first_date_from(p_at timestamp without time zone)
 RETURNS date
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
    SELECT CASE WHEN p_at = p_at::date THEN p_at::date ELSE p_at::date + 1 END
$function$;
