CREATE OR REPLACE FUNCTION console.audit_head_guard()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
    IF pg_trigger_depth() < 2 THEN
        RAISE EXCEPTION 'console.audit_head moves only when an audit row is appended'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END
$function$;
