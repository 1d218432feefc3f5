CREATE OR REPLACE FUNCTION console.object_key_copy()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM console.object_key WHERE id = OLD.id;
        RETURN NULL;
    END IF;
    INSERT INTO console.object_key (id, type, name, crdate, erdate)
    VALUES (NEW.id, NEW.type, NEW.name, NEW.crdate, NEW.erdate)
    ON CONFLICT (id) DO UPDATE SET type = excluded.type, name = excluded.name, crdate = excluded.crdate, erdate = excluded.erdate;
    RETURN NULL;
END
$function$;
