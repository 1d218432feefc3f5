-- Pages no slower than before issue 26, and two faults of issue 25's write path found by its
-- 1.5-million-domain benchmarks. In order below: console.object_blocks by index (the object page);
-- registry_anomalies pairing only overlapping requests; an index on the manual states' history rows
-- ("had X at T" in the list); state_apply's open-row test as a join (a first build's plan); the
-- compiled trigger bounds false, not NULL, for an object never updated (deleteCandidate kept).

-- console.object_blocks, same rows, each block's other requests found by index. The first version
-- gathered them in one lateral subquery whose CASE hid every usable condition from the planner, so
-- it read all of the object's requests once per serverBlocked request: 41 ms for an object with
-- 250 blocks among 500 requests (the object page's request list at 1.5 million domains; 4.4 ms
-- now). A console block's requests come from its metadata (request_meta_block_idx), a FRED block's
-- from the object's requests with the block's start (console_object_state_request_object_idx),
-- filtered by its end and creation instant (FRED's blockDomainsId gives every request of one block
-- the same three).

CREATE OR REPLACE VIEW console.object_blocks AS
SELECT r.id AS request_id,
       b.id AS block_id,
       r.object_id,
       coalesce(b.made_by, 'fred') AS made_by,
       b.created_by,
       r.crdate,
       r.valid_from,
       r.valid_to,
       r.canceled,
       console.request_period(r.valid_from, r.valid_to, r.canceled) AS period,
       b.unblocked_at,
       b.unblocked_by,
       rr.reason_creation AS reason,
       rr.reason_cancellation,
       coalesce(CASE WHEN b.id IS NOT NULL THEN cm.request_ids ELSE fm.request_ids END, '{}') AS request_ids,
       coalesce(CASE WHEN b.id IS NOT NULL THEN cm.prohibitions ELSE fm.prohibitions END, '{}') AS prohibitions
  FROM object_state_request r
  JOIN enum_object_states s ON s.id = r.state_id AND s.name = 'serverBlocked'
  LEFT JOIN console.blocks b ON b.blocked_request_id = r.id
  LEFT JOIN object_state_request_reason rr ON rr.object_state_request_id = r.id
  -- A console block: the requests its metadata gives the block, its serverBlocked request aside.
 CROSS JOIN LATERAL (
    SELECT array_agg(x.id ORDER BY x.state_id, x.id) AS request_ids, array_agg(xs.name ORDER BY x.state_id, x.id) AS prohibitions
      FROM console.request_meta xm
      JOIN object_state_request x ON x.id = xm.request_id
      JOIN enum_object_states xs ON xs.id = x.state_id
     WHERE xm.block_id = b.id AND x.object_id = r.object_id AND x.id <> r.id
 ) cm
  -- A block FRED made: the object's manual server* requests (serverBlocked aside) created with it,
  -- with its start and end, that no console block claims.
 CROSS JOIN LATERAL (
    SELECT array_agg(x.id ORDER BY x.state_id, x.id) AS request_ids, array_agg(xs.name ORDER BY x.state_id, x.id) AS prohibitions
      FROM object_state_request x JOIN enum_object_states xs ON xs.id = x.state_id
     WHERE b.id IS NULL AND x.object_id = r.object_id AND x.crdate = r.crdate AND x.id <> r.id
       AND xs.manual AND xs.name LIKE 'server%' AND xs.name <> 'serverBlocked'
       AND x.valid_from = r.valid_from AND x.valid_to IS NOT DISTINCT FROM r.valid_to
       AND NOT EXISTS (SELECT FROM console.request_meta xm WHERE xm.request_id = x.id AND xm.block_id IS NOT NULL)
 ) fm;

