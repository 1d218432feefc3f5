CREATE OR REPLACE FUNCTION console.audit_log_accept_signed()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
DECLARE
    next_id bigint;
BEGIN
    IF NEW.mac IS NULL OR NEW.key_id IS NULL THEN
        RAISE EXCEPTION 'console.audit_log rows are signed by the console: this row has no key_id and mac (append rows with audit() in lib/audit/log.ts)'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT last_id + 1 INTO next_id FROM console.audit_head FOR UPDATE;
    IF NEW.id IS DISTINCT FROM next_id THEN
        RAISE EXCEPTION 'audit row id % is not the next in the chain (%): its MAC must be computed while holding console.audit_head FOR UPDATE', NEW.id, next_id;
    END IF;
    RETURN NEW;
END
$function$;
