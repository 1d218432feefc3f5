-- Issue 41: forecast lists within the list targets at 1.5 million domains. The forecast asked the
-- rules (console.object_state_periods_of, 40–150 µs an object) for every object whose states change
-- within the window: 139,102 objects in a week, 2.2 s for "entering outzone next week", 9.3 s for
-- "deleteCandidate in 30 days". Now it reads a stored plan of every object's periods from now on,
-- through indexes, and asks the rules only for the objects changed since the plan was written.
--
-- * console.state_plan: per object, the periods of the states the engine keeps (manual and
--   automatic) that have not ended when they were written: what the rules said then.
-- * console.state_plan_stale: objects whose plan may no longer hold. Insert-only and without an
--   index, like console.state_pending: its one row is all a FRED command adds, written where the
--   state triggers' general path begins (console.state_changed_apply), and by the engine's runs for
--   changes they left pending. The triggers' other paths change no period ahead: a link added to an
--   object that is linked already, a link removed from one that stays linked.
-- * console.state_plan_pass(): the scheduler's pass after each engine run. It writes the plan again
--   for the marked objects (their marks removed in the same transaction: a mark committed after the
--   pass began stays for the next), or the whole plan when it is not trusted.
-- * The plan is trusted only in charge, where the console's triggers mark every change, and only if
--   written since the registry last moved into charge; a full engine run (after a load with the
--   marks off) and a change of the registry's parameters make it be written again as a whole.
--   Untrusted, the forecast asks the rules as before.

CREATE TABLE console.state_plan (
    object_id integer NOT NULL,
    state_id integer NOT NULL,
    valid_from timestamptz NOT NULL,
    valid_to timestamptz
);
CREATE INDEX state_plan_from_idx ON console.state_plan (state_id, valid_from);
CREATE INDEX state_plan_to_idx ON console.state_plan (state_id, valid_to);
CREATE INDEX state_plan_object_idx ON console.state_plan (object_id);

CREATE TABLE console.state_plan_stale (
    object_id integer NOT NULL
);

CREATE TABLE console.state_plan_status (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    -- When the whole plan was last written (NULL: it must be written again before it is trusted).
    built_at timestamptz,
    last_pass_at timestamptz,
    last_pass_kind text,
    last_pass_objects integer,
    last_pass_periods integer,
    last_pass_ms numeric
);
INSERT INTO console.state_plan_status DEFAULT VALUES;

-- Whether console.state_plan holds every object's periods ahead, but for the objects marked in
-- console.state_plan_stale and those pending in console.state_pending.
-- PL/pgSQL, as the helpers below: a list calls them in every query, and an SQL function that is not
-- inlined (these have subqueries) has its body planned again in each (about 8 ms a list page), where
-- PL/pgSQL keeps its plans for the session.
CREATE FUNCTION console.state_plan_trusted() RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN EXISTS (
        SELECT FROM console.state_plan_status s
         WHERE s.built_at IS NOT NULL
           AND NOT EXISTS (SELECT FROM console.registry_origin o WHERE o.mode <> 'charge' OR o.mode_since > s.built_at));
END
$$;

CREATE FUNCTION console.state_plan_pass(OUT kind text, OUT objects integer, OUT periods integer)
RETURNS record
LANGUAGE plpgsql SECURITY DEFINER
SET search_path TO 'pg_catalog', 'public', 'pg_temp'
SET "TimeZone" TO 'UTC'
SET jit TO 'off'
SET work_mem TO '256MB'
AS $$
DECLARE
    -- The database's clock, not console.state_clock(): a pass has no instant of its own to choose (the
    -- plan keeps every period that has not ended by then; the forecast reads it from its own clock).
    v_at timestamptz := now();
    v_started timestamptz := clock_timestamp();
    v_ids integer[];
