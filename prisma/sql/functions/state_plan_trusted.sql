CREATE OR REPLACE FUNCTION console.state_plan_trusted()
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
    RETURN EXISTS (
        SELECT FROM console.state_plan_status s
         WHERE s.built_at IS NOT NULL
           AND NOT EXISTS (SELECT FROM console.registry_origin o WHERE o.mode <> 'charge' OR o.mode_since > s.built_at));
END
$function$;
