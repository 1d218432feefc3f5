CREATE OR REPLACE FUNCTION console.state_work_tables()
 RETURNS void
 LANGUAGE plpgsql
 SET client_min_messages TO 'warning'
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
BEGIN
    CREATE TEMP TABLE IF NOT EXISTS state_work (object_id integer PRIMARY KEY, w timestamptz NOT NULL);
    CREATE TEMP TABLE IF NOT EXISTS state_desired (
        object_id integer NOT NULL, state_id integer NOT NULL, lo timestamptz NOT NULL, hi timestamptz, w timestamptz NOT NULL
    );
    IF EXISTS (SELECT FROM pg_class c
                WHERE c.relnamespace = pg_my_temp_schema()
                  AND c.relname IN ('state_work', 'state_desired', 'state_work_pkey', 'state_desired_key')
                  AND (c.relowner <> (SELECT r.oid FROM pg_roles r WHERE r.rolname = current_user)
                       OR c.relkind NOT IN ('r', 'i') OR c.relhasrules OR c.relrowsecurity OR c.relforcerowsecurity
                       OR (c.relkind = 'r' AND (c.relname NOT IN ('state_work', 'state_desired')
                                                OR EXISTS (SELECT FROM pg_trigger t WHERE t.tgrelid = c.oid)
                                                OR EXISTS (SELECT FROM pg_policy p WHERE p.polrelid = c.oid)))))
    THEN
        RAISE EXCEPTION 'state engine: a temporary table of the engine''s (state_work, state_desired) belongs to another role '
                        'or has triggers, rules or policies; the engine uses only its own'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    CREATE INDEX IF NOT EXISTS state_desired_key ON pg_temp.state_desired (object_id, state_id);
    TRUNCATE pg_temp.state_work, pg_temp.state_desired;
END
$function$;