BEGIN
    objects := 0;
    periods := 0;
    -- Beside and in shadow FRED's engine writes the states and nothing marks a change.
    IF EXISTS (SELECT FROM console.registry_origin o WHERE o.mode <> 'charge') THEN
        kind := 'not in charge';
        RETURN;
    END IF;
    IF NOT pg_try_advisory_xact_lock(7353002, 2) THEN
        kind := 'busy';
        RETURN;
    END IF;
    IF NOT console.state_plan_trusted() THEN
        kind := 'full';
        -- DELETE, not TRUNCATE: TRUNCATE's lock would make every list wait for the whole build.
        DELETE FROM console.state_plan_stale;
        DELETE FROM console.state_plan;
        -- In the order of the forecast's index: a list's range of one state's starts then reads few pages.
        INSERT INTO console.state_plan (object_id, state_id, valid_from, valid_to)
        SELECT r.object_id, r.state_id, r.valid_from, r.valid_to
          FROM console.object_state_periods(NULL) r
         WHERE r.valid_to IS NULL OR r.valid_to > v_at
         ORDER BY r.state_id, r.valid_from;
        GET DIAGNOSTICS periods = ROW_COUNT;
        SELECT count(DISTINCT p.object_id) INTO objects FROM console.state_plan p;
        UPDATE console.state_plan_status SET built_at = now();
        ANALYZE console.state_plan;
    ELSE
        kind := 'marked';
        WITH m AS (DELETE FROM console.state_plan_stale RETURNING object_id)
        SELECT coalesce(array_agg(DISTINCT m.object_id), '{}') INTO v_ids FROM m;
        objects := cardinality(v_ids);
        IF objects > 0 THEN
            DELETE FROM console.state_plan p WHERE p.object_id = ANY (v_ids);
            INSERT INTO console.state_plan (object_id, state_id, valid_from, valid_to)
            SELECT i.id, x.state_id, x.lo, x.hi
              FROM unnest(v_ids) i (id)
             CROSS JOIN LATERAL unnest(console.object_state_periods_of(i.id, v_at)) x
             WHERE x.hi IS NULL OR x.hi > v_at;
            GET DIAGNOSTICS periods = ROW_COUNT;
        END IF;
        -- Periods that ended more than a day ago are no one's forecast.
        DELETE FROM console.state_plan p USING enum_object_states s
         WHERE p.state_id = s.id AND p.valid_to < v_at - interval '1 day';
    END IF;
    UPDATE console.state_plan_status
       SET last_pass_at = now(), last_pass_kind = kind, last_pass_objects = objects, last_pass_periods = periods,
           last_pass_ms = round(extract(epoch FROM clock_timestamp() - v_started)::numeric * 1000, 1);
END
$$;

COMMENT ON FUNCTION console.state_plan_pass() IS
    'Writes console.state_plan again for the objects marked in console.state_plan_stale, or as a whole when it is not trusted (console.state_plan_trusted); charge only. The scheduler calls it after each engine run.';

REVOKE ALL ON FUNCTION console.state_plan_pass() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION console.state_plan_pass() TO console_app;
-- The console reads them; only the owner's code (the triggers, the engine, the pass) writes them.
REVOKE ALL ON console.state_plan, console.state_plan_stale, console.state_plan_status FROM console_app;
GRANT SELECT ON console.state_plan, console.state_plan_stale, console.state_plan_status TO console_app;

-- The forecast registry-wide: the plan for every object but those changed since it was written
-- (marked) or pending, which the rules are asked for; untrusted, the rules for every object whose
-- states change by p_to (console.state_next_event), as before. Of the open rows, the states the
-- engine does not keep carry over as they are.
CREATE OR REPLACE FUNCTION console.state_forecast(p_from timestamptz, p_to timestamptz, p_states integer[] DEFAULT NULL)
RETURNS TABLE(object_id integer, state_id integer, valid_from timestamptz, valid_to timestamptz)
LANGUAGE sql STABLE AS $$
WITH clock AS MATERIALIZED (
    SELECT console.state_clock() AS at
),
planned AS MATERIALIZED (
    SELECT console.state_plan_trusted() AS yes
),
kept AS MATERIALIZED (
    -- The states the engine keeps (ids), and the others (others), which carry over as they are.
    SELECT coalesce(array_agg(s.id) FILTER (WHERE s.manual OR s.id = ANY (console.engine_automatic_states())), '{}') AS ids,
           coalesce(array_agg(s.id) FILTER (WHERE NOT (s.manual OR s.id = ANY (console.engine_automatic_states()))), '{}') AS others
      FROM enum_object_states s
),
changing AS MATERIALIZED (
    SELECT ne.object_id FROM console.state_next_event ne CROSS JOIN planned WHERE NOT planned.yes AND ne.next_at <= p_to
    UNION
    SELECT m.object_id FROM console.state_plan_stale m CROSS JOIN planned WHERE planned.yes
    UNION
    SELECT sp.object_id FROM console.state_pending sp
)
SELECT c.object_id, x.state_id, x.lo, x.hi
  FROM changing c
 CROSS JOIN clock
 CROSS JOIN LATERAL unnest(console.object_state_periods_of(c.object_id, clock.at)) x
 WHERE (p_states IS NULL OR x.state_id = ANY (p_states))
   AND x.lo <= p_to AND (x.hi IS NULL OR x.hi >= p_from)
