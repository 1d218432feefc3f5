CREATE OR REPLACE FUNCTION console.state_parameters_changed()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM console.state_parameters_compile();
    PERFORM console.state_triggers_compile();
    RETURN NULL;
END
$function$;
