CREATE OR REPLACE FUNCTION console.state_plan_holds(p_object_id integer)
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
SELECT console.state_plan_trusted()
       AND NOT EXISTS (SELECT FROM console.state_plan_stale m WHERE m.object_id = p_object_id)
       AND NOT EXISTS (SELECT FROM console.state_pending sp WHERE sp.object_id = p_object_id)
$function$;