UNION ALL
SELECT p.object_id, p.state_id, p.valid_from, p.valid_to
  FROM console.state_plan p
 WHERE (SELECT planned.yes FROM planned)
   AND (p_states IS NULL OR p.state_id = ANY (p_states))
   AND p.valid_from <= p_to AND (p.valid_to IS NULL OR p.valid_to >= p_from)
   AND NOT EXISTS (SELECT 1 FROM changing c WHERE c.object_id = p.object_id)
UNION ALL
SELECT os.object_id, os.state_id, os.valid_from AT TIME ZONE 'UTC', NULL::timestamptz
  FROM object_state os
 WHERE os.valid_to IS NULL
   AND os.state_id = ANY ((SELECT kept.others FROM kept)::integer[])
   AND (p_states IS NULL OR os.state_id = ANY (p_states))
UNION ALL
SELECT os.object_id, os.state_id, os.valid_from AT TIME ZONE 'UTC', NULL::timestamptz
  FROM object_state os
 WHERE NOT (SELECT planned.yes FROM planned)
   AND os.valid_to IS NULL
   AND os.state_id = ANY ((SELECT kept.ids FROM kept)::integer[])
   AND (p_states IS NULL OR os.state_id = ANY (p_states))
   AND NOT EXISTS (SELECT 1 FROM changing c WHERE c.object_id = os.object_id)
$$;

-- Whether the plan holds for one object: trusted, and the object neither marked nor pending.
CREATE FUNCTION console.state_plan_holds(p_object_id integer) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN console.state_plan_trusted()
           AND NOT EXISTS (SELECT FROM console.state_plan_stale m WHERE m.object_id = p_object_id)
           AND NOT EXISTS (SELECT FROM console.state_pending sp WHERE sp.object_id = p_object_id);
END
$$;

-- One object's periods from now on: from the plan when it holds for the object, else the rules. No
-- WITH: a list asks it for each row it shows (its when columns), and inlined without one it costs
-- 0.05 ms a row, with one 0.3 ms.
CREATE OR REPLACE FUNCTION console.state_forecast_of(p_object_id integer, p_states integer[] DEFAULT NULL)
RETURNS TABLE (state_id integer, valid_from timestamptz, valid_to timestamptz)
LANGUAGE sql STABLE AS $$
SELECT x.state_id, x.lo, x.hi
  FROM unnest(CASE WHEN NOT console.state_plan_holds(p_object_id)
                   THEN console.object_state_periods_of(p_object_id, console.state_clock()) END) x
 WHERE p_states IS NULL OR x.state_id = ANY (p_states)
UNION ALL
SELECT p.state_id, p.valid_from, p.valid_to
  FROM console.state_plan p
 WHERE p.object_id = p_object_id AND console.state_plan_holds(p_object_id)
   AND (p.valid_to IS NULL OR p.valid_to > console.state_clock())
   AND (p_states IS NULL OR p.state_id = ANY (p_states))
UNION ALL
SELECT os.state_id, os.valid_from AT TIME ZONE 'UTC', NULL::timestamptz
  FROM object_state os
  JOIN enum_object_states s ON s.id = os.state_id
 WHERE os.object_id = p_object_id AND os.valid_to IS NULL
   AND NOT (s.manual OR s.id = ANY (console.engine_automatic_states()))
   AND (p_states IS NULL OR os.state_id = ANY (p_states))
