-- Issue 40: the console's own work when FRED's engine writes object_state (modes beside and shadow;
-- README "Running on an existing FRED database", "Database roles", "State change feed").
--
-- 1. FRED's update_object_states(id), called by the console as libfred's PerformObjectStateRequest
--    calls it (after a request or block, in the same transaction; and by the scheduler when a
--    request's start or end passes). FRED's function runs as its caller and writes object_state and
--    a temporary table; granting console_app INSERT and UPDATE on object_state would let the running
--    console write any state row it likes. Instead the console calls this one function, which runs as
--    the owner and can do nothing but run FRED's function for existing objects (never 0, FRED's whole
--    procedure), with the objects locked as every console writer locks them. It ends its search_path
--    with pg_temp (FRED's function and triggers inherit it: a caller's temporary table never stands
--    for one of FRED's) and refuses to run when the temporary table FRED's function fills,
--    pg_temp.tmp_object_state_change, exists and is not the owner's own plain table: a caller could
--    otherwise make it first, with a trigger, a rule, a policy or a column default of its own, and
--    have it run as the owner. TimeZone is UTC, as FRED's programs run: FRED's timestamps are UTC.
CREATE FUNCTION console.fred_state_update(p_ids integer[]) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp SET TimeZone = 'UTC' AS $$
DECLARE
    v_id integer;
    v_count integer := 0;
BEGIN
    IF NOT EXISTS (SELECT FROM console.registry_origin WHERE origin = 'adopted' AND mode <> 'charge') THEN
        RAISE EXCEPTION 'console.fred_state_update: FRED''s engine does not write this registry''s states (the console''s does)'
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    IF EXISTS (SELECT FROM unnest(p_ids) i WHERE i IS NULL OR i <= 0) THEN
        RAISE EXCEPTION 'console.fred_state_update: object ids are positive (0 would be FRED''s whole procedure)'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF EXISTS (SELECT FROM pg_class c
                WHERE c.relname = 'tmp_object_state_change'
                  AND (c.relnamespace <> pg_my_temp_schema()
                       OR c.relowner <> (SELECT r.oid FROM pg_roles r WHERE r.rolname = current_user)
                       OR c.relkind <> 'r' OR c.relhasrules OR c.relrowsecurity OR c.relforcerowsecurity
                       OR EXISTS (SELECT FROM pg_trigger t WHERE t.tgrelid = c.oid)
                       OR EXISTS (SELECT FROM pg_policy p WHERE p.polrelid = c.oid)
                       OR EXISTS (SELECT FROM pg_attrdef d WHERE d.adrelid = c.oid))
                  AND (c.relnamespace = pg_my_temp_schema() OR pg_table_is_visible(c.oid)))
    THEN
        RAISE EXCEPTION 'console.fred_state_update: a table tmp_object_state_change (FRED''s work table) belongs to another role '
                        'or has triggers, rules, policies or defaults; FRED''s function is run only with its own'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    -- One writer per object, as every console writer (console.lock_objects).
    PERFORM 1 FROM object_registry WHERE id = ANY (p_ids) ORDER BY id FOR NO KEY UPDATE;
    -- FRED's function dates what it writes at the transaction's start. A state row of the object
    -- dated later was written by a transaction that began after this one and committed while this
    -- one waited for the object: writing now would end a state before it began. The transaction is
    -- a serialization victim and runs again (lib/db/driver.ts runAgainIfVictim), with a later start.
    IF EXISTS (SELECT FROM object_state s
                WHERE s.object_id = ANY (p_ids)
                  AND (s.valid_from > CURRENT_TIMESTAMP::timestamp OR s.valid_to > CURRENT_TIMESTAMP::timestamp)) THEN
        RAISE EXCEPTION 'console.fred_state_update: the object''s states changed after this transaction began; run it again'
            USING ERRCODE = 'serialization_failure';
    END IF;
    FOR v_id IN SELECT DISTINCT i FROM unnest(p_ids) i JOIN object_registry o ON o.id = i ORDER BY i LOOP
        PERFORM public.update_object_states(v_id);
        v_count := v_count + 1;
    END LOOP;
    RETURN v_count;
END
$$;
REVOKE ALL ON FUNCTION console.fred_state_update(integer[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION console.fred_state_update(integer[]) TO console_app;

-- 2. The scheduler's cursor (lib/states/fred-schedule.ts): the instant up to which the requests
--    whose start, end or cancellation passed have been handed to FRED's function. The running
--    console moves it.
CREATE TABLE console.fred_request_cursor (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    at timestamptz,
    last_run_at timestamptz,
    last_objects integer
);
INSERT INTO console.fred_request_cursor DEFAULT VALUES;
REVOKE ALL ON console.fred_request_cursor FROM console_app;
GRANT SELECT, UPDATE (at, last_run_at, last_objects) ON console.fred_request_cursor TO console_app;

-- 3. The change feed without a trigger on FRED's tables. console.fred_feed_poll() appends to
--    console.state_changes what object_state gained since its last run:
--    - new rows (entered, and left when already closed): every id above `low` not yet in
--      fred_feed_seen. Ids are not committed in their order, so `low` moves only to a bound every id
--      up to which is settled: at the end of a run, if object_state can be locked SHARE at once
--      (NOWAIT: it never waits, so FRED's writers never queue behind it; it is held only until the
--      run commits), no transaction is inserting into it or holds rows it has not committed, so
--      every id the sequence has given is committed or rolled back; the next run, which sees all
--      of them, moves `low` there. Until then the ids seen above `low` are remembered.
--    - closings (FRED closes a row by UPDATE of valid_to): the open rows it has reported
--      (fred_feed_open) are compared with object_state by primary key; each one closed is reported
--      left, once, at its valid_to.
--    One run at a time (the row lock of console.fred_feed). console.fred_feed_start() begins it
--    with the rows as they stand (the past is not the feed's), with object_state locked for the instant.
CREATE TABLE console.fred_feed (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    started_at timestamptz,
    low bigint,
    bound bigint,
    last_run_at timestamptz
);
INSERT INTO console.fred_feed DEFAULT VALUES;
CREATE TABLE console.fred_feed_seen (object_state_id integer PRIMARY KEY);
CREATE TABLE console.fred_feed_open (object_state_id integer PRIMARY KEY);
REVOKE ALL ON console.fred_feed, console.fred_feed_seen, console.fred_feed_open FROM console_app;
GRANT SELECT ON console.fred_feed TO console_app;

CREATE FUNCTION console.fred_feed_start() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    PERFORM 1 FROM console.fred_feed FOR UPDATE;
    -- No writer of object_state between the rows read here and the mark of where the feed begins.
    LOCK TABLE object_state IN SHARE MODE;
    DELETE FROM console.fred_feed_seen;
    DELETE FROM console.fred_feed_open;
    INSERT INTO console.fred_feed_open SELECT id FROM object_state WHERE valid_to IS NULL;
    UPDATE console.fred_feed
       SET started_at = now(), low = (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM object_state_id_seq), bound = NULL, last_run_at = NULL;
END
$$;

CREATE FUNCTION console.fred_feed_poll() RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    v_feed console.fred_feed;
    v_entered integer;
    v_left integer;
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
    UPDATE console.fred_feed SET low = v_feed.low, bound = v_feed.bound, last_run_at = now();
    RETURN v_entered + v_left;
END
$$;
REVOKE ALL ON FUNCTION console.fred_feed_start() FROM PUBLIC;
REVOKE ALL ON FUNCTION console.fred_feed_poll() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION console.fred_feed_poll() TO console_app;
