CREATE OR REPLACE FUNCTION public.update_object_states(integer)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET "TimeZone" TO 'UTC'
AS $function$
BEGIN
    -- Registry State Console: FRED's procedure replaced by the console's engine (exact instants).
    -- The console's deferred triggers of this transaction's changes so far, now (then deferred again).
    SET CONSTRAINTS public.console_state_apply, public.console_state_apply_update, public.console_state_apply_delete IMMEDIATE;
    SET CONSTRAINTS public.console_state_apply, public.console_state_apply_update, public.console_state_apply_delete DEFERRED;
    IF $1 = 0 THEN
        PERFORM console.state_engine_run(now(), false, NULL);
    ELSE
        PERFORM console.state_engine_run(now(), false, $1);
    END IF;
END
$function$;
