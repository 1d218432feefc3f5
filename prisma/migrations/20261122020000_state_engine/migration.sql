-- The state engine: the rules of STATES.md as SQL, and a materialiser that turns them into exact
-- state history in object_state.
--
-- How it works, in one paragraph. For a set of objects, object_state_periods() returns, per object
-- and state, the *periods* during which the state must hold, given the object's
-- data as it is now: threshold instants of date rules, request periods, structural facts, all cut
-- to the object's life [crdate, erdate). The materialiser compares those periods with object_state
-- from each object's "window start" w (history before w is final and never rewritten) up to the
-- run's instant, closing and opening rows at the exact instants where the periods begin and end.
-- Every object's history is exact up to the engine's cursor; an object changed since then carries
-- a mark (console.state_marks) with the instant up to which it is exact. Before a change to an
-- input is written, a trigger first brings that object's history up to the change with the data
-- as it was, then marks it; so a state change is recorded at the instant of the structural change
-- even when the scheduler runs later. The next instant at which each object's states change is
-- kept in console.state_next_event, so a scheduled run touches only the objects that are due.

-- Parameters, with FRED's names and ids (enum_parameters). Periods in days unless said otherwise.
CREATE TABLE enum_parameters (
    id integer PRIMARY KEY,
    name varchar(100) NOT NULL UNIQUE,
    val varchar(100) NOT NULL,
    CONSTRAINT enum_parameters_integer_check CHECK (name = 'regular_day_procedure_zone' OR val ~ '^-?[0-9]+$')
);

INSERT INTO enum_parameters (id, name, val) VALUES
    (3, 'expiration_notify_period', '-30'),                  -- expirationWarning: exdate - 30 days
    (4, 'expiration_dns_protection_period', '30'),           -- unguarded: exdate + 30 days (at the day hour)
    (6, 'expiration_registration_protection_period', '45'),  -- deleteCandidate: exdate + 45 days (at the day hour)
    (7, 'validation_notify1_period', '-30'),                 -- validationWarning1: validation exdate - 30 days
    (8, 'validation_notify2_period', '-15'),                 -- validationWarning2: validation exdate - 15 days
    (9, 'regular_day_procedure_period', '14'),               -- the hour (local) at which "+14h" rules start
    (10, 'regular_day_procedure_zone', 'Europe/Prague'),     -- the registry's time zone for calendar dates
    (11, 'object_registration_protection_period', '6');      -- months an unlinked contact/nsset/keyset is kept

CREATE FUNCTION state_parameters(
    OUT notify_days integer, OUT dns_days integer, OUT delete_days integer,
    OUT validation1_days integer, OUT validation2_days integer,
    OUT day_hour integer, OUT zone text, OUT protection_months integer)
LANGUAGE sql STABLE AS $$
    SELECT max(val) FILTER (WHERE name = 'expiration_notify_period')::integer,
           max(val) FILTER (WHERE name = 'expiration_dns_protection_period')::integer,
           max(val) FILTER (WHERE name = 'expiration_registration_protection_period')::integer,
           max(val) FILTER (WHERE name = 'validation_notify1_period')::integer,
           max(val) FILTER (WHERE name = 'validation_notify2_period')::integer,
           max(val) FILTER (WHERE name = 'regular_day_procedure_period')::integer,
           max(val) FILTER (WHERE name = 'regular_day_procedure_zone'),
           max(val) FILTER (WHERE name = 'object_registration_protection_period')::integer
      FROM enum_parameters
$$;

-- The instant a calendar day's hour begins in the registry's zone (DST-correct: 00:00 and 14:00
-- exist on every day in zones that shift at night).
CREATE FUNCTION registry_instant(p_day date, p_hour integer, p_zone text) RETURNS timestamptz
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT (p_day + make_interval(hours => p_hour)) AT TIME ZONE p_zone
$$;

-- From an instant on, for ever; nothing when there is no instant (no validation date, say).
CREATE FUNCTION state_from(p_start timestamptz) RETURNS tstzmultirange
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN p_start IS NULL THEN '{}'::tstzmultirange ELSE tstzmultirange(tstzrange(p_start, NULL)) END
$$;

-- The engine's own bookkeeping lives with the console.
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
    last_run_ms numeric
);

INSERT INTO console.state_engine DEFAULT VALUES;

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

-- "When did this object stop being linked": closed rows of one state by end time.
CREATE INDEX object_state_closed_idx ON object_state (state_id, valid_to) WHERE valid_to IS NOT NULL;
-- Requests by start and end, for the history pages and the read API.
CREATE INDEX object_state_request_valid_to_idx ON object_state_request (valid_to) WHERE valid_to IS NOT NULL;

