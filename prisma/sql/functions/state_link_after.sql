CREATE OR REPLACE FUNCTION console.state_link_after()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM console.state_changed(NEW.contactid, 2::smallint);
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
$function$;
