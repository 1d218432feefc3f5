-- The state engine: the state rules as SQL, and a materialiser that turns them into exact state
-- history in FRED's object_state. Everything here is the console's own (schema console), except
-- the triggers it puts on FRED's tables (all named console_*) and FRED's entry point
-- update_object_states(integer), which it takes over in place (same signature, same meaning).
--
-- Time. FRED stores instants as `timestamp` holding UTC wall-clock time. The engine computes in
-- timestamptz and converts at the edge, always explicitly: `col AT TIME ZONE 'UTC'` reads a FRED
-- instant, `instant AT TIME ZONE 'UTC'` writes one. No result depends on the session's TimeZone
-- (FRED's cron may call in with Europe/Prague); the entry points also pin it to UTC, so a
-- conversion forgotten here cannot change a result either.
--
-- How it works, in one paragraph. For a set of objects, console.object_state_periods() returns,
-- per object and state, the periods during which the state must hold, given the object's data as it
-- is now: threshold instants of date rules, request periods, structural facts, all cut to the
-- object's life [crdate, erdate). The materialiser compares those periods with object_state from
-- each object's "window start" w (history before w is final and never rewritten) up to the run's
-- instant, closing and opening rows at the exact instants where the periods begin and end. Every
-- object's history is exact up to the engine's cursor; an object changed since then carries a mark
-- (console.state_marks) with the instant up to which it is exact. Before a change to an input is
-- written, a trigger first brings that object's history up to the change with the data as it was,
-- then marks it; so a state change is recorded at the instant of the structural change even when
-- the scheduler runs later. The next instant at which each object's states change is kept in
-- console.state_next_event, so a scheduled run touches only the objects that are due.

-- The automatic states these rules compute. The engine opens and closes rows of these and of the
-- manual states (from requests) only; a state it does not compute is never touched.
CREATE FUNCTION console.engine_automatic_states() RETURNS integer[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT '{8,9,10,11,12,13,14,15,16,17}'::integer[]
$$;

-- FRED's parameters, from where FRED reads them (enum_parameters by id): the registry's zone (10),
-- the hour of the daily procedure (9: deleteCandidate) and of the outzone procedure (14: unguarded,
-- notValidated), and the months an unlinked contact, nsset or keyset is kept (11).
CREATE FUNCTION console.state_parameters(
    OUT zone text, OUT day_hour integer, OUT outzone_hour integer, OUT protection_months integer)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT max(val) FILTER (WHERE id = 10),
           coalesce(max(val) FILTER (WHERE id = 9), '0')::integer,
           coalesce(max(val) FILTER (WHERE id = 14), max(val) FILTER (WHERE id = 9), '0')::integer,
           coalesce(max(val) FILTER (WHERE id = 11), '6')::integer
      FROM enum_parameters WHERE id IN (9, 10, 11, 14)
$$;

-- The first calendar date d with p_at <= d (a date compared with a timestamp is its midnight).
CREATE FUNCTION console.first_date_from(p_at timestamp) RETURNS date
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN p_at = p_at::date THEN p_at::date ELSE p_at::date + 1 END
$$;

-- Domain lifecycle periods as FRED reads them: the domain_lifecycle_parameters row valid for the
-- domain's expiration date (the newest with valid_for_exdate_after <= exdate; before the first row,
-- the first row). Each row's span [from, until) over expiration dates.
CREATE FUNCTION console.lifecycle_periods()
RETURNS TABLE (valid_from date, valid_until date, notify interval, dns interval, registration interval,
               validation1 interval, validation2 interval)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN row_number() OVER w = 1 THEN '-infinity'::date ELSE console.first_date_from(l.valid_for_exdate_after) END,
           coalesce(console.first_date_from(lead(l.valid_for_exdate_after) OVER w), 'infinity'::date),
           l.expiration_notify_period, l.expiration_dns_protection_period, l.expiration_registration_protection_period,
           l.validation_notify1_period, l.validation_notify2_period
      FROM domain_lifecycle_parameters l
    WINDOW w AS (ORDER BY l.valid_for_exdate_after)
$$;

-- The instant a calendar day's hour begins in the registry's zone (DST-correct: 00:00 and 14:00
-- exist on every day in zones that shift at night).
CREATE FUNCTION console.registry_instant(p_day date, p_hour integer, p_zone text) RETURNS timestamptz
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT (p_day + make_interval(hours => p_hour)) AT TIME ZONE p_zone
$$;

-- From an instant on, for ever; nothing when there is no instant (no validation date, say).
CREATE FUNCTION console.state_from(p_start timestamptz) RETURNS tstzmultirange
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN p_start IS NULL THEN '{}'::tstzmultirange ELSE tstzmultirange(tstzrange(p_start, NULL)) END
$$;

-- An object's life [crdate, erdate) as a multirange, to cut periods to it.
CREATE FUNCTION console.state_life(p_crdate timestamptz, p_erdate timestamptz) RETURNS tstzmultirange
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT tstzmultirange(tstzrange(p_crdate, p_erdate, '[)'))
$$;

-- A request's effective period [valid_from, LEAST(canceled, valid_to)), in FRED's UTC timestamps;
-- empty when canceled before it started (it never takes effect).
CREATE FUNCTION console.request_period(p_from timestamp, p_to timestamp, p_canceled timestamp) RETURNS tsrange
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN p_canceled IS NULL AND p_to IS NULL THEN tsrange(p_from, NULL, '[)')
                ELSE tsrange(p_from, greatest(p_from, least(coalesce(p_canceled, 'infinity'), coalesce(p_to, 'infinity'))), '[)')
           END
$$;

-- The engine's own bookkeeping.
CREATE TABLE console.state_engine (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    -- Every object's history is exact up to this instant (marked objects: up to their mark).
    cursor timestamptz,
    last_run_kind text,
    last_run_at timestamptz,
    last_run_finished_at timestamptz,
    last_run_objects integer,
    last_run_opened integer,
    last_run_closed integer,
    last_run_ms numeric,
    -- The next run computes every object (set when the console adopts a registry with history).
    full_run_due boolean NOT NULL DEFAULT false
);

-- A registry that already has state history (FRED's, adopted) keeps it as it is: the console's
-- history starts now, and its first run compares every object with the rules at this instant.
INSERT INTO console.state_engine (cursor, full_run_due)
SELECT CASE WHEN EXISTS (SELECT FROM object_state) THEN now() END, EXISTS (SELECT FROM object_state);

-- Objects whose history is exact up to processed_to (not the cursor) and which the next run must
-- look at: their inputs changed at processed_to, or a per-object run took them past the cursor.
CREATE TABLE console.state_marks (
    object_id integer PRIMARY KEY,
    processed_to timestamptz NOT NULL
);

-- The next instant at which an object's states change if nothing else changes.
CREATE TABLE console.state_next_event (
    object_id integer PRIMARY KEY,
    next_at timestamptz NOT NULL
);

CREATE INDEX state_next_event_next_at_idx ON console.state_next_event (next_at);

-- The instant the engine takes as "now" in triggers; tests and an injected clock may set
-- registry.state_clock for their transaction.
CREATE FUNCTION console.state_clock() RETURNS timestamptz
LANGUAGE sql STABLE AS $$
    SELECT coalesce(nullif(current_setting('registry.state_clock', true), '')::timestamptz, now())
$$;

-- THE RULES. For the objects in p_ids (NULL: every object), the periods [valid_from, valid_to)
-- during which each state must hold, from the objects' data as it is now. An object and state may
-- have several periods; they never overlap. State ids are FRED's (STATES.md). Each input is
-- filtered by p_ids directly (constant-folded away in a full run); "linked" is a hashed membership
-- test per referencing column.
CREATE FUNCTION console.object_state_periods(p_ids integer[] DEFAULT NULL)
RETURNS TABLE (object_id integer, state_id integer, valid_from timestamptz, valid_to timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
WITH p AS (SELECT * FROM console.state_parameters()),
-- A request holds over [valid_from, LEAST(canceled, valid_to)); only manual states valid for the
-- object's type count, and a request canceled before its start never holds.
request AS NOT MATERIALIZED (
    SELECT r.object_id, r.state_id, o.crdate AT TIME ZONE 'UTC' AS crdate, o.erdate AT TIME ZONE 'UTC' AS erdate,
           tstzrange(r.valid_from AT TIME ZONE 'UTC',
                     nullif(least(coalesce(r.canceled, 'infinity'), coalesce(r.valid_to, 'infinity')), 'infinity') AT TIME ZONE 'UTC',
                     '[)') AS period
      FROM object_state_request r
      JOIN object_registry o ON o.id = r.object_id
      JOIN enum_object_states s ON s.id = r.state_id AND s.manual AND o.type = ANY (s.types)
     WHERE (p_ids IS NULL OR r.object_id = ANY (p_ids))
       AND least(coalesce(r.canceled, 'infinity'), coalesce(r.valid_to, 'infinity')) > r.valid_from
),
-- The manual states the automatic rules depend on, one row per object that has any of them.
guard AS MATERIALIZED (
    SELECT request.object_id,
           coalesce(range_agg(period) FILTER (WHERE request.state_id = 1), '{}') AS delete_prohibited,
           coalesce(range_agg(period) FILTER (WHERE request.state_id = 2), '{}') AS renew_prohibited,
           coalesce(range_agg(period) FILTER (WHERE request.state_id = 5), '{}') AS outzone_manual,
           coalesce(range_agg(period) FILTER (WHERE request.state_id = 6), '{}') AS inzone_manual
      FROM request WHERE request.state_id IN (1, 2, 5, 6) GROUP BY request.object_id
),
-- The threshold instants of a domain's date rules (NULL: the rule never applies), with the
-- lifecycle periods valid for its expiration date.
dom AS NOT MATERIALIZED (
    SELECT d.id, o.crdate AT TIME ZONE 'UTC' AS crdate, o.erdate AT TIME ZONE 'UTC' AS erdate, d.nsset IS NULL AS nsset_missing,
           console.registry_instant((d.exdate + l.notify)::date, 0, p.zone) AS expiration_warning,
           console.registry_instant(d.exdate, 0, p.zone) AS expired,
           console.registry_instant((d.exdate + l.dns)::date, p.outzone_hour, p.zone) AS unguarded,
           console.registry_instant((d.exdate + l.registration)::date, p.day_hour, p.zone) AS delete_candidate,
           console.registry_instant((e.exdate + l.validation1)::date, 0, p.zone) AS validation_warning1,
           console.registry_instant((e.exdate + l.validation2)::date, 0, p.zone) AS validation_warning2,
           console.registry_instant(e.exdate, p.outzone_hour, p.zone) AS not_validated,
           g.object_id IS NOT NULL AS guarded,
           g.delete_prohibited, g.renew_prohibited, g.outzone_manual, g.inzone_manual
      FROM domain d
      JOIN object_registry o ON o.id = d.id
      CROSS JOIN p
      JOIN console.lifecycle_periods() l ON d.exdate >= l.valid_from AND d.exdate < l.valid_until
      LEFT JOIN enumval e ON e.domainid = d.id
      LEFT JOIN guard g ON g.object_id = d.id
     WHERE p_ids IS NULL OR d.id = ANY (p_ids)
),
-- Most domains have no request the rules depend on: each state then holds from its threshold
-- (or the domain's creation, if later) to the domain's deletion. outzone = nssetMissing OR
-- unguarded OR notValidated, whichever comes first.
plain_domain AS (
    SELECT dom.id AS object_id, v.state_id, greatest(v.since, dom.crdate) AS valid_from, dom.erdate AS valid_to
      FROM dom
     CROSS JOIN LATERAL (VALUES
           (8, dom.expiration_warning),
           (9, dom.expired),
           (10, dom.unguarded),
           (11, dom.validation_warning1),
           (12, dom.validation_warning2),
           (13, dom.not_validated),
           (14, CASE WHEN dom.nsset_missing THEN dom.crdate END),
           (15, CASE WHEN dom.nsset_missing THEN dom.crdate ELSE least(dom.unguarded, dom.not_validated) END),
           (17, dom.delete_candidate)
     ) AS v (state_id, since)
     WHERE NOT dom.guarded AND v.since IS NOT NULL
       AND (dom.erdate IS NULL OR greatest(v.since, dom.crdate) < dom.erdate)
),
-- The others, with period arithmetic. serverRenewProhibited takes a domain out of the expiry
-- flow; serverDeleteProhibited keeps it from becoming a delete candidate (FRED);
-- outzone = nssetMissing OR serverOutzoneManual OR ((unguarded OR notValidated) AND NOT serverInzoneManual).
flow AS (
    SELECT dom.id, console.state_life(dom.crdate, dom.erdate) AS life, dom.outzone_manual, dom.inzone_manual,
           console.state_from(dom.expiration_warning) - dom.renew_prohibited AS ew,
           console.state_from(dom.expired) - dom.renew_prohibited AS ex,
           console.state_from(dom.unguarded) - dom.renew_prohibited AS ug,
           console.state_from(dom.delete_candidate) - dom.renew_prohibited - dom.delete_prohibited AS dc,
           console.state_from(dom.validation_warning1) AS vw1,
           console.state_from(dom.validation_warning2) AS vw2,
           console.state_from(dom.not_validated) AS nv,
           CASE WHEN dom.nsset_missing THEN '{(,)}'::tstzmultirange ELSE '{}'::tstzmultirange END AS nm
      FROM dom WHERE dom.guarded
),
guarded_domain AS (
    SELECT flow.id AS object_id, v.state_id, v.periods * flow.life AS periods
      FROM flow
     CROSS JOIN LATERAL (VALUES
           (8, flow.ew), (9, flow.ex), (10, flow.ug), (11, flow.vw1), (12, flow.vw2), (13, flow.nv), (14, flow.nm),
           (15, flow.nm + flow.outzone_manual + ((flow.ug + flow.nv) - flow.inzone_manual)),
           (17, flow.dc)
     ) AS v (state_id, periods)
),
manual AS (
    SELECT request.object_id, request.state_id,
           range_agg(request.period) * console.state_life(min(request.crdate), min(request.erdate)) AS periods
      FROM request GROUP BY request.object_id, request.state_id
),
-- linked (contact, nsset, keyset): referenced by a domain (registrant, nsset, keyset, admin/temp
-- contact) or by an nsset/keyset contact map.
linkable AS MATERIALIZED (
    SELECT o.id, o.crdate AT TIME ZONE 'UTC' AS crdate, o.erdate AT TIME ZONE 'UTC' AS erdate,
           (o.id IN (SELECT d.registrant FROM domain d) OR o.id IN (SELECT d.nsset FROM domain d WHERE d.nsset IS NOT NULL)
            OR o.id IN (SELECT d.keyset FROM domain d WHERE d.keyset IS NOT NULL) OR o.id IN (SELECT m.contactid FROM domain_contact_map m)
            OR o.id IN (SELECT m.contactid FROM nsset_contact_map m) OR o.id IN (SELECT m.contactid FROM keyset_contact_map m)) AS linked
      FROM object_registry o
     WHERE o.type IN (1, 2, 4) AND (p_ids IS NULL OR o.id = ANY (p_ids))
),
-- deleteCandidate (contact, nsset, keyset): unlinked, and the protection months (at the day hour)
-- after the latest of creation, the last time it was linked and its last update (FRED). A linked
-- row still open belongs to an object unlinked since the engine last saw it: it was last linked
-- when its window starts.
unlinked AS (
    SELECT l.id, l.crdate, l.erdate, ob.update AT TIME ZONE 'UTC' AS updated,
           CASE WHEN EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = l.id AND os.state_id = 16 AND os.valid_to IS NULL)
                THEN (SELECT greatest(e.cursor, m.processed_to)
                        FROM console.state_engine e LEFT JOIN console.state_marks m ON m.object_id = l.id)
                ELSE (SELECT max(os.valid_to) AT TIME ZONE 'UTC' FROM object_state os WHERE os.object_id = l.id AND os.state_id = 16)
           END AS last_linked
      FROM linkable l LEFT JOIN object ob ON ob.id = l.id
     WHERE NOT l.linked
),
candidate AS (
    SELECT u.id AS object_id,
           (console.state_from(console.registry_instant(
                (greatest((u.crdate AT TIME ZONE p.zone)::date, (u.last_linked AT TIME ZONE p.zone)::date,
                          (u.updated AT TIME ZONE p.zone)::date)
                 + make_interval(months => p.protection_months))::date,
                p.day_hour, p.zone))
            - coalesce(g.delete_prohibited, '{}')) * console.state_life(u.crdate, u.erdate) AS periods
      FROM unlinked u CROSS JOIN p LEFT JOIN guard g ON g.object_id = u.id
),
ranged AS (
    SELECT guarded_domain.object_id, guarded_domain.state_id, guarded_domain.periods FROM guarded_domain
    UNION ALL
    SELECT manual.object_id, manual.state_id, manual.periods FROM manual
    UNION ALL
    SELECT candidate.object_id, 17, candidate.periods FROM candidate
)
SELECT plain_domain.object_id, plain_domain.state_id, plain_domain.valid_from, plain_domain.valid_to FROM plain_domain
UNION ALL
SELECT l.id, 16, l.crdate, l.erdate FROM linkable l WHERE l.linked AND (l.erdate IS NULL OR l.erdate > l.crdate)
UNION ALL
SELECT ranged.object_id, ranged.state_id, lower(period), upper(period)
  FROM ranged CROSS JOIN LATERAL unnest(ranged.periods) AS period
$$;

-- Work tables of one engine call (per session; emptied by every call). Quiet: FRED's cron mails
-- what its session prints, and "already exists, skipping" on every second call is no news.
CREATE FUNCTION console.state_work_tables() RETURNS void
LANGUAGE plpgsql SET client_min_messages = warning AS $$
BEGIN
    CREATE TEMP TABLE IF NOT EXISTS state_work (object_id integer PRIMARY KEY, w timestamptz NOT NULL);
    CREATE TEMP TABLE IF NOT EXISTS state_desired (
        object_id integer NOT NULL, state_id integer NOT NULL, lo timestamptz NOT NULL, hi timestamptz, w timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS state_desired_key ON pg_temp.state_desired (object_id, state_id);
    TRUNCATE pg_temp.state_work, pg_temp.state_desired;
END
$$;

-- Brings object_state in line with the rules for the objects in state_work, each from its window
-- start w up to p_at. History before w is never changed, nor any row of a state the engine does not
-- compute. p_ids: the same objects, or NULL for all. JIT is off: the planner's estimates for
-- multirange work are far too high and JIT compilation then costs more than the run itself; work_mem
-- for its hash tables (a full run at 1.5M domains spilled to disk with 4MB).
CREATE FUNCTION console.state_apply(p_at timestamptz, p_ids integer[], OUT opened integer, OUT closed integer)
LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan SET jit = off SET work_mem = '256MB' AS $$
DECLARE
    v_rows integer;
BEGIN
    INSERT INTO pg_temp.state_desired (object_id, state_id, lo, hi, w)
    SELECT r.object_id, r.state_id, r.valid_from, r.valid_to, sw.w
      FROM console.object_state_periods(p_ids) r
      JOIN pg_temp.state_work sw ON sw.object_id = r.object_id
     WHERE r.valid_to IS NULL OR r.valid_to > sw.w;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    IF v_rows > 5000 THEN
        ANALYZE pg_temp.state_work;
        ANALYZE pg_temp.state_desired;
    END IF;

    -- An open row continues while its state's period that contains w lasts; it closes where that
    -- period ends (if by p_at), or at w when the state does not hold at w.
    WITH closing AS (
        SELECT os.id, greatest(os.valid_from AT TIME ZONE 'UTC', coalesce(c.hi, sw.w)) AS valid_to
          FROM object_state os
          JOIN pg_temp.state_work sw ON sw.object_id = os.object_id
          LEFT JOIN pg_temp.state_desired c
                 ON c.object_id = os.object_id AND c.state_id = os.state_id AND c.lo <= sw.w
         WHERE os.valid_to IS NULL
           AND (os.state_id = ANY (console.engine_automatic_states())
                OR os.state_id IN (SELECT s.id FROM enum_object_states s WHERE s.manual))
           AND (c.object_id IS NULL OR c.hi <= p_at)
    )
    UPDATE object_state os SET valid_to = closing.valid_to AT TIME ZONE 'UTC' FROM closing WHERE os.id = closing.id;
    GET DIAGNOSTICS closed = ROW_COUNT;

    -- Periods that begin after w open rows at their start; a period that already held at w opens
    -- one at w unless a row covers w. Periods that also end by p_at are written closed. A row still
    -- open (one an adopted registry stamped after w, say) already says the state holds: no second.
    INSERT INTO object_state (object_id, state_id, valid_from, valid_to)
    SELECT d.object_id, d.state_id, greatest(d.lo, d.w) AT TIME ZONE 'UTC', CASE WHEN d.hi <= p_at THEN d.hi AT TIME ZONE 'UTC' END
      FROM pg_temp.state_desired d
     WHERE d.lo <= p_at
       AND (d.lo > d.w OR NOT EXISTS (
               SELECT 1 FROM object_state os
                WHERE os.object_id = d.object_id AND os.state_id = d.state_id
                  AND os.valid_from <= d.w AT TIME ZONE 'UTC' AND (os.valid_to IS NULL OR os.valid_to > d.w AT TIME ZONE 'UTC')))
       AND (d.hi <= p_at OR NOT EXISTS (
               SELECT 1 FROM object_state os
                WHERE os.object_id = d.object_id AND os.state_id = d.state_id AND os.valid_to IS NULL));
    GET DIAGNOSTICS opened = ROW_COUNT;

    -- When each object's states change next, if nothing else changes.
    IF p_ids IS NULL THEN
        TRUNCATE console.state_next_event;
    ELSE
        DELETE FROM console.state_next_event ne USING pg_temp.state_work sw WHERE ne.object_id = sw.object_id;
    END IF;
    INSERT INTO console.state_next_event (object_id, next_at)
    SELECT x.object_id, min(x.at)
      FROM (SELECT d.object_id, d.lo AS at FROM pg_temp.state_desired d WHERE d.lo > p_at
            UNION ALL
            SELECT d.object_id, d.hi FROM pg_temp.state_desired d WHERE d.hi > p_at) x
     GROUP BY x.object_id;
    IF p_ids IS NULL THEN
        -- A rebuilt table has no statistics yet; the next scheduled run must find its due rows by index.
        ANALYZE console.state_next_event;
    END IF;
END
$$;

-- One engine run.
--   p_object_id set: that object, from where its history is exact up to p_at (what the console
--     does in the transaction that creates or cancels a request, and what triggers do).
--   p_full: every object.  Otherwise: the marked objects and those whose next change is due.
-- Scheduled and full runs hold an exclusive engine lock and skip when another run holds it;
-- per-object runs share that lock and serialise per object, so they never interleave with a run.
-- SECURITY DEFINER: FRED's programs call it (update_object_states, the triggers) with their own
-- role, which need not have rights on schema console.
CREATE FUNCTION console.state_engine_run(p_at timestamptz DEFAULT now(), p_full boolean DEFAULT false, p_object_id integer DEFAULT NULL)
RETURNS TABLE (kind text, objects integer, opened integer, closed integer, cursor_before timestamptz, cursor_after timestamptz)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public SET TimeZone = 'UTC' AS $$
DECLARE
    v_cursor timestamptz;
    v_w timestamptz;
    v_started timestamptz := clock_timestamp();
    v_objects integer;
    v_opened integer;
    v_closed integer;
    v_ids integer[];
BEGIN
    IF p_at IS NULL OR NOT isfinite(p_at) THEN
        RAISE EXCEPTION 'state engine: the instant to run at must be a finite time, not %', p_at
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

    IF p_object_id IS NOT NULL THEN
        PERFORM pg_advisory_xact_lock_shared(7353002, 0);
        PERFORM pg_advisory_xact_lock(7353003, p_object_id);
        SELECT e.cursor INTO v_cursor FROM console.state_engine e;
        SELECT coalesce(greatest(v_cursor, m.processed_to), v_cursor, '-infinity') INTO v_w
          FROM (SELECT 1) one LEFT JOIN console.state_marks m ON m.object_id = p_object_id;
        IF p_at < v_w THEN
            RETURN QUERY SELECT 'object'::text, 0, 0, 0, v_cursor, v_cursor;
            RETURN;
        END IF;
        PERFORM console.state_work_tables();
        INSERT INTO pg_temp.state_work VALUES (p_object_id, v_w);
        SELECT a.opened, a.closed INTO v_opened, v_closed FROM console.state_apply(p_at, ARRAY[p_object_id]) a;
        IF v_cursor IS NULL OR p_at > v_cursor THEN
            INSERT INTO console.state_marks (object_id, processed_to) VALUES (p_object_id, p_at)
                ON CONFLICT (object_id) DO UPDATE SET processed_to = excluded.processed_to;
        END IF;
        RETURN QUERY SELECT 'object'::text, 1, v_opened, v_closed, v_cursor, v_cursor;
        RETURN;
    END IF;

    IF NOT pg_try_advisory_xact_lock(7353002, 1) THEN
        RETURN QUERY SELECT 'busy'::text, 0, 0, 0, NULL::timestamptz, NULL::timestamptz;
        RETURN;
    END IF;
    PERFORM pg_advisory_xact_lock(7353002, 0);
    SELECT e.cursor, e.full_run_due OR p_full INTO v_cursor, p_full FROM console.state_engine e FOR UPDATE;
    IF v_cursor IS NOT NULL AND p_at < v_cursor THEN
        -- The clock is behind the cursor: history up to the cursor is final, so nothing is due yet.
        RETURN QUERY SELECT 'behind'::text, 0, 0, 0, v_cursor, v_cursor;
        RETURN;
    END IF;

    PERFORM console.state_work_tables();
    IF p_full OR v_cursor IS NULL THEN
        INSERT INTO pg_temp.state_work (object_id, w)
        SELECT o.id, coalesce(greatest(v_cursor, m.processed_to), v_cursor, '-infinity')
          FROM object_registry o LEFT JOIN console.state_marks m ON m.object_id = o.id
         WHERE m.processed_to IS NULL OR m.processed_to <= p_at;
        v_ids := NULL;
    ELSE
        INSERT INTO pg_temp.state_work (object_id, w)
        SELECT x.object_id, greatest(v_cursor, max(x.processed_to))
          FROM (SELECT ne.object_id, NULL::timestamptz AS processed_to
                  FROM console.state_next_event ne WHERE ne.next_at <= p_at
                UNION ALL
                SELECT m.object_id, m.processed_to FROM console.state_marks m) x
         GROUP BY x.object_id
        HAVING greatest(v_cursor, max(x.processed_to)) <= p_at;
        SELECT coalesce(array_agg(sw.object_id), '{}') INTO v_ids FROM pg_temp.state_work sw;
    END IF;
    SELECT count(*) INTO v_objects FROM pg_temp.state_work;

    SELECT a.opened, a.closed INTO v_opened, v_closed FROM console.state_apply(p_at, v_ids) a;

    DELETE FROM console.state_marks m USING pg_temp.state_work sw
     WHERE m.object_id = sw.object_id AND m.processed_to <= p_at;
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
    -- Emptied now, not at the start of the next run: after a full run they hold millions of rows,
    -- and truncating them cost the next (idle) run 0.6 s at 1.5M domains.
    TRUNCATE pg_temp.state_work, pg_temp.state_desired;
    RETURN QUERY SELECT CASE WHEN v_ids IS NULL THEN 'full' ELSE 'incremental' END, v_objects, v_opened, v_closed, v_cursor, p_at;
END
$$;

-- Before an input of an object's states changes: bring its history up to this instant with the
-- data as it still is, then mark it for the next run. Bulk loads set registry.state_marks = off
-- and run a full recomputation afterwards.
CREATE FUNCTION console.state_mark(p_object_id integer) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public SET TimeZone = 'UTC' AS $$
DECLARE
    v_now timestamptz := console.state_clock();
BEGIN
    IF p_object_id IS NULL OR current_setting('registry.state_marks', true) = 'off' THEN
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM console.state_marks WHERE object_id = p_object_id AND processed_to = v_now) THEN
        RETURN;
    END IF;
    PERFORM console.state_engine_run(v_now, false, p_object_id);
    INSERT INTO console.state_marks (object_id, processed_to) VALUES (p_object_id, v_now)
        ON CONFLICT (object_id) DO UPDATE SET processed_to = excluded.processed_to;
END
$$;

CREATE FUNCTION console.state_mark_domain() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        PERFORM console.state_mark(OLD.id);
        PERFORM console.state_mark(OLD.registrant);
        PERFORM console.state_mark(OLD.nsset);
        PERFORM console.state_mark(OLD.keyset);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM console.state_mark(NEW.id);
        PERFORM console.state_mark(NEW.registrant);
        PERFORM console.state_mark(NEW.nsset);
        PERFORM console.state_mark(NEW.keyset);
        RETURN NEW;
    END IF;
    RETURN OLD;
END
$$;

CREATE TRIGGER console_state_mark BEFORE INSERT OR DELETE ON domain
    FOR EACH ROW EXECUTE FUNCTION console.state_mark_domain();
CREATE TRIGGER console_state_mark_update BEFORE UPDATE ON domain
    FOR EACH ROW
    WHEN (OLD.exdate IS DISTINCT FROM NEW.exdate OR OLD.nsset IS DISTINCT FROM NEW.nsset
          OR OLD.registrant IS DISTINCT FROM NEW.registrant OR OLD.keyset IS DISTINCT FROM NEW.keyset
          OR OLD.id IS DISTINCT FROM NEW.id)
    EXECUTE FUNCTION console.state_mark_domain();

-- Tables whose rows name one object that the change concerns: the column is the trigger's argument.
CREATE FUNCTION console.state_mark_column() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN PERFORM console.state_mark((to_jsonb(OLD) ->> TG_ARGV[0])::integer); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM console.state_mark((to_jsonb(NEW) ->> TG_ARGV[0])::integer); RETURN NEW; END IF;
    RETURN OLD;
END
$$;

CREATE TRIGGER console_state_mark BEFORE INSERT OR UPDATE OR DELETE ON enumval
    FOR EACH ROW EXECUTE FUNCTION console.state_mark_column('domainid');
CREATE TRIGGER console_state_mark BEFORE INSERT OR UPDATE OR DELETE ON domain_contact_map
    FOR EACH ROW EXECUTE FUNCTION console.state_mark_column('contactid');
CREATE TRIGGER console_state_mark BEFORE INSERT OR UPDATE OR DELETE ON nsset_contact_map
    FOR EACH ROW EXECUTE FUNCTION console.state_mark_column('contactid');
CREATE TRIGGER console_state_mark BEFORE INSERT OR UPDATE OR DELETE ON keyset_contact_map
    FOR EACH ROW EXECUTE FUNCTION console.state_mark_column('contactid');
-- object.update counts for an unlinked object's deleteCandidate.
CREATE TRIGGER console_state_mark BEFORE UPDATE OF update ON object
    FOR EACH ROW WHEN (OLD.update IS DISTINCT FROM NEW.update)
    EXECUTE FUNCTION console.state_mark_column('id');

CREATE FUNCTION console.state_mark_object_registry() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    PERFORM console.state_mark(NEW.id);
    RETURN NEW;
END
$$;

-- A new object is marked too: the engine has to learn its first states and next change.
CREATE TRIGGER console_state_mark BEFORE INSERT ON object_registry
    FOR EACH ROW EXECUTE FUNCTION console.state_mark_object_registry();
CREATE TRIGGER console_state_mark_update BEFORE UPDATE ON object_registry
    FOR EACH ROW WHEN (OLD.erdate IS DISTINCT FROM NEW.erdate OR OLD.crdate IS DISTINCT FROM NEW.crdate)
    EXECUTE FUNCTION console.state_mark_object_registry();

-- Requests: whoever writes a new one (the console, FRED's programs, raw SQL), the database refuses
-- a request the rules cannot honour, with a message naming the rule. These are checks of new and
-- changed rows, not constraints: rows a registry already holds stay as they are (db:check lists
-- them as inherited). A change that only shortens a request is always allowed.
CREATE FUNCTION console.object_state_request_check() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_object record;
    v_state record;
    v_other record;
    v_period tsrange := console.request_period(NEW.valid_from, NEW.valid_to, NEW.canceled);
BEGIN
    SELECT o.id, o.name, o.erdate, t.name AS type_name, o.type INTO v_object
      FROM object_registry o JOIN enum_object_type t ON t.id = o.type WHERE o.id = NEW.object_id;
    IF NOT FOUND THEN
        RETURN NEW;  -- the foreign key refuses it
    END IF;
    SELECT s.id, s.name, s.manual, s.types INTO v_state FROM enum_object_states s WHERE s.id = NEW.state_id;
    IF NOT FOUND THEN
        RETURN NEW;  -- the foreign key refuses it
    END IF;
    IF NEW.valid_to IS NOT NULL AND NEW.valid_to <= NEW.valid_from THEN
        RAISE EXCEPTION 'object_state_request: the end (% UTC) must be after the start (% UTC)', NEW.valid_to, NEW.valid_from
            USING ERRCODE = 'check_violation';
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.object_id = OLD.object_id AND NEW.state_id = OLD.state_id
       AND v_period <@ console.request_period(OLD.valid_from, OLD.valid_to, OLD.canceled) THEN
        RETURN NEW;
    END IF;
    IF NOT v_state.manual THEN
        RAISE EXCEPTION 'object_state_request: % is an automatic state; only manual states can be requested', v_state.name
            USING ERRCODE = 'check_violation';
    END IF;
    IF NOT v_object.type = ANY (v_state.types) THEN
        RAISE EXCEPTION 'object_state_request: % is not valid for a % (object %)', v_state.name, v_object.type_name, v_object.name
            USING ERRCODE = 'check_violation';
    END IF;
    IF TG_OP = 'INSERT' AND v_object.erdate IS NOT NULL THEN
        RAISE EXCEPTION 'object_state_request: object % was deleted on % UTC', v_object.name, v_object.erdate
            USING ERRCODE = 'check_violation';
    END IF;
    -- One writer per object at a time checks and writes, so two racing requests cannot both pass.
    -- The lock is one of 512 per object id (not one per object), so a transaction writing requests
    -- for 10,000 objects holds at most 512 entries of the server's lock table.
    PERFORM pg_advisory_xact_lock(7353004, NEW.object_id % 512);
    -- Two requests for the same state on the same object never hold at the same time (FRED's rule),
    -- and serverOutzoneManual (5) and serverInzoneManual (6) never hold together on one domain (FRED
    -- lets them, and outzone wins; here the second is refused).
    SELECT r.id, r.state_id INTO v_other
      FROM object_state_request r
     WHERE r.object_id = NEW.object_id AND r.id IS DISTINCT FROM NEW.id
       AND (r.state_id = NEW.state_id OR (NEW.state_id IN (5, 6) AND r.state_id IN (5, 6)))
       AND console.request_period(r.valid_from, r.valid_to, r.canceled) && v_period
     ORDER BY r.state_id = NEW.state_id DESC, r.id
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'object_state_request: request % for % overlaps request % on object %',
                        coalesce(NEW.id::text, '(new)'), v_state.name, v_other.id, v_object.name
            USING ERRCODE = 'exclusion_violation',
                  CONSTRAINT = CASE WHEN v_other.state_id = NEW.state_id THEN 'object_state_request_no_overlap'
                                    ELSE 'object_state_request_zone_exclusive' END;
    END IF;
    RETURN NEW;
END
$$;

-- Triggers of one event fire in name order: the check before the mark.
CREATE TRIGGER console_1_request_check BEFORE INSERT OR UPDATE OF object_id, state_id, valid_from, valid_to
    ON object_state_request FOR EACH ROW EXECUTE FUNCTION console.object_state_request_check();

CREATE TRIGGER console_2_state_mark BEFORE INSERT OR UPDATE OR DELETE ON object_state_request
    FOR EACH ROW EXECUTE FUNCTION console.state_mark_column('object_id');

-- The console's engine is the one that writes object_state. FRED's entry point keeps its signature
-- and meaning (0 = every object, else that object) for FRED's cron and registry server, and now runs
-- the console's engine at the current instant. Its previous definition is kept for db:unadopt.
CREATE TABLE console.replaced_fred_objects (
    kind text NOT NULL CHECK (kind IN ('function', 'trigger')),
    name text NOT NULL,
    -- The definition to restore: CREATE OR REPLACE FUNCTION …, or the table a disabled trigger is on.
    definition text NOT NULL,
    replaced_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kind, name)
);

INSERT INTO console.replaced_fred_objects (kind, name, definition)
SELECT 'function', 'update_object_states(integer)', pg_get_functiondef(to_regprocedure('public.update_object_states(integer)'))
 WHERE to_regprocedure('public.update_object_states(integer)') IS NOT NULL;

-- It keeps FRED's owner (CREATE OR REPLACE does), so it runs as its caller; FRED's roles reach the
-- engine through schema console, whose tables stay closed to them (the engine is SECURITY DEFINER).
GRANT USAGE ON SCHEMA console TO PUBLIC;

CREATE OR REPLACE FUNCTION public.update_object_states(integer) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, public SET TimeZone = 'UTC' AS $$
BEGIN
    -- Registry State Console: FRED's procedure replaced by the console's engine (exact instants).
    IF $1 = 0 THEN
        PERFORM console.state_engine_run(now(), true, NULL);
    ELSE
        PERFORM console.state_engine_run(now(), false, $1);
    END IF;
END
$$;

-- FRED's own triggers that write object_state (dependent outzone states, linked, the domain and
-- validation states) would be a second engine: each is disabled here, and the console_* trigger on
-- the same table does its work, at the exact instant. FRED's other triggers (history ids of
-- object_state rows, request locking, history records) stay and keep working.
DO $$
DECLARE
    t record;
BEGIN
    FOR t IN
        SELECT tg.tgname, tg.tgrelid::regclass::text AS tbl
          FROM pg_trigger tg
         WHERE NOT tg.tgisinternal
           AND (tg.tgname, tg.tgrelid) IN (('trigger_domain', to_regclass('public.domain')),
                                           ('trigger_enumval', to_regclass('public.enumval')),
                                           ('trigger_domain_contact_map', to_regclass('public.domain_contact_map')),
                                           ('trigger_nsset_contact_map', to_regclass('public.nsset_contact_map')),
                                           ('trigger_keyset_contact_map', to_regclass('public.keyset_contact_map')),
                                           ('trigger_object_state', to_regclass('public.object_state')))
    LOOP
        INSERT INTO console.replaced_fred_objects (kind, name, definition) VALUES ('trigger', t.tgname, t.tbl);
        EXECUTE format('ALTER TABLE %s DISABLE TRIGGER %I', t.tbl, t.tgname);
    END LOOP;
END
$$;
