CREATE OR REPLACE FUNCTION console.state_forecast_of(p_object_id integer, p_states integer[] DEFAULT NULL::integer[])
 RETURNS TABLE(state_id integer, valid_from timestamp with time zone, valid_to timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
WITH clock AS MATERIALIZED (
    SELECT console.state_clock() AS at
),
planned AS MATERIALIZED (
    SELECT console.state_plan_trusted()
           AND NOT EXISTS (SELECT FROM console.state_plan_stale m WHERE m.object_id = p_object_id)
           AND NOT EXISTS (SELECT FROM console.state_pending sp WHERE sp.object_id = p_object_id) AS yes
),
kept AS MATERIALIZED (
    SELECT coalesce(array_agg(s.id), '{}') AS ids
      FROM enum_object_states s WHERE s.manual OR s.id = ANY (console.engine_automatic_states())
)
SELECT x.state_id, x.lo, x.hi
  FROM planned
 CROSS JOIN clock
 CROSS JOIN LATERAL unnest(CASE WHEN NOT planned.yes THEN console.object_state_periods_of(p_object_id, clock.at) END) x
 WHERE p_states IS NULL OR x.state_id = ANY (p_states)
UNION ALL
SELECT p.state_id, p.valid_from, p.valid_to
  FROM console.state_plan p
 CROSS JOIN planned
 CROSS JOIN clock
 WHERE planned.yes AND p.object_id = p_object_id
   AND (p.valid_to IS NULL OR p.valid_to > clock.at)
   AND (p_states IS NULL OR p.state_id = ANY (p_states))
UNION ALL
SELECT os.state_id, os.valid_from AT TIME ZONE 'UTC', NULL::timestamptz
  FROM object_state os
 CROSS JOIN kept
 WHERE os.object_id = p_object_id AND os.valid_to IS NULL
   AND NOT os.state_id = ANY (kept.ids)
   AND (p_states IS NULL OR os.state_id = ANY (p_states))
$function$;
