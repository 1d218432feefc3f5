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

-- 3. A function of FRED's own, get_object_type_id(text), sets search_path = 'public' without
--    pg_temp: inside it, PostgreSQL looks in the caller's temporary schema first. The planner
--    evaluates it (it is IMMUTABLE) whenever a query on object_registry may use FRED's partial
--    indexes, so the owner's code, planning such a query in the caller's session, read the caller's
--    pg_temp.enum_object_type. FRED's functions are FRED's; instead, the owner's code refuses to run
--    in a session whose temporary schema holds a table, view, sequence, index or type named like one
--    of schemas pg_catalog, public or console: no function the owner's code reaches, the console's
--    or FRED's, can then resolve a caller's object in place of a real one. A session that never made
--    a temporary object pays one call (pg_my_temp_schema() is 0).
CREATE FUNCTION console.session_unshadowed() RETURNS void
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
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
$$;
-- Executable by everyone (as a new function is): it reads only the caller's own temporary schema.
-- update_object_states, replaced in place on an adopted registry, keeps its owner, FRED's, which
-- may not be the owner of schema console's functions.

-- Every function that runs as the owner checks first (their text is otherwise unchanged).
CREATE OR REPLACE FUNCTION console.audit_chain_lock(OUT last_id bigint, OUT last_hash text)
 RETURNS record
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
 SELECT console.session_unshadowed();
    SELECT h.last_id, h.last_hash::text FROM console.audit_head h FOR UPDATE
$function$;

CREATE OR REPLACE FUNCTION console.audit_log_accept_signed()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
DECLARE
    next_id bigint;
BEGIN
    PERFORM console.session_unshadowed();
    IF NEW.mac IS NULL OR NEW.key_id IS NULL THEN
        RAISE EXCEPTION 'console.audit_log rows are signed by the console: this row has no key_id and mac (append rows with audit() in lib/audit/log.ts)'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT last_id + 1 INTO next_id FROM console.audit_head FOR UPDATE;
    IF NEW.id IS DISTINCT FROM next_id THEN
        RAISE EXCEPTION 'audit row id % is not the next in the chain (%): its MAC must be computed while holding console.audit_head FOR UPDATE', NEW.id, next_id;
    END IF;
    RETURN NEW;
END
$function$;

CREATE OR REPLACE FUNCTION console.audit_log_append()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
DECLARE
    head console.audit_head%ROWTYPE;
BEGIN
    PERFORM console.session_unshadowed();
    SELECT * INTO head FROM console.audit_head FOR UPDATE;
    NEW.id := head.last_id + 1;
    NEW.prev_hash := head.last_hash;
    NEW.hash := console.audit_row_hash(head.last_hash, NEW);
    UPDATE console.audit_head SET last_id = NEW.id, last_hash = NEW.hash;
    RETURN NEW;
END
$function$;

CREATE OR REPLACE FUNCTION console.lock_objects(p_ids integer[])
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM console.session_unshadowed();
    PERFORM 1 FROM object_registry WHERE id = ANY (p_ids) ORDER BY id FOR NO KEY UPDATE;
END
$function$;

CREATE OR REPLACE FUNCTION console.object_state_request_check()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    v_object record;
    v_state record;
    v_other record;
    v_period tsrange := console.request_period(NEW.valid_from, NEW.valid_to, NEW.canceled);