-- registry_anomalies as in 20261125010000_fred_accepted_rows, with `overlap` pairing only the
-- requests that overlap another (the object page calls it for its object, db:check for all).
CREATE OR REPLACE FUNCTION console.registry_anomalies(p_object_id integer DEFAULT NULL)
RETURNS TABLE (kind text, object_id integer, object text, request_id integer, state text, other_request_id integer, detail text)
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public SET plan_cache_mode = force_custom_plan AS $$
#variable_conflict use_column
BEGIN
RETURN QUERY
WITH r AS (
    SELECT r.id, r.object_id, r.state_id, r.valid_from, r.valid_to, r.canceled, s.name AS state, s.manual, s.types,
           o.type, o.name AS object, console.request_period(r.valid_from, r.valid_to, r.canceled) AS period
      FROM object_state_request r
      JOIN object_registry o ON o.id = r.object_id
      JOIN enum_object_states s ON s.id = r.state_id
     WHERE p_object_id IS NULL OR r.object_id = p_object_id
),
-- The requests that overlap another of the same object and state, found in one sorted pass: one
-- overlaps an earlier-starting one when it starts before the latest end among them, or a
-- later-starting one when the earliest later start is before its end. Only these are paired (every
-- request with every other of its object and state was 125,000 pairs, 12 ms, for an object with
-- 500 requests).
overlapping AS (
    SELECT w.* FROM (
        SELECT r.*,
               max(coalesce(upper(r.period), 'infinity')) OVER (PARTITION BY r.object_id, r.state_id ORDER BY lower(r.period), r.id
                                                               ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS earlier_end,
               min(lower(r.period)) OVER (PARTITION BY r.object_id, r.state_id ORDER BY lower(r.period), r.id
                                          ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) AS later_start
          FROM r WHERE NOT isempty(r.period)
    ) w
     WHERE w.earlier_end > lower(w.period) OR w.later_start < coalesce(upper(w.period), 'infinity')
)
SELECT 'automatic_state', r.object_id, r.object::text, r.id, r.state::text, NULL::integer,
       format('request %s asks for %s, an automatic state: FRED''s procedure applied it, the console does not', r.id, r.state)
  FROM r WHERE NOT r.manual
UNION ALL
SELECT 'wrong_type', r.object_id, r.object, r.id, r.state, NULL,
       format('request %s asks for %s, which is not valid for a %s: FRED''s procedure applied it, the console does not',
              r.id, r.state, (SELECT t.name FROM enum_object_type t WHERE t.id = r.type))
  FROM r WHERE r.manual AND NOT r.type = ANY (r.types)
UNION ALL
SELECT 'overlap', b.object_id, b.object, b.id, b.state, a.id,
       format('requests %s and %s for %s hold at the same time; the console honours both as one period', a.id, b.id, b.state)
  FROM overlapping a JOIN overlapping b ON b.object_id = a.object_id AND b.state_id = a.state_id AND b.id > a.id AND a.period && b.period
UNION ALL
SELECT 'zone_conflict', i.object_id, i.object, i.id, i.state, o.id,
       format('serverOutzoneManual (request %s) and serverInzoneManual (request %s) hold at the same time; out of zone wins', o.id, i.id)
  FROM r o JOIN r i ON i.object_id = o.object_id AND o.state_id = 5 AND i.state_id = 6 AND o.period && i.period
UNION ALL
SELECT 'canceled_in_future', r.object_id, r.object, r.id, r.state, NULL,
       format('request %s for %s is canceled as of %s UTC, in the future: FRED''s procedure dropped it at once, the console ends it then',
              r.id, r.state, to_char(r.canceled, 'YYYY-MM-DD HH24:MI:SS'))
  FROM r WHERE r.canceled > now() AT TIME ZONE 'UTC' AND r.canceled > r.valid_from
UNION ALL
SELECT 'empty_period', r.object_id, r.object, r.id, r.state, NULL,
       format('request %s for %s ends (%s UTC) before it starts (%s UTC): it never holds', r.id, r.state,
              to_char(r.valid_to, 'YYYY-MM-DD HH24:MI:SS'), to_char(r.valid_from, 'YYYY-MM-DD HH24:MI:SS'))
  FROM r WHERE r.valid_to <= r.valid_from
UNION ALL
SELECT 'out_of_turn', r.object_id, r.object, r.id, r.state, NULL,
       format('request %s for %s on %s (from %s, canceled %s, until %s UTC) ends before it begins: FRED''s programs '
              'refuse every new %s request for this object while it stands (libfred out_of_turn)',
              r.id, r.state, r.object, to_char(r.valid_from, 'YYYY-MM-DD HH24:MI:SS'),
              coalesce(to_char(r.canceled, 'YYYY-MM-DD HH24:MI:SS'), '-'), coalesce(to_char(r.valid_to, 'YYYY-MM-DD HH24:MI:SS'), '-'),
              r.state)
  FROM r WHERE least(r.canceled, r.valid_to) < r.valid_from
UNION ALL
SELECT 'handle_case', o.id, o.name::text, NULL, NULL, NULL,
       format('%s is stored as %s, not in its canonical case (%s); the console finds it either way',
              (SELECT t.name FROM enum_object_type t WHERE t.id = o.type), o.name,
              CASE WHEN o.type = 3 THEN lower(o.name) ELSE upper(o.name) END)
  FROM object_registry o
 WHERE (p_object_id IS NULL OR o.id = p_object_id)
   AND o.name <> CASE WHEN o.type = 3 THEN lower(o.name) ELSE upper(o.name) END;
END
$$;

-- "Had state X at instant T" for a rare state walks the list's order and probes each object's
-- history for X. Without console_object_state_history_idx (dropped in 20261125100000 to keep FRED's
-- automatic state writes lean) each probe read all of the object's rows through FRED's
-- object_state_object_id_all_idx: the first page of "had serverBlocked at T" took 38 ms instead of
-- 20 at 1.5 million domains (bench:list p95 near its 100 ms target). The rare states are the manual
-- ones; an index on their rows alone serves those probes, and FRED's automatic state writes (expiry,
-- outzone, nssetMissing, linked, ...) do not enter it. Its predicate names the manual states the
-- catalogue holds now: a state marked manual later is still found, through FRED's index.
DO $$
BEGIN
    EXECUTE format('CREATE INDEX console_object_state_manual_idx ON object_state (object_id, state_id, valid_from) WHERE state_id IN (%s)',
                   (SELECT string_agg(id::text, ', ' ORDER BY id) FROM enum_object_states WHERE manual));
