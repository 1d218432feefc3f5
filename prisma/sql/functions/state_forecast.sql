CREATE OR REPLACE FUNCTION console.state_forecast(p_from timestamp with time zone, p_to timestamp with time zone, p_states integer[] DEFAULT NULL::integer[])
 RETURNS TABLE(object_id integer, state_id integer, valid_from timestamp with time zone, valid_to timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
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
$function$;
