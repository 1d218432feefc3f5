-- Issue 40: the beside feed's poll at 1.5 million domains. console.fred_feed_poll() compared every
-- open row it had reported (3.9 million) with object_state on every poll, and looked for rows gone
-- from it: 2.4–2.6 s of FRED's database a minute with nothing changed. A poll now finds closings
-- through FRED's own index on object_state.valid_to, in a window reaching a day before the previous
-- poll; the full comparison (a sweep) runs at most hourly and reports, late but once, anything closed
-- at an instant further back (README "State change feed").
ALTER TABLE console.fred_feed ADD COLUMN swept_at timestamptz;

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

CREATE OR REPLACE FUNCTION console.fred_feed_poll()
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    v_feed console.fred_feed;
    v_entered integer;
    v_left integer;
    v_sweep boolean;
    v_window timestamp;
BEGIN
    IF NOT EXISTS (SELECT FROM console.registry_origin WHERE origin = 'adopted' AND mode <> 'charge') THEN
        RETURN 0; -- the console's triggers write the feed
    END IF;
    SELECT * INTO v_feed FROM console.fred_feed FOR UPDATE;
    IF v_feed.low IS NULL THEN
        PERFORM console.fred_feed_start();
        RETURN 0;
    END IF;
    WITH fresh AS (
        SELECT s.id, s.object_id, s.state_id, s.valid_from, s.valid_to FROM object_state s
         WHERE s.id > v_feed.low AND NOT EXISTS (SELECT FROM console.fred_feed_seen f WHERE f.object_state_id = s.id)
    ), seen AS (
        INSERT INTO console.fred_feed_seen SELECT id FROM fresh
    ), open AS (
        INSERT INTO console.fred_feed_open SELECT id FROM fresh WHERE valid_to IS NULL
    )
    INSERT INTO console.state_changes (object_id, state_id, change, at)
    SELECT n.object_id, n.state_id, c.change, c.at
      FROM fresh n
     CROSS JOIN LATERAL (VALUES ('entered', n.valid_from AT TIME ZONE 'UTC'), ('left', n.valid_to AT TIME ZONE 'UTC')) AS c(change, at)
     WHERE c.at IS NOT NULL
     ORDER BY c.at, n.id, c.change;
    GET DIAGNOSTICS v_entered = ROW_COUNT;

    -- Closings. Each poll looks only at rows closed recently (FRED's own index on valid_to): FRED's
    -- function and triggers close a state at their transaction's start, so a window back a day from
    -- the previous poll holds them, whatever the writer's session time zone. The sweep compares
    -- every open row reported with object_state (2.5 s at 1.5 million domains), at most hourly:
    -- a row closed at an instant further back (a transaction open for hours, a hand-written
    -- valid_to) is reported then, late but never lost, and never twice.
    v_sweep := v_feed.swept_at IS NULL OR v_feed.last_run_at IS NULL OR v_feed.swept_at < now() - interval '1 hour';
    v_window := (least(v_feed.last_run_at, now()) AT TIME ZONE 'UTC') - interval '1 day';
    IF NOT v_sweep THEN
        WITH closed AS (
            DELETE FROM console.fred_feed_open f USING object_state s
             WHERE s.id = f.object_state_id AND s.valid_to >= v_window
            RETURNING s.id, s.object_id, s.state_id, s.valid_to
        )
        INSERT INTO console.state_changes (object_id, state_id, change, at)
        SELECT object_id, state_id, 'left', valid_to AT TIME ZONE 'UTC' FROM closed ORDER BY valid_to, id;
        GET DIAGNOSTICS v_left = ROW_COUNT;
    ELSE
        WITH closed AS (
            DELETE FROM console.fred_feed_open f USING object_state s
             WHERE s.id = f.object_state_id AND s.valid_to IS NOT NULL
            RETURNING s.id, s.object_id, s.state_id, s.valid_to
        )
        INSERT INTO console.state_changes (object_id, state_id, change, at)
        SELECT object_id, state_id, 'left', valid_to AT TIME ZONE 'UTC' FROM closed ORDER BY valid_to, id;
        GET DIAGNOSTICS v_left = ROW_COUNT;
        -- Rows gone from object_state (FRED deletes none) leave nothing to report.
        DELETE FROM console.fred_feed_open f WHERE NOT EXISTS (SELECT FROM object_state s WHERE s.id = f.object_state_id);
        v_feed.swept_at := now();
    END IF;

    -- The bound an earlier run fixed: every id up to it was settled then, and seen above.
    IF v_feed.bound IS NOT NULL THEN
        DELETE FROM console.fred_feed_seen WHERE object_state_id <= v_feed.bound;
        v_feed.low := greatest(v_feed.low, v_feed.bound);
        v_feed.bound := NULL;
    END IF;
    BEGIN
        LOCK TABLE object_state IN SHARE MODE NOWAIT;
        SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END INTO v_feed.bound FROM object_state_id_seq;
    EXCEPTION WHEN lock_not_available THEN
        NULL; -- a writer is at work: the next run tries again
    END;
    UPDATE console.fred_feed SET low = v_feed.low, bound = v_feed.bound, last_run_at = now(), swept_at = v_feed.swept_at;
    RETURN v_entered + v_left;
END
$function$;
