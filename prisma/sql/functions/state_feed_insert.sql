CREATE OR REPLACE FUNCTION console.state_feed_insert()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    IF coalesce(current_setting('registry.state_feed', true), '') = 'off' THEN RETURN NULL; END IF;
    INSERT INTO console.state_changes (object_id, state_id, change, at)
    SELECT n.object_id, n.state_id, c.change, c.at
      FROM new_rows n
     CROSS JOIN LATERAL (VALUES ('entered', n.valid_from AT TIME ZONE 'UTC'), ('left', n.valid_to AT TIME ZONE 'UTC')) AS c(change, at)
     WHERE c.at IS NOT NULL
     ORDER BY c.at, n.id, c.change;
    RETURN NULL;
END $function$;
