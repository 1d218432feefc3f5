CREATE OR REPLACE FUNCTION console.state_link_before()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.contactid IS NOT DISTINCT FROM NEW.contactid THEN
        RETURN NEW;  -- the role changed only: nothing about the contact's links changed
    END IF;
    IF TG_OP = 'INSERT' AND console.state_engine_open(NEW.contactid, console.state_clock())
       AND console.state_link_kept(NEW.contactid) THEN
        RETURN NEW;
    END IF;
    IF TG_OP <> 'INSERT' THEN PERFORM console.state_catch_up(OLD.contactid); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM console.state_catch_up(NEW.contactid); END IF;
    PERFORM set_config('console.state_apply', 'on', true);  -- the AFTER trigger's WHEN
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
END
$function$;
