CREATE OR REPLACE FUNCTION console.last_linked(p_id integer, p_w timestamp with time zone)
 RETURNS TABLE(at timestamp with time zone)
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
    SELECT CASE WHEN EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = p_id AND os.state_id = 16 AND os.valid_to IS NULL)
                THEN p_w
                ELSE (SELECT max(os.valid_to) AT TIME ZONE 'UTC' FROM object_state os WHERE os.object_id = p_id AND os.state_id = 16)
           END
$function$;
