CREATE OR REPLACE FUNCTION console.state_forecast_of(p_object_id integer, p_states integer[] DEFAULT NULL::integer[])
 RETURNS TABLE(state_id integer, valid_from timestamp with time zone, valid_to timestamp with time zone)
 LANGUAGE sql
 STABLE
AS $function$
SELECT x.state_id, x.lo, x.hi
  FROM (SELECT console.state_plan_holds(p_object_id) AS holds OFFSET 0) h
 CROSS JOIN LATERAL (
       SELECT u.state_id, u.lo, u.hi
         FROM unnest(CASE WHEN NOT h.holds THEN console.object_state_periods_of(p_object_id, console.state_clock()) END) u
       UNION ALL
       SELECT p.state_id, p.valid_from, p.valid_to
         FROM console.state_plan p
        WHERE h.holds AND p.object_id = p_object_id
          AND (p.valid_to IS NULL OR p.valid_to > console.state_clock())) x
 WHERE p_states IS NULL OR x.state_id = ANY (p_states)
UNION ALL
SELECT os.state_id, os.valid_from AT TIME ZONE 'UTC', NULL::timestamptz
  FROM object_state os
  JOIN enum_object_states s ON s.id = os.state_id
 WHERE os.object_id = p_object_id AND os.valid_to IS NULL
   AND NOT (s.manual OR s.id = ANY (console.engine_automatic_states()))
   AND (p_states IS NULL OR os.state_id = ANY (p_states))
$function$;