-- The instant the engine takes as "now" in triggers; tests and an injected clock may set
-- registry.state_clock for their transaction.
CREATE FUNCTION state_clock() RETURNS timestamptz
LANGUAGE sql STABLE AS $$
    SELECT coalesce(nullif(current_setting('registry.state_clock', true), '')::timestamptz, now())
$$;

-- THE RULES. For the objects in p_ids (NULL: every object), the periods [valid_from, valid_to)
-- during which each state must hold, from the objects' data as it is now. An object and state may
-- have several periods; they never overlap. State ids are FRED's (see STATES.md).
CREATE FUNCTION object_state_periods(p_ids integer[] DEFAULT NULL)
RETURNS TABLE (object_id integer, state_id integer, valid_from timestamptz, valid_to timestamptz)
LANGUAGE sql STABLE AS $$
WITH p AS (SELECT * FROM state_parameters()),
obj AS (
    SELECT o.id, o.type, o.crdate, o.erdate, tstzmultirange(tstzrange(o.crdate, o.erdate, '[)')) AS life
      FROM object_registry o
     WHERE p_ids IS NULL OR o.id = ANY (p_ids)
),
-- A request holds over [valid_from, LEAST(canceled, valid_to)); only manual states valid for the
-- object's type count, and a request canceled before its start never holds.
request AS (
    SELECT r.object_id, r.state_id,
           tstzrange(r.valid_from,
                     nullif(least(coalesce(r.canceled, 'infinity'), coalesce(r.valid_to, 'infinity')), 'infinity'),
                     '[)') AS period
      FROM object_state_request r
      JOIN obj ON obj.id = r.object_id
      JOIN enum_object_states s ON s.id = r.state_id AND s.manual AND obj.type = ANY (s.types)
     WHERE least(coalesce(r.canceled, 'infinity'), coalesce(r.valid_to, 'infinity')) > r.valid_from
),
manual AS (
    SELECT request.object_id, request.state_id, range_agg(period) AS periods
      FROM request GROUP BY request.object_id, request.state_id
),
-- The manual states the automatic rules depend on, one row per object that has any of them.
guard AS (
    SELECT request.object_id,
           coalesce(range_agg(period) FILTER (WHERE request.state_id = 1), '{}') AS delete_prohibited,
           coalesce(range_agg(period) FILTER (WHERE request.state_id = 2), '{}') AS renew_prohibited,
           coalesce(range_agg(period) FILTER (WHERE request.state_id = 5), '{}') AS outzone_manual,
           coalesce(range_agg(period) FILTER (WHERE request.state_id = 6), '{}') AS inzone_manual
      FROM request WHERE request.state_id IN (1, 2, 5, 6) GROUP BY request.object_id
),
-- The threshold instants of a domain's date rules (NULL: the rule never applies).
dom AS (
    SELECT d.id, obj.crdate, obj.erdate, obj.life, d.nsset IS NULL AS nsset_missing,
           registry_instant(d.exdate + p.notify_days, 0, p.zone) AS expiration_warning,
           registry_instant(d.exdate, 0, p.zone) AS expired,
           registry_instant(d.exdate + p.dns_days, p.day_hour, p.zone) AS unguarded,
           registry_instant(d.exdate + p.delete_days, p.day_hour, p.zone) AS delete_candidate,
           registry_instant(e.exdate + p.validation1_days, 0, p.zone) AS validation_warning1,
           registry_instant(e.exdate + p.validation2_days, 0, p.zone) AS validation_warning2,
           registry_instant(e.exdate, p.day_hour, p.zone) AS not_validated,
           g.object_id IS NOT NULL AS guarded,
           g.delete_prohibited, g.renew_prohibited, g.outzone_manual, g.inzone_manual
      FROM domain d
      JOIN obj ON obj.id = d.id
      CROSS JOIN p
      LEFT JOIN enumval e ON e.domainid = d.id
      LEFT JOIN guard g ON g.object_id = d.id
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
    SELECT dom.id, dom.life, dom.outzone_manual, dom.inzone_manual,
           state_from(dom.expiration_warning) - dom.renew_prohibited AS ew,
           state_from(dom.expired) - dom.renew_prohibited AS ex,
           state_from(dom.unguarded) - dom.renew_prohibited AS ug,
           state_from(dom.delete_candidate) - dom.renew_prohibited - dom.delete_prohibited AS dc,
           state_from(dom.validation_warning1) AS vw1,
           state_from(dom.validation_warning2) AS vw2,
           state_from(dom.not_validated) AS nv,
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
-- linked: referenced by a domain (registrant, nsset, keyset, admin/temp contact) or by an
-- nsset/keyset contact map.
referenced AS (
    SELECT d.registrant AS id FROM domain d JOIN obj ON obj.id = d.registrant
    UNION SELECT d.nsset FROM domain d JOIN obj ON obj.id = d.nsset
    UNION SELECT d.keyset FROM domain d JOIN obj ON obj.id = d.keyset
    UNION SELECT m.contactid FROM domain_contact_map m JOIN obj ON obj.id = m.contactid
    UNION SELECT m.contactid FROM nsset_contact_map m JOIN obj ON obj.id = m.contactid
    UNION SELECT m.contactid FROM keyset_contact_map m JOIN obj ON obj.id = m.contactid
),
linkable AS (
    SELECT obj.*, referenced.id IS NOT NULL AS linked
      FROM obj LEFT JOIN referenced ON referenced.id = obj.id
     WHERE obj.type IN (1, 2, 4)
),
-- deleteCandidate (contact, nsset, keyset): unlinked, and six months (at the day hour) after
-- the later of creation and the last time it was linked. A linked row still open belongs to an
-- object unlinked since the engine last saw it: it was last linked when its window starts.
unlinked AS (
    SELECT l.id, l.life, l.crdate,
           CASE WHEN EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = l.id AND os.state_id = 16 AND os.valid_to IS NULL)
                THEN (SELECT greatest(e.cursor, m.processed_to)
                        FROM console.state_engine e LEFT JOIN console.state_marks m ON m.object_id = l.id)
                ELSE (SELECT max(os.valid_to) FROM object_state os WHERE os.object_id = l.id AND os.state_id = 16)
           END AS last_linked
      FROM linkable l WHERE NOT l.linked
),
candidate AS (
    SELECT u.id AS object_id,
           (state_from(registry_instant(
                (greatest((u.crdate AT TIME ZONE p.zone)::date, (u.last_linked AT TIME ZONE p.zone)::date)
                 + make_interval(months => p.protection_months))::date,
                p.day_hour, p.zone))
            - coalesce(g.delete_prohibited, '{}')) * u.life AS periods
      FROM unlinked u CROSS JOIN p LEFT JOIN guard g ON g.object_id = u.id
),
ranged AS (
    SELECT object_id, state_id, periods FROM guarded_domain
    UNION ALL
    SELECT m.object_id, m.state_id, m.periods * obj.life FROM manual m JOIN obj ON obj.id = m.object_id
    UNION ALL
    SELECT object_id, 17, periods FROM candidate
)
SELECT plain_domain.object_id, plain_domain.state_id, plain_domain.valid_from, plain_domain.valid_to FROM plain_domain
UNION ALL
SELECT l.id, 16, l.crdate, l.erdate FROM linkable l WHERE l.linked AND (l.erdate IS NULL OR l.erdate > l.crdate)
UNION ALL
SELECT ranged.object_id, ranged.state_id, lower(period), upper(period)
  FROM ranged CROSS JOIN LATERAL unnest(ranged.periods) AS period
