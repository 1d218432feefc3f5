CREATE OR REPLACE FUNCTION console.registry_anomalies(p_object_id integer DEFAULT NULL::integer)
 RETURNS TABLE(kind text, object_id integer, object text, request_id integer, state text, other_request_id integer, detail text)
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET plan_cache_mode TO 'force_custom_plan'
AS $function$
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
$function$;
