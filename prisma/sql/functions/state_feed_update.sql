CREATE OR REPLACE FUNCTION console.state_feed_update()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF coalesce(current_setting('registry.state_feed', true), '') = 'off' THEN RETURN NULL; END IF;
    INSERT INTO console.state_changes (object_id, state_id, change, at)
    VALUES (NEW.object_id, NEW.state_id, 'left', NEW.valid_to AT TIME ZONE 'UTC');
    RETURN NULL;
END $function$;