$$;

-- Work tables of one engine call (per session; emptied by every call).
CREATE FUNCTION state_work_tables() RETURNS void
LANGUAGE plpgsql AS $$
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
-- start w up to p_at. History before w is never changed. p_ids: the same objects, or NULL for all.
-- JIT is off: the planner's estimates for multirange work are far too high and JIT compilation
-- then costs more than the run itself.
CREATE FUNCTION state_apply(p_at timestamptz, p_ids integer[], OUT opened integer, OUT closed integer)
LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan SET jit = off AS $$
DECLARE
    v_rows integer;
BEGIN
    INSERT INTO pg_temp.state_desired (object_id, state_id, lo, hi, w)
    SELECT r.object_id, r.state_id, r.valid_from, r.valid_to, sw.w
      FROM object_state_periods(p_ids) r
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
        SELECT os.id, greatest(os.valid_from, coalesce(c.hi, sw.w)) AS valid_to
          FROM object_state os
          JOIN pg_temp.state_work sw ON sw.object_id = os.object_id
          LEFT JOIN pg_temp.state_desired c
                 ON c.object_id = os.object_id AND c.state_id = os.state_id AND c.lo <= sw.w
         WHERE os.valid_to IS NULL
           AND (c.object_id IS NULL OR c.hi <= p_at)
    )
    UPDATE object_state os SET valid_to = closing.valid_to FROM closing WHERE os.id = closing.id;
    GET DIAGNOSTICS closed = ROW_COUNT;

    -- Periods that begin after w open rows at their start; a period that already held at w opens
    -- one at w unless a row covers w. Periods that also end by p_at are written closed.
    INSERT INTO object_state (object_id, state_id, valid_from, valid_to)
    SELECT d.object_id, d.state_id, greatest(d.lo, d.w), CASE WHEN d.hi <= p_at THEN d.hi END
      FROM pg_temp.state_desired d
     WHERE d.lo <= p_at
       AND (d.lo > d.w OR NOT EXISTS (
               SELECT 1 FROM object_state os
                WHERE os.object_id = d.object_id AND os.state_id = d.state_id
                  AND os.valid_from <= d.w AND (os.valid_to IS NULL OR os.valid_to > d.w)));
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
END
$$;

