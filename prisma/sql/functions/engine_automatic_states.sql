CREATE OR REPLACE FUNCTION console.engine_automatic_states()
 RETURNS integer[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
    SELECT '{8,9,10,11,12,13,14,15,16,17,19,20,28}'::integer[]
$function$;
