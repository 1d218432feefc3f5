-- Issue 40, charge: FRED's unblockDomainsId sets an expired domain's exdate to today and then calls
-- update_object_states(id) in the same transaction. The console's triggers on domain are deferred to
-- the commit, so the engine ran first, from the object's last exact instant (the block's) with the
-- new expiration date, as if it had held since then: the out-of-zone rows the block had opened were
-- closed at the block's own instant, rows that end where they begin (db:check's "history order", 19
-- of them after bench:fred at 1.5 million domains). The call now first applies what this transaction
-- changed before it, as the commit would (each change at its instant, the data before it up to
-- there), then runs the engine on from there. lib/states/fred-charge-block.test.ts shows it.
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
