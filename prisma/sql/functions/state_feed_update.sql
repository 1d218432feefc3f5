CREATE OR REPLACE FUNCTION console.state_feed_update()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF coalesce(current_setting('registry.state_feed', true), '') = 'off' THEN RETURN NULL; END IF;
    INSERT INTO console.state_changes (object_id, state_id, change, at)
    SELECT n.object_id, n.state_id, 'left', n.valid_to AT TIME ZONE 'UTC'
      FROM new_rows n JOIN old_rows o ON o.id = n.id
     WHERE o.valid_to IS NULL AND n.valid_to IS NOT NULL
     ORDER BY n.valid_to, n.id;
    RETURN NULL;
END $function$;
