CREATE OR REPLACE FUNCTION console.state_forecast(p_from timestamp with time zone, p_to timestamp with time zone, p_states integer[] DEFAULT NULL::integer[])
 RETURNS TABLE(object_id integer, state_id integer, valid_from timestamp with time zone, valid_to timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
WITH clock AS MATERIALIZED (
    SELECT console.state_clock() AS at
),
kept AS MATERIALIZED (
    SELECT coalesce(array_agg(s.id), '{}') AS ids
      FROM enum_object_states s WHERE s.manual OR s.id = ANY (console.engine_automatic_states())
),
changing AS MATERIALIZED (
    SELECT ne.object_id FROM console.state_next_event ne WHERE ne.next_at <= p_to
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
SELECT os.object_id, os.state_id, os.valid_from AT TIME ZONE 'UTC', NULL::timestamptz
  FROM object_state os
 CROSS JOIN kept
 WHERE os.valid_to IS NULL
   AND (p_states IS NULL OR os.state_id = ANY (p_states))
   AND (NOT os.state_id = ANY (kept.ids) OR NOT EXISTS (SELECT 1 FROM changing c WHERE c.object_id = os.object_id))
$function$;
