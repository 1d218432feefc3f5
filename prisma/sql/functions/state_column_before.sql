CREATE OR REPLACE FUNCTION console.state_column_before()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
    v_old integer;
    v_new integer;
BEGIN
    IF TG_OP <> 'INSERT' THEN v_old := (to_jsonb(OLD) ->> TG_ARGV[0])::integer; END IF;
    IF TG_OP <> 'DELETE' THEN v_new := (to_jsonb(NEW) ->> TG_ARGV[0])::integer; END IF;
    IF TG_ARGV[1] IS NOT DISTINCT FROM 'link' AND v_old IS NOT DISTINCT FROM v_new THEN
        RETURN NEW;  -- a map row changed its role only: nothing about the object's links changed
    END IF;
    PERFORM console.state_catch_up(least(v_old, v_new));
    IF v_old <> v_new THEN PERFORM console.state_catch_up(greatest(v_old, v_new)); END IF;
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
END
$function$;
