CREATE OR REPLACE FUNCTION console.state_domain_links_kept()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF NEW.registrant IS DISTINCT FROM OLD.registrant AND NEW.registrant IS NOT NULL THEN
        PERFORM console.state_link_kept(NEW.registrant);
    END IF;
    IF NEW.nsset IS DISTINCT FROM OLD.nsset AND NEW.nsset IS NOT NULL THEN
        PERFORM console.state_link_kept(NEW.nsset);
    END IF;
    IF NEW.keyset IS DISTINCT FROM OLD.keyset AND NEW.keyset IS NOT NULL THEN
        PERFORM console.state_link_kept(NEW.keyset);
    END IF;
    RETURN NULL;
END
$function$;