-- One engine run.
--   p_object_id set: that object, from where its history is exact up to p_at (what the console
--     does in the transaction that creates or cancels a request, and what triggers do).
--   p_full: every object.  Otherwise: the marked objects and those whose next change is due.
-- Scheduled and full runs hold an exclusive engine lock and skip when another run holds it;
-- per-object runs share that lock and serialise per object, so they never interleave with a run.
CREATE FUNCTION state_engine_run(p_at timestamptz DEFAULT now(), p_full boolean DEFAULT false, p_object_id integer DEFAULT NULL)
RETURNS TABLE (kind text, objects integer, opened integer, closed integer, cursor_before timestamptz, cursor_after timestamptz)
LANGUAGE plpgsql AS $$
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
        PERFORM state_work_tables();
        INSERT INTO pg_temp.state_work VALUES (p_object_id, v_w);
        SELECT a.opened, a.closed INTO v_opened, v_closed FROM state_apply(p_at, ARRAY[p_object_id]) a;
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
    SELECT e.cursor INTO v_cursor FROM console.state_engine e FOR UPDATE;
    IF v_cursor IS NOT NULL AND p_at < v_cursor THEN
        -- The clock is behind the cursor: history up to the cursor is final, so nothing is due yet.
        RETURN QUERY SELECT 'behind'::text, 0, 0, 0, v_cursor, v_cursor;
        RETURN;
    END IF;

    PERFORM state_work_tables();
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

    SELECT a.opened, a.closed INTO v_opened, v_closed FROM state_apply(p_at, v_ids) a;

    DELETE FROM console.state_marks m USING pg_temp.state_work sw
     WHERE m.object_id = sw.object_id AND m.processed_to <= p_at;
    UPDATE console.state_engine e
       SET cursor = p_at,
           last_run_kind = CASE WHEN v_ids IS NULL THEN 'full' ELSE 'incremental' END,
           last_run_at = now(),
           last_run_finished_at = clock_timestamp(),
           last_run_objects = v_objects,
           last_run_opened = v_opened,
           last_run_closed = v_closed,
           last_run_ms = round(extract(epoch FROM clock_timestamp() - v_started)::numeric * 1000, 1);
    RETURN QUERY SELECT CASE WHEN v_ids IS NULL THEN 'full' ELSE 'incremental' END, v_objects, v_opened, v_closed, v_cursor, p_at;
END
$$;