BEGIN
    PERFORM console.session_unshadowed();
    SELECT o.id, o.name, o.erdate, t.name AS type_name, o.type INTO v_object
      FROM object_registry o JOIN enum_object_type t ON t.id = o.type WHERE o.id = NEW.object_id;
    IF NOT FOUND THEN
        RETURN NEW;  -- the foreign key refuses it
    END IF;
    SELECT s.id, s.name, s.manual, s.types INTO v_state FROM enum_object_states s WHERE s.id = NEW.state_id;
    IF NOT FOUND THEN
        RETURN NEW;  -- the foreign key refuses it
    END IF;
    IF NEW.valid_to IS NOT NULL AND NEW.valid_to <= NEW.valid_from THEN
        RAISE EXCEPTION 'object_state_request: the end (% UTC) must be after the start (% UTC)', NEW.valid_to, NEW.valid_from
            USING ERRCODE = 'check_violation';
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.object_id = OLD.object_id AND NEW.state_id = OLD.state_id
       AND v_period <@ console.request_period(OLD.valid_from, OLD.valid_to, OLD.canceled) THEN
        RETURN NEW;
    END IF;
    IF NOT v_state.manual THEN
        RAISE EXCEPTION 'object_state_request: % is an automatic state; only manual states can be requested', v_state.name
            USING ERRCODE = 'check_violation';
    END IF;
    IF NOT v_object.type = ANY (v_state.types) THEN
        RAISE EXCEPTION 'object_state_request: % is not valid for a % (object %)', v_state.name, v_object.type_name, v_object.name
            USING ERRCODE = 'check_violation';
    END IF;
    IF TG_OP = 'INSERT' AND v_object.erdate IS NOT NULL THEN
        RAISE EXCEPTION 'object_state_request: object % was deleted on % UTC', v_object.name, v_object.erdate
            USING ERRCODE = 'check_violation';
    END IF;
    -- One writer per object at a time checks and writes, so two racing requests cannot both pass.
    -- The lock is one of 512 per object id (not one per object), so a transaction writing requests
    -- for 10,000 objects holds at most 512 entries of the server's lock table.
    PERFORM pg_advisory_xact_lock(7353004, NEW.object_id % 512);
    -- Two requests for the same state on the same object never hold at the same time (FRED's rule),
    -- and serverOutzoneManual (5) and serverInzoneManual (6) never hold together on one domain (FRED
    -- lets them, and outzone wins; here the second is refused).
    SELECT r.id, r.state_id INTO v_other
      FROM object_state_request r
     WHERE r.object_id = NEW.object_id AND r.id IS DISTINCT FROM NEW.id
       AND (r.state_id = NEW.state_id OR (NEW.state_id IN (5, 6) AND r.state_id IN (5, 6)))
       AND console.request_period(r.valid_from, r.valid_to, r.canceled) && v_period
     ORDER BY r.state_id = NEW.state_id DESC, r.id
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'object_state_request: request % for % overlaps request % on object %',
                        coalesce(NEW.id::text, '(new)'), v_state.name, v_other.id, v_object.name
            USING ERRCODE = 'exclusion_violation',
                  CONSTRAINT = CASE WHEN v_other.state_id = NEW.state_id THEN 'object_state_request_no_overlap'
                                    ELSE 'object_state_request_zone_exclusive' END;
    END IF;
    RETURN NEW;
END
$function$;

CREATE OR REPLACE FUNCTION public.update_object_states(integer)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
 SET "TimeZone" TO 'UTC'
AS $function$
BEGIN
    PERFORM console.session_unshadowed();
    -- Registry State Console: FRED's procedure replaced by the console's engine (exact instants).
    IF $1 = 0 THEN
        PERFORM console.state_engine_run(now(), false, NULL);
    ELSE
        PERFORM console.state_engine_run(now(), false, $1);
    END IF;
END
$function$;

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
    PERFORM console.session_unshadowed();
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
    PERFORM console.session_unshadowed();
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

CREATE OR REPLACE FUNCTION console.state_domain_after()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
    c record;
    i integer;
BEGIN
    PERFORM console.session_unshadowed();
    IF TG_OP = 'UPDATE' AND OLD.id = NEW.id AND OLD.nsset IS NOT DISTINCT FROM NEW.nsset
       AND OLD.registrant IS NOT DISTINCT FROM NEW.registrant AND OLD.keyset IS NOT DISTINCT FROM NEW.keyset THEN
        IF NEW.exdate > OLD.exdate THEN
            PERFORM console.state_moved_later(NEW.id, console.expiration_states(), OLD.exdate);
        ELSIF NEW.exdate IS DISTINCT FROM OLD.exdate THEN
            PERFORM console.state_changed(NEW.id, 0::smallint, OLD.exdate);
        END IF;
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        c := console.domain_change_ids(TG_OP, NULL, NEW.id, true, NULL, NEW.nsset, NULL, NEW.registrant, NULL, NEW.keyset);
    ELSIF TG_OP = 'DELETE' THEN
        c := console.domain_change_ids(TG_OP, OLD.id, NULL, true, OLD.nsset, NULL, OLD.registrant, NULL, OLD.keyset, NULL);
    ELSE
        c := console.domain_change_ids(TG_OP, OLD.id, NEW.id, OLD.exdate IS DISTINCT FROM NEW.exdate, OLD.nsset, NEW.nsset,
                                       OLD.registrant, NEW.registrant, OLD.keyset, NEW.keyset);
    END IF;
    FOR i IN 1 .. cardinality(c.ids) LOOP
        IF TG_OP <> 'UPDATE' THEN
            PERFORM console.state_changed(c.ids[i], c.links[i]);  -- caught up by the BEFORE trigger
        ELSIF c.links[i] = 0 THEN
            PERFORM console.state_changed(c.ids[i], 0::smallint,
                                          CASE WHEN OLD.exdate IS DISTINCT FROM NEW.exdate THEN OLD.exdate END,
                                          NULL, OLD.nsset IS NULL);
        ELSE
            PERFORM console.state_changed(c.ids[i], c.links[i], NULL, NULL, NULL, c.links[i] = 1);
        END IF;
    END LOOP;
    RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION console.state_domain_before()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
    c record;
    i integer;
BEGIN
    PERFORM console.session_unshadowed();
    IF TG_OP = 'INSERT' THEN
        c := console.domain_change_ids(TG_OP, NULL, NEW.id, true, NULL, NEW.nsset, NULL, NEW.registrant, NULL, NEW.keyset);
    ELSIF TG_OP = 'DELETE' THEN
        c := console.domain_change_ids(TG_OP, OLD.id, NULL, true, OLD.nsset, NULL, OLD.registrant, NULL, OLD.keyset, NULL);
    ELSE
        c := console.domain_change_ids(TG_OP, OLD.id, NEW.id, OLD.exdate IS DISTINCT FROM NEW.exdate, OLD.nsset, NEW.nsset,
                                       OLD.registrant, NEW.registrant, OLD.keyset, NEW.keyset);
    END IF;
    FOR i IN 1 .. cardinality(c.ids) LOOP
        -- A link added to an object that is linked already: nothing to catch up, and its linked row
        -- held until the commit (console.state_link_kept), so no one ends it meanwhile.
        IF c.links[i] <> 2 OR NOT console.state_link_kept(c.ids[i]) THEN
            PERFORM console.state_catch_up(c.ids[i]);
        END IF;
    END LOOP;
    PERFORM set_config('console.state_apply', 'on', true);  -- the AFTER trigger's WHEN
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
END
$function$;

CREATE OR REPLACE FUNCTION console.state_domain_links_kept()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM console.session_unshadowed();
    IF NEW.registrant IS DISTINCT FROM OLD.registrant AND NEW.registrant IS NOT NULL THEN
        PERFORM console.state_link_kept(NEW.registrant);
    END IF;
    IF NEW.nsset IS DISTINCT FROM OLD.nsset AND NEW.nsset IS NOT NULL THEN
        PERFORM console.state_link_kept(NEW.nsset);
    END IF;
    IF NEW.keyset IS DISTINCT FROM OLD.keyset AND NEW.keyset IS NOT NULL THEN
        PERFORM console.state_link_kept(NEW.keyset);
    END IF;
    RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION console.state_engine_run(p_at timestamp with time zone DEFAULT now(), p_full boolean DEFAULT false, p_object_id integer DEFAULT NULL::integer)
 RETURNS TABLE(kind text, objects integer, opened integer, closed integer, cursor_before timestamp with time zone, cursor_after timestamp with time zone)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET "TimeZone" TO 'UTC'
AS $function$
DECLARE
    v_cursor timestamptz;
    v_w timestamptz;
    v_started timestamptz := clock_timestamp();
    v_objects integer;
    v_opened integer;
    v_closed integer;
    v_ids integer[];
    v_pending tid[];
BEGIN
    PERFORM console.session_unshadowed();
    IF p_at IS NULL OR NOT isfinite(p_at) THEN
        RAISE EXCEPTION 'state engine: the instant to run at must be a finite time, not %', p_at
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

    IF p_object_id IS NOT NULL THEN
        SELECT e.cursor INTO v_cursor FROM console.state_engine e;
        IF NOT pg_try_advisory_xact_lock_shared(7353002, 0) THEN
            RETURN QUERY SELECT 'busy'::text, 0, 0, 0, v_cursor, v_cursor;
            RETURN;
        END IF;
        PERFORM console.state_object_row_lock(p_object_id);
        v_w := console.state_exact_to(p_object_id);
        IF p_at < v_w THEN
            RETURN QUERY SELECT 'object'::text, 0, 0, 0, v_cursor, v_cursor;
            RETURN;
        END IF;
        SELECT a.opened, a.closed INTO v_opened, v_closed FROM console.state_object_apply(p_object_id, v_w, p_at, false) a;
        RETURN QUERY SELECT 'object'::text, 1, v_opened, v_closed, v_cursor, v_cursor;
        RETURN;
    END IF;

    IF NOT pg_try_advisory_xact_lock(7353002, 1) THEN
        RETURN QUERY SELECT 'busy'::text, 0, 0, 0, NULL::timestamptz, NULL::timestamptz;
        RETURN;
    END IF;
    -- Waits only for per-object work already under way (short); from here on, new per-object work
    -- does not wait for this run but leaves its change pending for the next one.
    PERFORM pg_advisory_xact_lock(7353002, 0);
    SELECT e.cursor, e.full_run_due OR p_full INTO v_cursor, p_full FROM console.state_engine e FOR UPDATE;
    IF v_cursor IS NOT NULL AND p_at < v_cursor THEN
        RETURN QUERY SELECT 'behind'::text, 0, 0, 0, v_cursor, v_cursor;
        RETURN;
    END IF;

    PERFORM console.state_work_tables();
    SELECT array_agg(sp.ctid) INTO v_pending FROM console.state_pending sp;
    IF p_full OR v_cursor IS NULL THEN
        INSERT INTO pg_temp.state_work (object_id, w)
        SELECT o.id, coalesce(greatest(v_cursor, ne.exact_to, sp.at), v_cursor, '-infinity')
          FROM object_registry o LEFT JOIN console.state_next_event ne ON ne.object_id = o.id
          LEFT JOIN (SELECT p.object_id, min(p.at) AS at FROM console.state_pending p WHERE p.ctid = ANY (v_pending)
                      GROUP BY p.object_id) sp ON sp.object_id = o.id
         WHERE greatest(ne.exact_to, sp.at) IS NULL OR greatest(ne.exact_to, sp.at) <= p_at;
        v_ids := NULL;
    ELSE
        -- A pending change counts from its instant: until then the object's data was as the run
        -- that held the engine saw it.
        INSERT INTO pg_temp.state_work (object_id, w)
        SELECT x.object_id, greatest(v_cursor, max(ne.exact_to), min(x.at))
          FROM (SELECT ne.object_id, NULL::timestamptz AS at FROM console.state_next_event ne WHERE ne.next_at <= p_at
                UNION ALL
                SELECT sp.object_id, sp.at FROM console.state_pending sp WHERE sp.ctid = ANY (v_pending)) x
          LEFT JOIN console.state_next_event ne ON ne.object_id = x.object_id
         GROUP BY x.object_id
        HAVING coalesce(greatest(v_cursor, max(ne.exact_to), min(x.at)), '-infinity') <= p_at;
        SELECT coalesce(array_agg(sw.object_id), '{}') INTO v_ids FROM pg_temp.state_work sw;
    END IF;
    SELECT count(*) INTO v_objects FROM pg_temp.state_work;

    SELECT a.opened, a.closed INTO v_opened, v_closed FROM console.state_apply(p_at, v_ids) a;

    DELETE FROM console.state_pending sp
     WHERE sp.ctid = ANY (v_pending) AND sp.object_id IN (SELECT sw.object_id FROM pg_temp.state_work sw);
    UPDATE console.state_engine e
       SET cursor = p_at,
           full_run_due = false,
           last_run_kind = CASE WHEN v_ids IS NULL THEN 'full' ELSE 'incremental' END,
           last_run_at = now(),
           last_run_finished_at = clock_timestamp(),
           last_run_objects = v_objects,
           last_run_opened = v_opened,
           last_run_closed = v_closed,
           last_run_ms = round(extract(epoch FROM clock_timestamp() - v_started)::numeric * 1000, 1);
    TRUNCATE pg_temp.state_work, pg_temp.state_desired;
    RETURN QUERY SELECT CASE WHEN v_ids IS NULL THEN 'full' ELSE 'incremental' END, v_objects, v_opened, v_closed, v_cursor, p_at;
END
$function$;

CREATE OR REPLACE FUNCTION console.state_engine_run_now(p_full boolean DEFAULT false, p_object_id integer DEFAULT NULL::integer)
 RETURNS TABLE(kind text, objects integer, opened integer, closed integer, cursor_before timestamp with time zone, cursor_after timestamp with time zone)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    v_at timestamptz := coalesce(nullif(current_setting('registry.state_clock', true), '')::timestamptz, now());
BEGIN
    PERFORM console.session_unshadowed();
    IF v_at < now() OR v_at > clock_timestamp() + interval '1 millisecond' THEN
        RAISE EXCEPTION 'state engine: registry.state_clock is set to %, which is not the present (a console change''s instant); '
                        'only the owner role may run the engine at an instant of its choosing (console.state_engine_run)', v_at
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN QUERY SELECT * FROM console.state_engine_run(v_at, p_full, p_object_id);
END
$function$;

CREATE OR REPLACE FUNCTION console.state_feed_insert()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM console.session_unshadowed();
    IF coalesce(current_setting('registry.state_feed', true), '') = 'off' THEN RETURN NULL; END IF;
    INSERT INTO console.state_changes (object_id, state_id, change, at)
    SELECT n.object_id, n.state_id, c.change, c.at
      FROM new_rows n
     CROSS JOIN LATERAL (VALUES ('entered', n.valid_from AT TIME ZONE 'UTC'), ('left', n.valid_to AT TIME ZONE 'UTC')) AS c(change, at)
     WHERE c.at IS NOT NULL
     ORDER BY c.at, n.id, c.change;
    RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION console.state_feed_update()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM console.session_unshadowed();
    IF coalesce(current_setting('registry.state_feed', true), '') = 'off' THEN RETURN NULL; END IF;
    INSERT INTO console.state_changes (object_id, state_id, change, at)
    SELECT n.object_id, n.state_id, 'left', n.valid_to AT TIME ZONE 'UTC'
      FROM new_rows n JOIN old_rows o ON o.id = n.id
     WHERE o.valid_to IS NULL AND n.valid_to IS NOT NULL
     ORDER BY n.valid_to, n.id;
    RETURN NULL;
END $function$;

CREATE OR REPLACE FUNCTION console.state_link_after()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
BEGIN
    PERFORM console.session_unshadowed();
    IF TG_OP = 'INSERT' THEN
        PERFORM console.state_changed(NEW.contactid, 2::smallint);
    ELSIF TG_OP = 'DELETE' THEN
        -- No BEFORE trigger caught it up: it is caught up here as it was, linked by this row.
        PERFORM console.state_changed(OLD.contactid, 1::smallint, p_old_linked => true);
    ELSIF OLD.contactid IS DISTINCT FROM NEW.contactid THEN
        IF OLD.contactid < NEW.contactid THEN
            PERFORM console.state_changed(OLD.contactid, 1::smallint);
            PERFORM console.state_changed(NEW.contactid, 2::smallint);
        ELSE
            PERFORM console.state_changed(NEW.contactid, 2::smallint);
            PERFORM console.state_changed(OLD.contactid, 1::smallint);
        END IF;
    END IF;
    RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION console.state_link_before()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM console.session_unshadowed();
    IF TG_OP = 'UPDATE' AND OLD.contactid IS NOT DISTINCT FROM NEW.contactid THEN
        RETURN NEW;  -- the role changed only: nothing about the contact's links changed
    END IF;
    IF TG_OP = 'INSERT' AND console.state_engine_open(NEW.contactid, console.state_clock())
       AND console.state_link_kept(NEW.contactid) THEN
        RETURN NEW;
    END IF;
    IF TG_OP <> 'INSERT' THEN PERFORM console.state_catch_up(OLD.contactid); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM console.state_catch_up(NEW.contactid); END IF;
    PERFORM set_config('console.state_apply', 'on', true);  -- the AFTER trigger's WHEN
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
END
$function$;

CREATE OR REPLACE FUNCTION console.state_object_update()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
    v_at timestamptz;
    v_later boolean := coalesce(NEW.update > OLD.update, OLD.update IS NULL AND NEW.update IS NOT NULL);
BEGIN
    PERFORM console.session_unshadowed();
    IF EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = NEW.id AND os.state_id = 16 AND os.valid_to IS NULL)
       OR (SELECT o.type FROM object_registry o WHERE o.id = NEW.id) NOT IN (1, 2, 4) THEN
        RETURN NULL;
    END IF;
    v_at := console.state_clock();
    IF NOT console.state_engine_open(NEW.id, v_at) THEN
        RETURN NULL;
    END IF;
    -- Updated later, nothing due, no work pending, no deleteCandidate open: deleteCandidate only
    -- moves later (decided holding the engine's lock shared, so no run applies older data after).
    IF v_later
       AND EXISTS (SELECT 1 FROM console.state_next_event ne WHERE ne.object_id = NEW.id AND ne.next_at > v_at)
       AND NOT EXISTS (SELECT 1 FROM console.state_pending sp WHERE sp.object_id = NEW.id)
       AND NOT EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = NEW.id AND os.state_id = 17 AND os.valid_to IS NULL) THEN
        RETURN NULL;
    END IF;
    -- Updated later: the shortcut for a delete candidate (p_link 3), else the general recomputation.
    PERFORM console.state_changed(NEW.id, CASE WHEN v_later THEN 3 ELSE 0 END::smallint,
                                  NULL, coalesce(OLD.update AT TIME ZONE 'UTC', '-infinity'));
    RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION console.state_parameters_changed()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
