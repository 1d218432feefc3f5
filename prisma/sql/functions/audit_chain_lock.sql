CREATE OR REPLACE FUNCTION console.audit_chain_lock(OUT last_id bigint, OUT last_hash text)
 RETURNS record
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
    SELECT h.last_id, h.last_hash::text FROM console.audit_head h FOR UPDATE
$function$;
