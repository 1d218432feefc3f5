CREATE OR REPLACE FUNCTION console.state_change_causes(p_object_id integer, p_state_id integer, p_at timestamp with time zone, p_entering boolean)
 RETURNS TABLE(code text, args jsonb)
 LANGUAGE plpgsql
 STABLE
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
BEGIN
    -- The end of a period (p_entering false) has only the requests' causes: asked alone, without
    -- initialising the rules' part of the plan (state_reasons) on every call.
    IF NOT p_entering THEN
        RETURN QUERY SELECT rc.code, rc.args FROM console.state_request_causes(p_object_id, p_state_id, p_at) rc;
        RETURN;
    END IF;
    RETURN QUERY
WITH said AS (SELECT * FROM console.state_request_causes(p_object_id, p_state_id, p_at))
SELECT said.code, said.args FROM said
UNION ALL
SELECT sr.code, sr.args
  FROM console.state_reasons(p_object_id, p_at) sr
 WHERE p_entering AND sr.state_id = p_state_id AND sr.code IS NOT NULL
   AND NOT (sr.code = 'requested' AND EXISTS (SELECT 1 FROM said WHERE said.state_id = p_state_id AND said.code = 'requestStarts'));
END
$function$;
