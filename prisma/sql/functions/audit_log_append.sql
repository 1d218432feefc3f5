CREATE OR REPLACE FUNCTION console.audit_log_append()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
DECLARE
    head console.audit_head%ROWTYPE;
BEGIN
    SELECT * INTO head FROM console.audit_head FOR UPDATE;
    NEW.id := head.last_id + 1;
    NEW.prev_hash := head.last_hash;
    NEW.hash := console.audit_row_hash(head.last_hash, NEW);
    UPDATE console.audit_head SET last_id = NEW.id, last_hash = NEW.hash;
    RETURN NEW;
END
$function$;