END
$$;

-- state_apply as in 20261125000000_fred_write_path, with the open-row test of its INSERT a join.
-- bench:states' first build (object_state truncated, then every object from its creation) ran more
-- than 14 minutes instead of 5 at 1.5 million domains: planned on the empty table, the test was a
-- sequential scan of object_state for each of 13 million desired rows, over the rows the same
-- statement was inserting (the empty table's statistics said 0 rows; with no statistics the planner
-- assumes 10 pages and hashes the subquery, which is how the earlier 5-minute build was planned).
CREATE OR REPLACE FUNCTION console.state_apply(p_at timestamptz, p_ids integer[], OUT opened integer, OUT closed integer)
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

    WITH closing AS (
        SELECT os.id, greatest(os.valid_from AT TIME ZONE 'UTC', coalesce(c.hi, sw.w)) AS valid_to
          FROM object_state os
          JOIN pg_temp.state_work sw ON sw.object_id = os.object_id
          LEFT JOIN pg_temp.state_desired c
                 ON c.object_id = os.object_id AND c.state_id = os.state_id AND c.lo <= sw.w
         WHERE os.valid_to IS NULL
           AND (p_ids IS NULL OR os.object_id = ANY (p_ids))
           AND (os.state_id = ANY (console.engine_automatic_states())
                OR os.state_id IN (SELECT s.id FROM enum_object_states s WHERE s.manual))
           AND (c.object_id IS NULL OR c.hi <= p_at)
    )
    UPDATE object_state os SET valid_to = closing.valid_to AT TIME ZONE 'UTC' FROM closing WHERE os.id = closing.id;
    GET DIAGNOSTICS closed = ROW_COUNT;

    INSERT INTO object_state (object_id, state_id, valid_from, valid_to)
    SELECT d.object_id, d.state_id, greatest(d.lo, d.w) AT TIME ZONE 'UTC', CASE WHEN d.hi <= p_at THEN d.hi AT TIME ZONE 'UTC' END
      FROM pg_temp.state_desired d
      -- The state's open row, if any (at most one: FRED's object_state_now_idx is unique). A join,
      -- not a NOT EXISTS inside the OR: planned on an empty object_state (a first build) that
      -- subquery became a sequential scan per desired row of the rows this statement inserts.
      LEFT JOIN object_state op ON op.object_id = d.object_id AND op.state_id = d.state_id AND op.valid_to IS NULL
     WHERE d.lo <= p_at
       AND (d.lo > d.w OR NOT EXISTS (
               SELECT 1 FROM object_state os
                WHERE os.object_id = d.object_id AND os.state_id = d.state_id
                  AND os.valid_from <= d.w AT TIME ZONE 'UTC' AND (os.valid_to IS NULL OR os.valid_to > d.w AT TIME ZONE 'UTC')))
       AND (d.hi <= p_at OR op.id IS NULL);
    GET DIAGNOSTICS opened = ROW_COUNT;

    -- When each object's states change next, if nothing else changes (the cursor covers exactness).
    -- (DELETE, not TRUNCATE: TRUNCATE's lock would make every reader wait for the whole run.)
    IF p_ids IS NULL THEN
        DELETE FROM console.state_next_event;
    ELSE
        DELETE FROM console.state_next_event ne WHERE ne.object_id = ANY (p_ids);
    END IF;
    INSERT INTO console.state_next_event (object_id, next_at)
    SELECT x.object_id, min(x.at)
      FROM (SELECT d.object_id, d.lo AS at FROM pg_temp.state_desired d WHERE d.lo > p_at
            UNION ALL
            SELECT d.object_id, d.hi FROM pg_temp.state_desired d WHERE d.hi > p_at) x
     GROUP BY x.object_id;
    IF p_ids IS NULL THEN
        ANALYZE console.state_next_event;
    END IF;
END
$$;

-- state_triggers_compile as in 20261125100000_fred_lean_write_path, with the two compiled bounds
-- false, not NULL, when the old value is NULL. An object never updated has object.update NULL:
-- "NOT (NEW.update > NULL AND ...)" is NULL, so its first update fired no trigger and an unlinked
-- contact, nsset or keyset kept deleteCandidate, which FRED's views end at that update (bench:fred
-- at 1.5 million domains left 1,287 of them; db:check: "open states without cause").
CREATE OR REPLACE FUNCTION console.state_triggers_compile() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_lead integer;
    v_months integer;
    v_clock constant text := $c$(coalesce(nullif(current_setting('registry.state_clock', true), '')::timestamptz, now()) AT TIME ZONE 'UTC')$c$;
