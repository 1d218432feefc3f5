CREATE OR REPLACE FUNCTION console.state_domain_after()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
    c record;
    i integer;
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.id = NEW.id AND OLD.nsset IS NOT DISTINCT FROM NEW.nsset
       AND OLD.registrant IS NOT DISTINCT FROM NEW.registrant AND OLD.keyset IS NOT DISTINCT FROM NEW.keyset THEN
        IF NEW.exdate > OLD.exdate THEN
            PERFORM console.state_moved_later(NEW.id, console.expiration_states(), OLD.exdate);
        ELSIF NEW.exdate IS DISTINCT FROM OLD.exdate THEN
            PERFORM console.state_changed(NEW.id, 0::smallint, OLD.exdate);
        END IF;
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        c := console.domain_change_ids(TG_OP, NULL, NEW.id, true, NULL, NEW.nsset, NULL, NEW.registrant, NULL, NEW.keyset);
    ELSIF TG_OP = 'DELETE' THEN
        c := console.domain_change_ids(TG_OP, OLD.id, NULL, true, OLD.nsset, NULL, OLD.registrant, NULL, OLD.keyset, NULL);
    ELSE
        c := console.domain_change_ids(TG_OP, OLD.id, NEW.id, OLD.exdate IS DISTINCT FROM NEW.exdate, OLD.nsset, NEW.nsset,
                                       OLD.registrant, NEW.registrant, OLD.keyset, NEW.keyset);
    END IF;
    FOR i IN 1 .. cardinality(c.ids) LOOP
        IF TG_OP <> 'UPDATE' THEN
            PERFORM console.state_changed(c.ids[i], c.links[i]);  -- caught up by the BEFORE trigger
        ELSIF c.links[i] = 0 THEN
            PERFORM console.state_changed(c.ids[i], 0::smallint,
                                          CASE WHEN OLD.exdate IS DISTINCT FROM NEW.exdate THEN OLD.exdate END,
                                          NULL, OLD.nsset IS NULL);
        ELSE
            PERFORM console.state_changed(c.ids[i], c.links[i], NULL, NULL, NULL, c.links[i] = 1);
        END IF;
    END LOOP;
    RETURN NULL;
END
$function$;
