-- Issue 39: no caller reaches the owner through the owner's code.
--
-- A function that runs as its owner (SECURITY DEFINER, and so every trigger function of the
-- console's) with search_path = pg_catalog, public looked in the *caller's* temporary schema first
-- for tables, views and types (PostgreSQL searches pg_temp first unless the path names it). A
-- caller with no grant at all made pg_temp.state_work with a trigger and called
-- update_object_states(0): its trigger ran as the owner.
--
-- 1. Every function of the console that sets a search_path, and every SECURITY DEFINER function in
--    schemas console and public (there: the console's update_object_states; FRED's own functions are
--    not the console's to change), now ends its search_path with pg_temp: the caller's temporary
--    objects come after every real one and are never resolved instead of it (pg_temp is never
--    searched for functions or operators at all).
DO $$
DECLARE
    f record;
    v_path text;
BEGIN
    FOR f IN
        SELECT p.oid::regprocedure AS fn,
               (SELECT substr(c, length('search_path=') + 1) FROM unnest(p.proconfig) c WHERE c LIKE 'search_path=%') AS path
          FROM pg_proc p
         WHERE ((p.pronamespace = 'console'::regnamespace
                 AND (p.prosecdef OR EXISTS (SELECT FROM unnest(p.proconfig) c WHERE c LIKE 'search_path=%')))
                OR (p.pronamespace = 'public'::regnamespace AND p.prosecdef))
           AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
    LOOP
        v_path := coalesce(f.path, 'pg_catalog, public');
        IF v_path !~ '(^|[ ,])"?pg_temp"?\s*$' THEN
            v_path := v_path || ', pg_temp';
        END IF;
        EXECUTE format('ALTER FUNCTION %s SET search_path = %s', f.fn, v_path);
    END LOOP;
END
$$;

-- 2. The engine's work tables live in the session's temporary schema, where the caller may have
--    made tables of the same names before the owner's code runs (CREATE TEMP TABLE IF NOT EXISTS
--    would then take the caller's, with its triggers, rules and policies). They are used only when
--    they are the owner's own plain tables; anything else under their names is refused.
CREATE OR REPLACE FUNCTION console.state_work_tables() RETURNS void
LANGUAGE plpgsql SET client_min_messages = warning SET search_path = pg_catalog, pg_temp AS $$
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
$$;

-- 3. A function of FRED's own, get_object_type_id(text), pins search_path = 'public' without
--    pg_temp: inside it PostgreSQL looks in the caller's temporary schema first. The planner
--    evaluates it (it is IMMUTABLE) whenever a query on object_registry may use FRED's partial
--    indexes, so the owner's code, planning such a query in the caller's session, read the caller's
--    pg_temp.enum_object_type. Every function of schema public that pins a search_path without
--    pg_temp (fred-db 2.52: get_object_type_id and unaccent_streets) gets pg_temp at its end: for
--    FRED nothing changes (its programs make no temporary objects named like its tables). Its
--    definition before is kept, and db:unadopt restores it.
DO $$
DECLARE
    f record;
BEGIN
    FOR f IN
        SELECT p.oid, p.oid::regprocedure AS fn,
               (SELECT substr(c, length('search_path=') + 1) FROM unnest(p.proconfig) c WHERE c LIKE 'search_path=%') AS path
          FROM pg_proc p
         WHERE p.pronamespace = 'public'::regnamespace AND NOT p.prosecdef
           AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
    LOOP
        CONTINUE WHEN f.path IS NULL OR f.path ~ '(^|[ ,])"?pg_temp"?\s*$';
        IF EXISTS (SELECT FROM console.registry_origin WHERE origin = 'adopted') THEN
            INSERT INTO console.replaced_fred_objects (kind, name, definition)
            VALUES ('function', regexp_replace(f.fn::text, '^public\.', ''), pg_get_functiondef(f.oid))
            ON CONFLICT DO NOTHING;
        END IF;
        EXECUTE format('ALTER FUNCTION %s SET search_path = %s, pg_temp', f.fn, f.path);
    END LOOP;
END
$$;
