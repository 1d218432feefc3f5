CREATE OR REPLACE FUNCTION console.state_domain_before()
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
    IF TG_OP = 'INSERT' THEN
        c := console.domain_change_ids(TG_OP, NULL, NEW.id, true, NULL, NEW.nsset, NULL, NEW.registrant, NULL, NEW.keyset);
    ELSIF TG_OP = 'DELETE' THEN
        c := console.domain_change_ids(TG_OP, OLD.id, NULL, true, OLD.nsset, NULL, OLD.registrant, NULL, OLD.keyset, NULL);
    ELSE
        c := console.domain_change_ids(TG_OP, OLD.id, NEW.id, OLD.exdate IS DISTINCT FROM NEW.exdate, OLD.nsset, NEW.nsset,
                                       OLD.registrant, NEW.registrant, OLD.keyset, NEW.keyset);
    END IF;
    FOR i IN 1 .. cardinality(c.ids) LOOP
        -- A link added to an object that is linked already: nothing to catch up, and its linked row
        -- held until the commit (console.state_link_kept), so no one ends it meanwhile.
        IF c.links[i] <> 2 OR NOT console.state_link_kept(c.ids[i]) THEN
            PERFORM console.state_catch_up(c.ids[i]);
        END IF;
    END LOOP;
    PERFORM set_config('console.state_apply', 'on', true);  -- the AFTER trigger's WHEN
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
END
$function$;
