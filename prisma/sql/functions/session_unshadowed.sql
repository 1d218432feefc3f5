CREATE OR REPLACE FUNCTION console.session_unshadowed()
 RETURNS void
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
DECLARE
    v_name text;
BEGIN
    IF pg_my_temp_schema() = 0 THEN
        RETURN;
    END IF;
    SELECT x.name INTO v_name
      FROM (SELECT c.relname::text AS name FROM pg_class c WHERE c.relnamespace = pg_my_temp_schema()
            UNION ALL
            SELECT t.typname::text FROM pg_type t WHERE t.typnamespace = pg_my_temp_schema()) x
     WHERE EXISTS (SELECT FROM pg_class o
                    WHERE o.relname = x.name
                      AND o.relnamespace IN ('pg_catalog'::regnamespace, 'public'::regnamespace, 'console'::regnamespace))
        OR EXISTS (SELECT FROM pg_type o
                    WHERE o.typname = x.name
                      AND o.typnamespace IN ('pg_catalog'::regnamespace, 'public'::regnamespace, 'console'::regnamespace))
     LIMIT 1;
    IF v_name IS NOT NULL THEN
        RAISE EXCEPTION 'refused: this session''s temporary schema holds "%", named like one of the registry''s own tables or types; '
                        'the console''s code runs only in sessions without such objects', v_name
            USING ERRCODE = 'insufficient_privilege';
    END IF;
END
$function$;