$$;

-- The causes of a change a list shows (migration 20261207000000_list_when), unchanged but for its
-- language: the list calls it for each row, and as an SQL function its body (and state_reasons') was
-- planned again in every list query; in PL/pgSQL with a generic plan, planned once a session (a
-- custom plan each call cost 0.4 ms of the 0.6 a call took).
CREATE OR REPLACE FUNCTION console.state_change_causes(p_object_id integer, p_state_id integer, p_at timestamp with time zone, p_entering boolean)
 RETURNS TABLE(code text, args jsonb)
 LANGUAGE plpgsql
 STABLE
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
BEGIN
    RETURN QUERY
WITH p AS (SELECT sp.zone FROM console.state_parameters() sp),
req AS (
    SELECT r.id, r.state_id, s.name,
           r.valid_from AT TIME ZONE 'UTC' AS starts,
           nullif(least(coalesce(r.canceled, 'infinity'), coalesce(r.valid_to, 'infinity')), 'infinity') AT TIME ZONE 'UTC' AS ends,
           nullif(rr.reason_creation, '') AS reason
      FROM object_state_request r
      JOIN enum_object_states s ON s.id = r.state_id
      LEFT JOIN object_state_request_reason rr ON rr.object_state_request_id = r.id
     WHERE r.object_id = p_object_id
       AND (r.valid_from = p_at AT TIME ZONE 'UTC' OR least(r.canceled, r.valid_to) = p_at AT TIME ZONE 'UTC')
       -- Only a request that holds at all (not canceled before its start), as console.effective_requests.
       AND least(coalesce(r.canceled, 'infinity'), coalesce(r.valid_to, 'infinity')) > r.valid_from
),
said AS (
    SELECT CASE WHEN req.starts = p_at THEN 'requestStarts' ELSE 'requestEnds' END AS code,
           jsonb_build_object('request', req.id, 'state', req.name, 'own', req.state_id = p_state_id, 'at', p_at, 'zone', p.zone,
                              'reason', req.reason) AS args,
           req.state_id, req.id
      FROM req CROSS JOIN p
     WHERE (req.starts = p_at OR req.ends = p_at)
       AND (req.state_id = p_state_id OR NOT EXISTS (SELECT 1 FROM req own WHERE own.state_id = p_state_id))
)
SELECT said.code, said.args FROM said
UNION ALL
SELECT sr.code, sr.args
  FROM console.state_reasons(p_object_id, p_at) sr
 WHERE p_entering AND sr.state_id = p_state_id AND sr.code IS NOT NULL
   AND NOT (sr.code = 'requested' AND EXISTS (SELECT 1 FROM said WHERE said.state_id = p_state_id AND said.code = 'requestStarts'));
END
$function$;

CREATE OR REPLACE FUNCTION console.state_changed_apply(p_id integer, p_link smallint, p_at timestamp with time zone, p_old_exdate date, p_old_updated timestamp with time zone, p_old_nsset_missing boolean, p_old_linked boolean)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
    v_at timestamptz := p_at;
    v_clock timestamptz;
    r record;
    v_want integer[];
    v_next timestamptz;
    v_close integer[];
    v_open integer[];
    v_caught_up boolean := false;
    v_fast boolean := false;
BEGIN
    PERFORM console.state_object_row_lock(p_id);
    -- Whatever follows, the object's stored plan of the states ahead (console.state_plan) may no
    -- longer hold: the forecast asks the rules for it until the plan's next pass writes it again.
    INSERT INTO console.state_plan_stale (object_id) VALUES (p_id);
    -- Three changes of a contact, nsset or keyset that alter nothing but one state, without the
    -- general recomputation; each only when its history is exact up to now and no work is pending:
    --   * p_link = 2, a link added to an unlinked one (its BEFORE trigger caught it up): linked
    --     begins now and deleteCandidate, if open, ends now. Its recorded next change (a
    --     deleteCandidate threshold, now gone) only wakes a run early.
    --   * p_link = 1, its last link lost (an admin or tech contact removed, a domain's nsset or
    --     keyset changed): linked ends now. No state of theirs but deleteCandidate follows from
    --     their links, and it begins no sooner than the protection period after the last link.
    --   * p_link = 3, an unlinked one updated later than before (object.update): an open
    --     deleteCandidate ends now. No other state of theirs follows from object.update, and
    --     deleteCandidate begins no sooner than the protection period after the update.
    -- For 1 and 3 nothing may have been due before the change (no catch-up), and the recorded next
    -- change becomes, if later, the earliest that deleteCandidate could begin (the bound the object
    -- trigger's WHEN clause uses): the scheduled run then recomputes the object and records the
    -- exact instant.
    IF p_link IN (1, 2, 3) THEN
        SELECT ob.type IN (1, 2, 4) AND ob.erdate IS NULL AND ob.crdate AT TIME ZONE 'UTC' <= v_at AS linkable,
               EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = p_id AND os.state_id = 16 AND os.valid_to IS NULL) AS linked,
               CASE WHEN p_link = 3 THEN EXISTS (SELECT 1 FROM object_state os
                                                  WHERE os.object_id = p_id AND os.state_id = 17 AND os.valid_to IS NULL) END AS candidate,
               EXISTS (SELECT 1 FROM console.state_pending sp WHERE sp.object_id = p_id) AS pending,
               coalesce(greatest(e.cursor, ne.exact_to), '-infinity') <= v_at AS exact,
               ne.next_at IS NULL OR ne.next_at > v_at AS nothing_due,
               CASE WHEN p_link = 2 THEN ne.next_at
                    ELSE least(ne.next_at, v_at + (SELECT make_interval(months => p.protection_months) FROM console.state_parameters() p)
                                                - interval '2 days') END AS next_at
          INTO r
          FROM object_registry ob CROSS JOIN console.state_engine e
          LEFT JOIN console.state_next_event ne ON ne.object_id = ob.id
         WHERE ob.id = p_id;
        IF p_link = 2 AND r.linked THEN
            RETURN;  -- linked by another transaction meanwhile (this one now holds the object)
        END IF;
        IF r.linkable AND NOT r.pending AND r.exact
           AND (CASE p_link WHEN 2 THEN true
                            WHEN 1 THEN r.linked AND r.nothing_due
                            ELSE NOT r.linked AND r.candidate AND r.nothing_due END) THEN
            v_fast := true;
            v_close := CASE p_link WHEN 1 THEN ARRAY[16] ELSE ARRAY[17] END;
            v_open := CASE p_link WHEN 2 THEN ARRAY[16] ELSE '{}' END;
            v_next := r.next_at;
        END IF;
    END IF;
    IF NOT v_fast THEN
        -- What the object is, where its history is exact, when it changes next, and its open states.
        SELECT ob.type, ob.crdate AT TIME ZONE 'UTC' AS crdate, ob.erdate AT TIME ZONE 'UTC' AS erdate,
               EXISTS (SELECT 1 FROM object_state_request rq WHERE rq.object_id = p_id) AS requested,
               EXISTS (SELECT 1 FROM console.state_pending sp WHERE sp.object_id = p_id) AS pending,
               greatest(e.cursor, ne.exact_to) AS exact_to, ne.next_at,
               (SELECT coalesce(array_agg(os.state_id ORDER BY os.state_id), '{}')
                  FROM object_state os
                  JOIN enum_object_states s ON s.id = os.state_id AND (s.manual OR s.id = ANY (console.engine_automatic_states()))
                 WHERE os.object_id = p_id AND os.valid_to IS NULL) AS have
          INTO r
          FROM object_registry ob CROSS JOIN console.state_engine e
          LEFT JOIN console.state_next_event ne ON ne.object_id = ob.id
         WHERE ob.id = p_id;
        IF NOT FOUND THEN
            RETURN;
        END IF;
        -- A caller that could not catch up before the change (an AFTER trigger) has it done here, with
        -- the inputs as they were: p_old_exdate the expiration date, p_old_updated object.update
        -- ('-infinity' for never), p_old_nsset_missing whether the domain had no nsset, p_old_linked
        -- whether the object was linked.
        IF (p_old_exdate IS NOT NULL OR p_old_updated IS NOT NULL OR p_old_nsset_missing IS NOT NULL OR p_old_linked IS NOT NULL)
           AND (r.next_at <= v_at OR r.pending) AND coalesce(r.exact_to, '-infinity') < v_at THEN
            PERFORM console.state_object_apply(p_id, coalesce(r.exact_to, '-infinity'), v_at, true, p_old_exdate,
                                               p_old_updated, p_old_nsset_missing, p_old_linked);
            v_caught_up := true;
            SELECT coalesce(array_agg(os.state_id ORDER BY os.state_id), '{}') INTO r.have
              FROM object_state os
              JOIN enum_object_states s ON s.id = os.state_id AND (s.manual OR s.id = ANY (console.engine_automatic_states()))
             WHERE os.object_id = p_id AND os.valid_to IS NULL;
        END IF;
        -- A run that committed after this transaction began may have taken the object past its
        -- instant; the change then counts from there (history is never rewritten).
        v_clock := v_at;
        v_at := greatest(v_at, r.exact_to);
        -- That transaction's change may be at that very instant (its rows begin there: FRED's block
        -- committed while this renew, begun before it, waited for the domain). This change comes
        -- after it, one millisecond later (the engine's resolution): closing such a row at its own
        -- start would leave a row that ends where it begins (db:check's "history order").
        IF r.exact_to > v_clock AND EXISTS (SELECT 1 FROM object_state os
                                           WHERE os.object_id = p_id AND os.valid_to IS NULL
                                             AND os.valid_from >= v_at AT TIME ZONE 'UTC') THEN
            SELECT max(os.valid_from AT TIME ZONE 'UTC') + interval '1 millisecond' INTO v_at
              FROM object_state os WHERE os.object_id = p_id AND os.valid_to IS NULL;
        END IF;
        IF r.type = 3 AND NOT r.requested THEN
            SELECT coalesce(array_agg(x.state_id ORDER BY x.state_id) FILTER (WHERE x.valid_from <= v_at), '{}'),
                   min(least(CASE WHEN x.valid_from > v_at THEN x.valid_from END, CASE WHEN x.valid_to > v_at THEN x.valid_to END))
              INTO v_want, v_next
              FROM console.domain_periods(p_id, r.crdate, r.erdate, NULL, NULL, NULL, NULL) x
             WHERE x.valid_to IS NULL OR x.valid_to > v_at;
        ELSE
            SELECT coalesce(array_agg(x.state_id ORDER BY x.state_id) FILTER (WHERE x.lo <= v_at), '{}'),
                   min(least(CASE WHEN x.lo > v_at THEN x.lo END, CASE WHEN x.hi > v_at THEN x.hi END))
              INTO v_want, v_next
              FROM unnest(console.object_state_periods_of(p_id, v_at)) x;
        END IF;
        IF v_want = r.have THEN
            v_close := '{}';
            v_open := '{}';
            -- Nothing to write when its states stay and its recorded next change is not later than the
            -- new one (a renew moves it later): a scheduled run then looks at it early, finds nothing
            -- to change and records the right one.
            IF NOT v_caught_up AND NOT r.pending AND r.next_at IS NOT NULL AND r.next_at > v_at
               AND (v_next IS NULL OR v_next >= r.next_at) THEN
                RETURN;
            END IF;
        ELSE
            v_close := ARRAY(SELECT x FROM unnest(r.have) x WHERE NOT x = ANY (v_want));
            v_open := ARRAY(SELECT x FROM unnest(v_want) x WHERE NOT x = ANY (r.have));
        END IF;
    END IF;
    -- History is exact up to v_at: close the states that no longer hold and open those that now do,
    -- at v_at, with their feed rows in the same statement (closings first, as the feed's triggers
    -- order them), which the feed's triggers then skip.
    IF cardinality(v_close) > 0 OR cardinality(v_open) > 0 THEN
        PERFORM set_config('console.feed_written', 'on', true);
        WITH closed AS (
            UPDATE object_state os SET valid_to = greatest(os.valid_from, v_at AT TIME ZONE 'UTC')
             WHERE os.object_id = p_id AND os.valid_to IS NULL AND os.state_id = ANY (v_close)
            RETURNING os.id, os.state_id, os.valid_to AS at
        ), opened AS (
            INSERT INTO object_state (object_id, state_id, valid_from)
            SELECT p_id, x, v_at AT TIME ZONE 'UTC' FROM unnest(v_open) x
            RETURNING id, state_id, valid_from AS at
        )
        INSERT INTO console.state_changes (object_id, state_id, change, at)
        SELECT p_id, f.state_id, f.change, f.at AT TIME ZONE 'UTC'
          FROM (SELECT c.id, c.state_id, 'left' AS change, c.at FROM closed c
                UNION ALL SELECT o.id, o.state_id, 'entered', o.at FROM opened o) f
         WHERE coalesce(current_setting('registry.state_feed', true), '') <> 'off'
         ORDER BY f.at, f.id, f.change;
        PERFORM set_config('console.feed_written', '', true);
    END IF;
    INSERT INTO console.state_next_event (object_id, next_at, exact_to) VALUES (p_id, v_next, v_at)
        ON CONFLICT (object_id) DO UPDATE SET next_at = excluded.next_at, exact_to = excluded.exact_to;
END
$function$;

CREATE OR REPLACE FUNCTION console.state_engine_run(p_at timestamp with time zone DEFAULT now(), p_full boolean DEFAULT false, p_object_id integer DEFAULT NULL::integer)
 RETURNS TABLE(kind text, objects integer, opened integer, closed integer, cursor_before timestamp with time zone, cursor_after timestamp with time zone)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET "TimeZone" TO 'UTC'
AS $function$
DECLARE
    v_cursor timestamptz;
    v_w timestamptz;
    v_started timestamptz := clock_timestamp();
    v_objects integer;
    v_opened integer;
    v_closed integer;
    v_ids integer[];
    v_pending tid[];
BEGIN
    IF p_at IS NULL OR NOT isfinite(p_at) THEN
        RAISE EXCEPTION 'state engine: the instant to run at must be a finite time, not %', p_at
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- Beside and in shadow FRED's update_object_states writes object_state: the console's engine
    -- (states:update, a bench, a caller of state_engine_run_now) would write a second history into it.
    IF EXISTS (SELECT FROM console.registry_origin o WHERE o.mode <> 'charge') THEN
        RAISE EXCEPTION 'state engine: the registry is in % mode, where FRED''s own update_object_states writes object_state; the console''s engine runs only in charge (npm run db:adopt -- --mode charge)',
            (SELECT o.mode FROM console.registry_origin o)
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;

    IF p_object_id IS NOT NULL THEN
        SELECT e.cursor INTO v_cursor FROM console.state_engine e;
        IF NOT pg_try_advisory_xact_lock_shared(7353002, 0) THEN
            RETURN QUERY SELECT 'busy'::text, 0, 0, 0, v_cursor, v_cursor;
            RETURN;
        END IF;
        PERFORM console.state_object_row_lock(p_object_id);
        v_w := console.state_exact_to(p_object_id);
        IF p_at < v_w THEN
            RETURN QUERY SELECT 'object'::text, 0, 0, 0, v_cursor, v_cursor;
            RETURN;
        END IF;
        SELECT a.opened, a.closed INTO v_opened, v_closed FROM console.state_object_apply(p_object_id, v_w, p_at, false) a;
        RETURN QUERY SELECT 'object'::text, 1, v_opened, v_closed, v_cursor, v_cursor;
        RETURN;
    END IF;

    IF NOT pg_try_advisory_xact_lock(7353002, 1) THEN
        RETURN QUERY SELECT 'busy'::text, 0, 0, 0, NULL::timestamptz, NULL::timestamptz;
        RETURN;
    END IF;
    -- Waits only for per-object work already under way (short); from here on, new per-object work
    -- does not wait for this run but leaves its change pending for the next one.
    PERFORM pg_advisory_xact_lock(7353002, 0);
    SELECT e.cursor, e.full_run_due OR p_full INTO v_cursor, p_full FROM console.state_engine e FOR UPDATE;
    IF v_cursor IS NOT NULL AND p_at < v_cursor THEN
        RETURN QUERY SELECT 'behind'::text, 0, 0, 0, v_cursor, v_cursor;
        RETURN;
    END IF;

    PERFORM console.state_work_tables();
    SELECT array_agg(sp.ctid) INTO v_pending FROM console.state_pending sp;
    IF p_full OR v_cursor IS NULL THEN
        INSERT INTO pg_temp.state_work (object_id, w)
        SELECT o.id, coalesce(greatest(v_cursor, ne.exact_to, sp.at), v_cursor, '-infinity')
          FROM object_registry o LEFT JOIN console.state_next_event ne ON ne.object_id = o.id
          LEFT JOIN (SELECT p.object_id, min(p.at) AS at FROM console.state_pending p WHERE p.ctid = ANY (v_pending)
                      GROUP BY p.object_id) sp ON sp.object_id = o.id
         WHERE greatest(ne.exact_to, sp.at) IS NULL OR greatest(ne.exact_to, sp.at) <= p_at;
        v_ids := NULL;
    ELSE
        -- A pending change counts from its instant: until then the object's data was as the run
        -- that held the engine saw it.
        INSERT INTO pg_temp.state_work (object_id, w)
        SELECT x.object_id, greatest(v_cursor, max(ne.exact_to), min(x.at))
          FROM (SELECT ne.object_id, NULL::timestamptz AS at FROM console.state_next_event ne WHERE ne.next_at <= p_at
                UNION ALL
                SELECT sp.object_id, sp.at FROM console.state_pending sp WHERE sp.ctid = ANY (v_pending)) x
          LEFT JOIN console.state_next_event ne ON ne.object_id = x.object_id
         GROUP BY x.object_id
        HAVING coalesce(greatest(v_cursor, max(ne.exact_to), min(x.at)), '-infinity') <= p_at;
        SELECT coalesce(array_agg(sw.object_id), '{}') INTO v_ids FROM pg_temp.state_work sw;
    END IF;
    SELECT count(*) INTO v_objects FROM pg_temp.state_work;

    SELECT a.opened, a.closed INTO v_opened, v_closed FROM console.state_apply(p_at, v_ids) a;

    -- A change left pending while a run held the engine did not mark the object's plan (its trigger
    -- stopped at state_engine_open): once no longer pending, the plan's next pass writes it again.
    WITH done AS (
        DELETE FROM console.state_pending sp
         WHERE sp.ctid = ANY (v_pending) AND sp.object_id IN (SELECT sw.object_id FROM pg_temp.state_work sw)
        RETURNING sp.object_id
    )
    INSERT INTO console.state_plan_stale (object_id) SELECT DISTINCT done.object_id FROM done;
    -- A full run follows a change the marks did not see (a load with registry.state_marks off, a
    -- migration): the plan is written again as a whole.
    IF v_ids IS NULL THEN
        UPDATE console.state_plan_status SET built_at = NULL;
    END IF;
    UPDATE console.state_engine e
       SET cursor = p_at,
           full_run_due = false,
           last_run_kind = CASE WHEN v_ids IS NULL THEN 'full' ELSE 'incremental' END,
           last_run_at = now(),
           last_run_finished_at = clock_timestamp(),
           last_run_objects = v_objects,
           last_run_opened = v_opened,
           last_run_closed = v_closed,
           last_run_ms = round(extract(epoch FROM clock_timestamp() - v_started)::numeric * 1000, 1);
    TRUNCATE pg_temp.state_work, pg_temp.state_desired;
    RETURN QUERY SELECT CASE WHEN v_ids IS NULL THEN 'full' ELSE 'incremental' END, v_objects, v_opened, v_closed, v_cursor, p_at;
END
$function$;

CREATE OR REPLACE FUNCTION console.state_parameters_changed()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM console.state_parameters_compile();
    PERFORM console.state_triggers_compile();
    -- Every object's periods ahead follow from the parameters: the stored plan is written again.
    UPDATE console.state_plan_status SET built_at = NULL;
    RETURN NULL;
END
$function$;
