CREATE OR REPLACE FUNCTION console.state_parameters_changed()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM console.state_parameters_compile();
    PERFORM console.state_triggers_compile();
    -- Every object's periods ahead follow from the parameters: the stored plan is written again.
    UPDATE console.state_plan_status SET built_at = NULL;
    RETURN NULL;
END
$function$;
