-- Only request rows FRED's programs accept. libfred's CreateObjectStateRequestId reads every request
-- row of an object and state as [valid_from, LEAST(canceled, valid_to)) and throws out_of_turn while
-- one ends before it begins: from then on FRED creates no request for that object and state
-- (administrative blocking, fred-admin, registry lock). FRED itself cancels only requests in force;
-- the console also cancels requests that have not begun, and writes those as FRED can read them:
-- canceled = valid_from, an empty period that never holds and blocks nothing. The real instant and
-- the person stay in the console's metadata (and its audit log).

-- The value of object_state_request.canceled for a cancellation at p_at: the instant itself, or
-- the request's start when it has not begun by then. Every console cancellation writes it.
CREATE FUNCTION console.fred_canceled(p_from timestamp, p_at timestamp) RETURNS timestamp
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT greatest(p_from, p_at)
$$;

-- When the console canceled the request (the instant it was done; `canceled` may hold the start).
ALTER TABLE console.request_meta ADD COLUMN canceled_at timestamptz;

-- When a request was canceled, as the console shows it (UTC, like FRED's columns): the console's
-- own record when it canceled the request, else FRED's column; NULL when it is not canceled.
CREATE FUNCTION console.request_canceled(p_canceled timestamp, p_canceled_at timestamptz) RETURNS timestamp
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN p_canceled IS NOT NULL THEN coalesce(p_canceled_at AT TIME ZONE 'UTC', p_canceled) END
$$;

-- The console's cancellations so far (by a person, or by lifting or changing a block) wrote the
-- instant into `canceled`: it moves into the metadata, and a request canceled before it began gets
-- FRED's form. Rows written by anyone else stay as they are (db:check lists those FRED refuses).
UPDATE console.request_meta m SET canceled_at = r.canceled AT TIME ZONE 'UTC'
  FROM object_state_request r
 WHERE r.id = m.request_id AND r.canceled IS NOT NULL
   AND (m.canceled_by IS NOT NULL
        OR EXISTS (SELECT FROM console.blocks b WHERE b.id = m.block_id AND b.unblocked_at IS NOT NULL));
UPDATE object_state_request r SET canceled = console.fred_canceled(r.valid_from, r.canceled)
  FROM console.request_meta m
 WHERE m.request_id = r.id AND m.canceled_at IS NOT NULL AND r.canceled < r.valid_from;

-- registry_anomalies as in 20261124060000_anomalies_by_object, with two changes: `out_of_turn`
-- lists the rows FRED's programs refuse to go past (LEAST(canceled, valid_to) < valid_from), and a
-- cancellation in the future is an anomaly only when it cuts a period (not at or before the start).
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
  FROM r a JOIN r b ON b.object_id = a.object_id AND b.state_id = a.state_id AND b.id > a.id AND a.period && b.period
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
