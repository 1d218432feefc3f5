CREATE OR REPLACE FUNCTION console.lock_objects(p_ids integer[])
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM 1 FROM object_registry WHERE id = ANY (p_ids) ORDER BY id FOR NO KEY UPDATE;
END
$function$;
