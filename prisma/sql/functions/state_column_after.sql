CREATE OR REPLACE FUNCTION console.state_column_after()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
    v_old integer;
    v_new integer;
    v_link boolean := TG_ARGV[1] IS NOT DISTINCT FROM 'link';
BEGIN
    IF TG_OP <> 'INSERT' THEN v_old := (to_jsonb(OLD) ->> TG_ARGV[0])::integer; END IF;
    IF TG_OP <> 'DELETE' THEN v_new := (to_jsonb(NEW) ->> TG_ARGV[0])::integer; END IF;
    IF v_link AND v_old IS NOT DISTINCT FROM v_new THEN
        RETURN NULL;  -- a map row changed its role only: nothing about the object's links changed
    END IF;
    -- (p_link: 1 a link lost, 2 a link added, 0 the object's own data.)
    IF v_old IS NOT NULL AND v_new IS NOT NULL AND v_old > v_new THEN
        PERFORM console.state_changed(v_new, CASE WHEN v_link THEN 2 ELSE 0 END::smallint);
        PERFORM console.state_changed(v_old, CASE WHEN v_link THEN 1 ELSE 0 END::smallint);
    ELSE
        PERFORM console.state_changed(v_old, CASE WHEN v_link THEN 1 ELSE 0 END::smallint);
        IF v_new IS DISTINCT FROM v_old THEN
            PERFORM console.state_changed(v_new, CASE WHEN v_link THEN 2 ELSE 0 END::smallint);
        END IF;
    END IF;
    RETURN NULL;
END
$function$;
