CREATE OR REPLACE FUNCTION console.state_request_causes(p_object_id integer, p_state_id integer, p_at timestamp with time zone)
 RETURNS TABLE(code text, args jsonb, state_id integer)
 LANGUAGE sql
 STABLE
AS $function$
WITH p AS (SELECT sp.zone FROM console.state_parameters() sp),
req AS (
    SELECT r.id, r.state_id, s.name,
           r.valid_from AT TIME ZONE 'UTC' AS starts,
           nullif(least(coalesce(r.canceled, 'infinity'), coalesce(r.valid_to, 'infinity')), 'infinity') AT TIME ZONE 'UTC' AS ends,
           nullif(rr.reason_creation, '') AS reason
      FROM object_state_request r
      JOIN enum_object_states s ON s.id = r.state_id
      LEFT JOIN object_state_request_reason rr ON rr.object_state_request_id = r.id
     WHERE r.object_id = p_object_id
       AND (r.valid_from = p_at AT TIME ZONE 'UTC' OR least(r.canceled, r.valid_to) = p_at AT TIME ZONE 'UTC')
       -- Only a request that holds at all (not canceled before its start), as console.effective_requests.
       AND least(coalesce(r.canceled, 'infinity'), coalesce(r.valid_to, 'infinity')) > r.valid_from
),
said AS (
    SELECT CASE WHEN req.starts = p_at THEN 'requestStarts' ELSE 'requestEnds' END AS code,
           jsonb_build_object('request', req.id, 'state', req.name, 'own', req.state_id = p_state_id, 'at', p_at, 'zone', p.zone,
                              'reason', req.reason) AS args,
           req.state_id, req.id
      FROM req CROSS JOIN p
     WHERE (req.starts = p_at OR req.ends = p_at)
       AND (req.state_id = p_state_id OR NOT EXISTS (SELECT 1 FROM req own WHERE own.state_id = p_state_id))
)
SELECT said.code, said.args, said.state_id FROM said
$function$;
