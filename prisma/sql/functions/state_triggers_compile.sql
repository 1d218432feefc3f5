CREATE OR REPLACE FUNCTION console.state_triggers_compile()
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    v_lead integer;
    v_months integer;
    v_clock constant text := $c$(coalesce(nullif(current_setting('registry.state_clock', true), '')::timestamptz, now()) AT TIME ZONE 'UTC')$c$;
BEGIN
    SELECT coalesce(max(ceil(extract(epoch FROM -least(l.notify, l.dns, l.registration, l.letter, l.outzone_warning,
                                                       interval '0')) / 86400)), 0)::integer + 2
      INTO v_lead FROM console.lifecycle_periods() l;
    SELECT coalesce(p.protection_months, 0) INTO v_months FROM console.state_parameters() p;
    DROP TRIGGER IF EXISTS console_state_apply_update ON domain;
    EXECUTE format($t$
        CREATE CONSTRAINT TRIGGER console_state_apply_update AFTER UPDATE ON domain
            DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW
            WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off'
                  AND (OLD.nsset IS DISTINCT FROM NEW.nsset OR OLD.registrant IS DISTINCT FROM NEW.registrant
                       OR OLD.keyset IS DISTINCT FROM NEW.keyset OR OLD.id IS DISTINCT FROM NEW.id
                       OR (OLD.exdate IS DISTINCT FROM NEW.exdate
                           AND NOT coalesce(NEW.exdate > OLD.exdate AND OLD.exdate > %s::date + %s, false))))
            EXECUTE FUNCTION console.state_domain_after()$t$, v_clock, v_lead);
    DROP TRIGGER IF EXISTS console_state_apply ON object;
    EXECUTE format($t$
        CREATE CONSTRAINT TRIGGER console_state_apply AFTER UPDATE OF update ON object
            DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW
            WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off' AND OLD.update IS DISTINCT FROM NEW.update
                  AND NOT coalesce(NEW.update > OLD.update AND OLD.update > %s - interval %L, false))
            EXECUTE FUNCTION console.state_object_update()$t$, v_clock, format('%s months -2 days', v_months));
END
$function$;
