CREATE OR REPLACE FUNCTION console.expiration_states()
 RETURNS integer[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
    SELECT '{8,9,10,15,17,19,20,28}'::integer[]
$function$;
