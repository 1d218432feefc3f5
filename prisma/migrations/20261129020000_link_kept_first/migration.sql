-- A new link of an object that is linked already (the common case: a domain's nsset changed to
-- another nsset, an admin contact added who is linked elsewhere) is settled at the commit with one
-- row lock, before console.state_changed is called (issue 25, sixth step).
--
-- console.state_changed settled it too, but only after reading the engine's clock and taking the
-- engine's lock, at about 50 µs a call (pg_stat_statements, 100,000 domains, FRED's nsset change:
-- two calls each, the lost link and the new one). The object's "linked" row is held FOR KEY SHARE
-- by this transaction from its statement on (console.state_link_kept, by the BEFORE trigger of
-- the contact maps and the AFTER trigger console_state_links_kept of domain), so taking it again
-- at the commit succeeds at once and the object stays linked until the commit.

-- console.state_domain_after as in 20261127000000_fred_after_triggers.
CREATE OR REPLACE FUNCTION console.state_domain_after() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public SET plan_cache_mode = force_generic_plan AS $$
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
        ELSIF c.links[i] = 2 AND console.state_link_kept(c.ids[i]) THEN
            NULL;  -- a new link of an object linked already (its "linked" row held since the statement)
        ELSE
            PERFORM console.state_changed(c.ids[i], c.links[i], NULL, NULL, NULL, c.links[i] = 1);
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;


-- console.state_link_after as in 20261127000000_fred_after_triggers.
CREATE OR REPLACE FUNCTION console.state_link_after() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public SET plan_cache_mode = force_generic_plan AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF NOT console.state_link_kept(NEW.contactid) THEN
            PERFORM console.state_changed(NEW.contactid, 2::smallint);
        END IF;
    ELSIF TG_OP = 'DELETE' THEN
        -- No BEFORE trigger caught it up: it is caught up here as it was, linked by this row.
        PERFORM console.state_changed(OLD.contactid, 1::smallint, p_old_linked => true);
    ELSIF OLD.contactid IS DISTINCT FROM NEW.contactid THEN
        IF OLD.contactid < NEW.contactid THEN
            PERFORM console.state_changed(OLD.contactid, 1::smallint);
            PERFORM console.state_changed(NEW.contactid, 2::smallint);
        ELSE
            PERFORM console.state_changed(NEW.contactid, 2::smallint);
            PERFORM console.state_changed(OLD.contactid, 1::smallint);
        END IF;
    END IF;
    RETURN NULL;
END
$$;
