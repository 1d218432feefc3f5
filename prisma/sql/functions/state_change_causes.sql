CREATE OR REPLACE FUNCTION console.state_change_causes(p_object_id integer, p_state_id integer, p_at timestamp with time zone, p_entering boolean)
 RETURNS TABLE(code text, args jsonb, n integer)
 LANGUAGE sql
 STABLE
AS $function$
WITH said AS (SELECT * FROM console.state_request_causes(p_object_id, p_state_id, p_at))
SELECT said.code, said.args, 1 FROM said
UNION ALL
SELECT sr.code, sr.args, 2
  FROM console.state_reasons(p_object_id, p_at) sr
 WHERE p_entering AND sr.state_id = p_state_id AND sr.code IS NOT NULL
   AND NOT (sr.code = 'requested' AND EXISTS (SELECT 1 FROM said WHERE said.state_id = p_state_id AND said.code = 'requestStarts'))
$function$;
