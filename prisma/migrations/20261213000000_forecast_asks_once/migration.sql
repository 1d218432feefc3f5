-- Issue 41: an object's forecast asks once whether the stored plan holds for it.
-- console.state_forecast_of asked console.state_plan_holds twice for every object (once to choose
-- the periods computed from its rows, once to choose the stored plan), and state_plan_holds was a
-- PL/pgSQL function whose every call ran its three conditions as statements of their own. The
-- lists that say when call state_forecast_of for each object they pass: "deleteCandidate in 30
-- days" tests 246 objects to find a page of 51 at 1.5 million domains. Now state_plan_holds is a
-- plain SQL function and state_forecast_of evaluates it once per object (OFFSET 0 keeps the one-row
-- subquery from being flattened, which would ask twice again). The same rows as before (compared
-- over 1,500 objects with the plan trusted, with a third of them stale, and untrusted): that page's
-- statement 12.8 -> 10.2 ms.
CREATE OR REPLACE FUNCTION console.state_plan_holds(p_object_id integer)
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
SELECT console.state_plan_trusted()
       AND NOT EXISTS (SELECT FROM console.state_plan_stale m WHERE m.object_id = p_object_id)
       AND NOT EXISTS (SELECT FROM console.state_pending sp WHERE sp.object_id = p_object_id)
$function$;

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