BEGIN
    PERFORM console.session_unshadowed();
    PERFORM console.state_parameters_compile();
    PERFORM console.state_triggers_compile();
    RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION console.state_parameters_compile()
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    v_rows text;
BEGIN
    PERFORM console.session_unshadowed();
    SELECT string_agg(format('(%L::date, %L::date, %L::interval, %L::interval, %L::interval, %L::interval, %L::interval, %L::interval, %L::interval)',
                             l.valid_from, l.valid_until, l.notify, l.dns, l.registration, l.validation1, l.validation2,
                             l.letter, l.outzone_warning), E',\n           ' ORDER BY l.valid_from)
      INTO v_rows FROM console.lifecycle_periods_stored() l;
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION console.lifecycle_periods()
        RETURNS TABLE (valid_from date, valid_until date, notify interval, dns interval, registration interval,
                       validation1 interval, validation2 interval, letter interval, outzone_warning interval)
        LANGUAGE sql STABLE PARALLEL SAFE AS $b$
            SELECT * FROM (VALUES %s) AS l (valid_from, valid_until, notify, dns, registration, validation1, validation2, letter, outzone_warning)
             WHERE %s
        $b$ $f$,
        coalesce(v_rows, '(NULL::date, NULL::date, NULL::interval, NULL::interval, NULL::interval, NULL::interval, NULL::interval, NULL::interval, NULL::interval)'),
        CASE WHEN v_rows IS NULL THEN 'false' ELSE 'true' END);
    SELECT format('(%L::text, %L::integer, %L::integer, %L::integer)', p.zone, p.day_hour, p.outzone_hour, p.protection_months)
      INTO v_rows FROM console.state_parameters_stored() p;
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION console.state_parameters()
        RETURNS TABLE (zone text, day_hour integer, outzone_hour integer, protection_months integer)
        LANGUAGE sql STABLE PARALLEL SAFE AS $b$
            SELECT * FROM (VALUES %s) AS p (zone, day_hour, outzone_hour, protection_months)
        $b$ $f$, v_rows);
