-- FRED's update of a linked contact, nsset or keyset, or of a domain, is left out in the object
-- trigger's WHEN clause, at the statement, instead of at the commit by the deferred trigger
-- (issue 25, sixth step).
--
-- object.update counts only for an unlinked contact, nsset or keyset (deleteCandidate); every EPP
-- update of any object writes it. Measured at 1,500,000 domains on a new registry (bench:fred,
-- a contact's update alone): most updates passed the WHEN bound (their last update was older than
-- the deletion protection) and queued the deferred trigger, whose first statement then found the
-- contact linked: FRED's update went from 14,500 to 9,000 per second at eight clients (p95 0.87 ->
-- 1.8 ms). The queued event, its firing and the trigger function's entry (SECURITY DEFINER, with
-- its settings) cost more than the probe itself.
--
-- console.state_update_counts(id) is the probe, called from the WHEN clause: a plain PL/pgSQL
-- function (its plans kept for the session), not SECURITY DEFINER, that reads only FRED's own
-- object_registry and object_state, which the writing role reads anyway. A contact linked when it
-- is updated and unlinked later in the same transaction loses its link through the contact map's or
-- domain's own trigger, which records its next change; its deleteCandidate was not open, so its
-- update has nothing to end. The deferred trigger keeps its own probe at the commit.
CREATE FUNCTION console.state_update_counts(p_id integer) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN EXISTS (SELECT 1 FROM public.object_registry o WHERE o.id = p_id AND o.type IN (1, 2, 4))
       AND NOT EXISTS (SELECT 1 FROM public.object_state os
                        WHERE os.object_id = p_id AND os.state_id = 16 AND os.valid_to IS NULL);
END
$$;

-- console.state_triggers_compile as in 20261127000000_fred_after_triggers, the object trigger's WHEN
-- ending with console.state_update_counts.
CREATE OR REPLACE FUNCTION console.state_triggers_compile() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
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
                  AND NOT coalesce(NEW.update > OLD.update AND OLD.update > %s - interval %L, false)
                  AND console.state_update_counts(NEW.id))
            EXECUTE FUNCTION console.state_object_update()$t$, v_clock, format('%s months -2 days', v_months));
END
$$;

SELECT console.state_triggers_compile();
