CREATE OR REPLACE FUNCTION console.state_clock()
 RETURNS timestamp with time zone
 LANGUAGE sql
 STABLE
AS $function$
    SELECT CASE WHEN nullif(current_setting('registry.state_clock', true), '') IS NULL THEN now()
                ELSE console.state_clock_chosen(current_setting('registry.state_clock', true)) END
$function$;