END
$function$;

CREATE OR REPLACE FUNCTION console.state_triggers_compile()
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    v_lead integer;
    v_months integer;
    v_clock constant text := $c$(coalesce(nullif(current_setting('registry.state_clock', true), '')::timestamptz, now()) AT TIME ZONE 'UTC')$c$;
BEGIN
    PERFORM console.session_unshadowed();
    SELECT coalesce(max(ceil(extract(epoch FROM -least(l.notify, l.dns, l.registration, l.letter, l.outzone_warning,
                                                       interval '0')) / 86400)), 0)::integer + 2
      INTO v_lead FROM console.lifecycle_periods() l;
    SELECT coalesce(p.protection_months, 0) INTO v_months FROM console.state_parameters() p;
    DROP TRIGGER IF EXISTS console_state_apply_update ON domain;
    EXECUTE format($t$
        CREATE CONSTRAINT TRIGGER console_state_apply_update AFTER UPDATE ON domain
            DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW
            WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off'
                  AND (OLD.nsset IS DISTINCT FROM NEW.nsset OR OLD.registrant IS DISTINCT FROM NEW.registrant
                       OR OLD.keyset IS DISTINCT FROM NEW.keyset OR OLD.id IS DISTINCT FROM NEW.id
                       OR (OLD.exdate IS DISTINCT FROM NEW.exdate
                           AND NOT coalesce(NEW.exdate > OLD.exdate AND OLD.exdate > %s::date + %s, false))))
            EXECUTE FUNCTION console.state_domain_after()$t$, v_clock, v_lead);
    DROP TRIGGER IF EXISTS console_state_apply ON object;
    EXECUTE format($t$
        CREATE CONSTRAINT TRIGGER console_state_apply AFTER UPDATE OF update ON object
            DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW
            WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off' AND OLD.update IS DISTINCT FROM NEW.update
                  AND NOT coalesce(NEW.update > OLD.update AND OLD.update > %s - interval %L, false))
            EXECUTE FUNCTION console.state_object_update()$t$, v_clock, format('%s months -2 days', v_months));
END
$function$;

CREATE OR REPLACE FUNCTION console.user_set_password_hash(p_user_id integer, p_password_hash text, p_expected text DEFAULT NULL::text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
BEGIN
    PERFORM console.session_unshadowed();
    IF p_password_hash IS NULL OR p_password_hash !~ '^(rsc2:)?\$2[aby]\$[0-9]{2}\$[./A-Za-z0-9]{53}$' THEN
        RAISE EXCEPTION 'console.user_set_password_hash: the hash must be a bcrypt hash'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    UPDATE console.users SET password_hash = p_password_hash
     WHERE id = p_user_id AND (p_expected IS NULL OR password_hash = p_expected);
    RETURN FOUND;
END
$function$;
