-- The state engine at registry scale (1.5 million domains): the same rules, planned for a full run.
-- - object_state_periods no longer materialises every object as a CTE and joins it to every input:
--   each input is filtered by p_ids directly (constant-folded away in a full run), the domain
--   thresholds are read once per use, and "linked" is a hashed membership test per referencing
--   column instead of a sorted UNION of every reference.
-- - Engine work gets work_mem for its hash tables (a full run at 1.5M domains spilled to disk with 4MB).
-- - A run empties its work tables before it returns (see state_engine_run).
-- - After a full run rebuilds console.state_next_event it is analysed, so the next scheduled run
--   uses the next_at index (without it, "nothing due" took 0.8 s at 1.5M domains instead of 20 ms).

ALTER FUNCTION state_parameters() PARALLEL SAFE;

-- An object's life [crdate, erdate) as a multirange, to cut periods to it.
CREATE FUNCTION state_life(p_crdate timestamptz, p_erdate timestamptz) RETURNS tstzmultirange
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT tstzmultirange(tstzrange(p_crdate, p_erdate, '[)'))
$$;

-- THE RULES (replaces the first version; same results).
CREATE OR REPLACE FUNCTION object_state_periods(p_ids integer[] DEFAULT NULL)
RETURNS TABLE (object_id integer, state_id integer, valid_from timestamptz, valid_to timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
WITH p AS (SELECT * FROM state_parameters()),
-- A request holds over [valid_from, LEAST(canceled, valid_to)); only manual states valid for the
-- object's type count, and a request canceled before its start never holds.
request AS NOT MATERIALIZED (
    SELECT r.object_id, r.state_id, o.crdate, o.erdate,
           tstzrange(r.valid_from,
                     nullif(least(coalesce(r.canceled, 'infinity'), coalesce(r.valid_to, 'infinity')), 'infinity'),
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
-- The threshold instants of a domain's date rules (NULL: the rule never applies). Not
-- materialised: the two uses below read the domains with and without guards separately.
dom AS NOT MATERIALIZED (
    SELECT d.id, o.crdate, o.erdate, d.nsset IS NULL AS nsset_missing,
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
      JOIN object_registry o ON o.id = d.id
      CROSS JOIN p
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
    SELECT dom.id, state_life(dom.crdate, dom.erdate) AS life, dom.outzone_manual, dom.inzone_manual,
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
manual AS (
    SELECT request.object_id, request.state_id, range_agg(request.period) * state_life(min(request.crdate), min(request.erdate)) AS periods
      FROM request GROUP BY request.object_id, request.state_id
),
-- linked (contact, nsset, keyset): referenced by a domain (registrant, nsset, keyset, admin/temp
-- contact) or by an nsset/keyset contact map.
linkable AS MATERIALIZED (
    SELECT o.id, o.crdate, o.erdate,
           (o.id IN (SELECT d.registrant FROM domain d) OR o.id IN (SELECT d.nsset FROM domain d WHERE d.nsset IS NOT NULL)
            OR o.id IN (SELECT d.keyset FROM domain d WHERE d.keyset IS NOT NULL) OR o.id IN (SELECT m.contactid FROM domain_contact_map m)
            OR o.id IN (SELECT m.contactid FROM nsset_contact_map m) OR o.id IN (SELECT m.contactid FROM keyset_contact_map m)) AS linked
      FROM object_registry o
     WHERE o.type IN (1, 2, 4) AND (p_ids IS NULL OR o.id = ANY (p_ids))
),
-- deleteCandidate (contact, nsset, keyset): unlinked, and six months (at the day hour) after
-- the later of creation and the last time it was linked. A linked row still open belongs to an
-- object unlinked since the engine last saw it: it was last linked when its window starts.
unlinked AS (
    SELECT l.id, l.crdate, l.erdate,
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
            - coalesce(g.delete_prohibited, '{}')) * state_life(u.crdate, u.erdate) AS periods
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

-- Work tables as before; more memory, and statistics for a rebuilt next-change table.
CREATE OR REPLACE FUNCTION state_apply(p_at timestamptz, p_ids integer[], OUT opened integer, OUT closed integer)
LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan SET jit = off SET work_mem = '256MB' AS $$
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
    IF p_ids IS NULL THEN
        -- A rebuilt table has no statistics yet; the next scheduled run must find its due rows by index.
        ANALYZE console.state_next_event;
    END IF;
END
$$;


-- One engine run (as before; the work tables are emptied at the end).
CREATE OR REPLACE FUNCTION state_engine_run(p_at timestamptz DEFAULT now(), p_full boolean DEFAULT false, p_object_id integer DEFAULT NULL)
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
    -- Emptied now, not at the start of the next run: after a full run they hold millions of rows,
    -- and truncating them cost the next (idle) run 0.6 s at 1.5M domains.
    TRUNCATE pg_temp.state_work, pg_temp.state_desired;
    RETURN QUERY SELECT CASE WHEN v_ids IS NULL THEN 'full' ELSE 'incremental' END, v_objects, v_opened, v_closed, v_cursor, p_at;
END
$$;