BEGIN
    SELECT coalesce(max(ceil(extract(epoch FROM -least(l.notify, l.dns, l.registration, l.letter, l.outzone_warning,
                                                       interval '0')) / 86400)), 0)::integer + 2
      INTO v_lead FROM console.lifecycle_periods() l;
    SELECT coalesce(p.protection_months, 0) INTO v_months FROM console.state_parameters() p;
    -- A renew (the expiration date alone changed) has no BEFORE trigger: its AFTER trigger catches
    -- up with the date the domain had. The others (a new registrant, nsset or keyset) are queued
    -- once a BEFORE trigger switched console.state_apply on.
    DROP TRIGGER IF EXISTS console_state_apply_update ON domain;
    EXECUTE format($t$
        CREATE CONSTRAINT TRIGGER console_state_apply_update AFTER UPDATE ON domain
            DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW
            WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off'
                  AND ((current_setting('console.state_apply', true) = 'on'
                        AND (OLD.nsset IS DISTINCT FROM NEW.nsset OR OLD.registrant IS DISTINCT FROM NEW.registrant
                             OR OLD.keyset IS DISTINCT FROM NEW.keyset OR OLD.id IS DISTINCT FROM NEW.id))
                       OR (OLD.exdate IS DISTINCT FROM NEW.exdate
                           AND NOT coalesce(NEW.exdate > OLD.exdate AND OLD.exdate > %s::date + %s, false))))
            EXECUTE FUNCTION console.state_domain_after()$t$, v_clock, v_lead);
    EXECUTE format($t$
        CREATE OR REPLACE TRIGGER console_state_catch_up BEFORE UPDATE OF update ON object
            FOR EACH ROW
            WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off' AND OLD.update IS DISTINCT FROM NEW.update
                  AND NOT coalesce(NEW.update > OLD.update AND OLD.update > %s - interval %L, false))
            EXECUTE FUNCTION console.state_object_update_before()$t$, v_clock, format('%s months -2 days', v_months));
END
$$;
SELECT console.state_triggers_compile();