-- FRED's contract: update_object_states(object_id), 0 = all objects; the instant is optional.
CREATE FUNCTION update_object_states(p_object_id integer, p_at timestamptz DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF p_object_id = 0 THEN
        PERFORM state_engine_run(coalesce(p_at, now()), true, NULL);
    ELSE
        PERFORM state_engine_run(coalesce(p_at, now()), false, p_object_id);
    END IF;
END
$$;

-- Before an input of an object's states changes: bring its history up to this instant with the
-- data as it still is, then mark it for the next run. Bulk loads set registry.state_marks = off
-- and run a full recomputation afterwards.
CREATE FUNCTION state_mark(p_object_id integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    v_now timestamptz := state_clock();
BEGIN
    IF p_object_id IS NULL OR current_setting('registry.state_marks', true) = 'off' THEN
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM console.state_marks WHERE object_id = p_object_id AND processed_to = v_now) THEN
        RETURN;
    END IF;
    PERFORM state_engine_run(v_now, false, p_object_id);
    INSERT INTO console.state_marks (object_id, processed_to) VALUES (p_object_id, v_now)
        ON CONFLICT (object_id) DO UPDATE SET processed_to = excluded.processed_to;
END
$$;

CREATE FUNCTION state_mark_domain() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        PERFORM state_mark(OLD.id);
        PERFORM state_mark(OLD.registrant);
        PERFORM state_mark(OLD.nsset);
        PERFORM state_mark(OLD.keyset);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM state_mark(NEW.id);
        PERFORM state_mark(NEW.registrant);
        PERFORM state_mark(NEW.nsset);
        PERFORM state_mark(NEW.keyset);
        RETURN NEW;
    END IF;
    RETURN OLD;
END
$$;

CREATE TRIGGER domain_state_mark BEFORE INSERT OR DELETE ON domain
    FOR EACH ROW EXECUTE FUNCTION state_mark_domain();
CREATE TRIGGER domain_state_mark_update BEFORE UPDATE ON domain
    FOR EACH ROW
    WHEN (OLD.exdate IS DISTINCT FROM NEW.exdate OR OLD.nsset IS DISTINCT FROM NEW.nsset
          OR OLD.registrant IS DISTINCT FROM NEW.registrant OR OLD.keyset IS DISTINCT FROM NEW.keyset
          OR OLD.id IS DISTINCT FROM NEW.id)
    EXECUTE FUNCTION state_mark_domain();

-- Tables whose rows name one object that the change concerns: the column is the trigger's argument.
CREATE FUNCTION state_mark_column() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN PERFORM state_mark((to_jsonb(OLD) ->> TG_ARGV[0])::integer); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM state_mark((to_jsonb(NEW) ->> TG_ARGV[0])::integer); RETURN NEW; END IF;
    RETURN OLD;
END
$$;

CREATE TRIGGER enumval_state_mark BEFORE INSERT OR UPDATE OR DELETE ON enumval
    FOR EACH ROW EXECUTE FUNCTION state_mark_column('domainid');
CREATE TRIGGER domain_contact_map_state_mark BEFORE INSERT OR UPDATE OR DELETE ON domain_contact_map
    FOR EACH ROW EXECUTE FUNCTION state_mark_column('contactid');
CREATE TRIGGER nsset_contact_map_state_mark BEFORE INSERT OR UPDATE OR DELETE ON nsset_contact_map
    FOR EACH ROW EXECUTE FUNCTION state_mark_column('contactid');
CREATE TRIGGER keyset_contact_map_state_mark BEFORE INSERT OR UPDATE OR DELETE ON keyset_contact_map
    FOR EACH ROW EXECUTE FUNCTION state_mark_column('contactid');

CREATE FUNCTION state_mark_object_registry() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM state_mark(NEW.id);
    RETURN NEW;
END
$$;

-- A new object is marked too: the engine has to learn its first states and next change.
CREATE TRIGGER object_registry_state_mark BEFORE INSERT ON object_registry
    FOR EACH ROW EXECUTE FUNCTION state_mark_object_registry();
CREATE TRIGGER object_registry_state_mark_update BEFORE UPDATE ON object_registry
    FOR EACH ROW WHEN (OLD.erdate IS DISTINCT FROM NEW.erdate OR OLD.crdate IS DISTINCT FROM NEW.crdate)
    EXECUTE FUNCTION state_mark_object_registry();

-- Requests: whoever writes them (the console, another system, raw SQL), the database refuses a
-- request the rules cannot honour, with a message naming the rule.
CREATE FUNCTION object_state_request_check() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_object record;
    v_state record;
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
    IF NOT v_state.manual THEN
        RAISE EXCEPTION 'object_state_request: % is an automatic state; only manual states can be requested', v_state.name
            USING ERRCODE = 'check_violation';
    END IF;
    IF NOT v_object.type = ANY (v_state.types) THEN
        RAISE EXCEPTION 'object_state_request: % is not valid for a % (object %)', v_state.name, v_object.type_name, v_object.name
            USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.valid_to IS NOT NULL AND NEW.valid_to <= NEW.valid_from THEN
        RAISE EXCEPTION 'object_state_request: the end (%) must be after the start (%)', NEW.valid_to, NEW.valid_from
            USING ERRCODE = 'check_violation';
    END IF;
    IF TG_OP = 'INSERT' AND v_object.erdate IS NOT NULL THEN
        RAISE EXCEPTION 'object_state_request: object % was deleted on %', v_object.name, v_object.erdate
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;

-- Triggers of one event fire in name order: the check before the mark.
CREATE TRIGGER object_state_request_1_check BEFORE INSERT OR UPDATE OF object_id, state_id, valid_from, valid_to
    ON object_state_request FOR EACH ROW EXECUTE FUNCTION object_state_request_check();

CREATE TRIGGER object_state_request_2_state_mark BEFORE INSERT OR UPDATE OR DELETE ON object_state_request
    FOR EACH ROW EXECUTE FUNCTION state_mark_column('object_id');
