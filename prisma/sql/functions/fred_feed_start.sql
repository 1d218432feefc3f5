CREATE OR REPLACE FUNCTION console.fred_feed_start()
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM 1 FROM console.fred_feed FOR UPDATE;
    -- No writer of object_state between the rows read here and the mark of where the feed begins.
    LOCK TABLE object_state IN SHARE MODE;
    DELETE FROM console.fred_feed_seen;
    DELETE FROM console.fred_feed_open;
    INSERT INTO console.fred_feed_open SELECT id FROM object_state WHERE valid_to IS NULL;
    UPDATE console.fred_feed
       SET started_at = now(), low = (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM object_state_id_seq), bound = NULL, last_run_at = NULL, swept_at = now();
END
$function$;
