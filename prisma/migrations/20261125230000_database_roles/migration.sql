-- Two database roles (issue 26, README "Database roles").
--
-- The OWNER role runs the migrations, adoption and the demo loader: it owns schema console, its
-- tables and functions (and, in a registry the console created, FRED's tables). The running console
-- connects as a RUNTIME login role that is a member of the group role console_app, which may do the
-- console's DML and nothing else:
--   * no DDL, no ALTER TABLE (so no DISABLE TRIGGER), no TRUNCATE: it owns nothing;
--   * console.audit_log: SELECT, and INSERT of the columns the console writes and signs (not the
--     unkeyed hashes, which the append trigger sets); console.audit_head: SELECT, and its row lock
--     through console.audit_chain_lock. The head moves only in the append trigger, which runs as its
--     owner (SECURITY DEFINER), as does the check of a signed row (20261125210000_audit_keyed);
--   * console.users: INSERT, and UPDATE of every column but id, username, oidc_subject and
--     password_hash; a password hash changes only through console.user_set_password_hash;
--   * the engine's bookkeeping, the migration record and the registry's origin: SELECT (the engine
--     writes them as their owner); the state change feed: SELECT and numbering (UPDATE of seq);
--   * FRED's registry tables the console reads: SELECT (object.authinfopw and
--     object_history.authinfopw, the transfer passwords, excepted); requests: INSERT and UPDATE of
--     valid_to and canceled, their reasons: INSERT and UPDATE of reason_cancellation, FRED's request
--     lock table: INSERT and DELETE (FRED's own trigger on object_state_request runs as the writer);
--     object rows are locked through console.lock_objects (a row lock needs UPDATE rights);
--   * functions: console.state_engine_run_now (the engine at the present instant), and the three
--     above. Only the owner runs the engine at an instant of its choosing (console.state_engine_run)
--     or has the state triggers date a change at one (registry.state_clock). Every SECURITY DEFINER
--     function in schema console has EXECUTE revoked from PUBLIC; trigger functions need no EXECUTE
--     grant for their triggers to fire.
--
-- FRED's roles keep exactly the rights they had on FRED's tables and functions: nothing here grants
-- or revokes anything on them for a role other than console_app. update_object_states(integer) stays
-- FRED's, callable as before; it now runs as its owner (SECURITY DEFINER), at now(), so FRED's roles
-- need no rights in schema console, whose USAGE is no longer granted to PUBLIC.

-- 1. The group role. Roles belong to the whole server: created once, by whichever database migrates
-- first; a role without CREATEROLE is told what the DBA has to run.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'console_app') THEN
        BEGIN
            CREATE ROLE console_app NOLOGIN;
        EXCEPTION
            WHEN duplicate_object OR unique_violation THEN
                NULL;  -- another database's migration created it at the same moment
            WHEN insufficient_privilege THEN
                RAISE EXCEPTION 'the group role console_app does not exist and the migrating role % may not create roles. '
                                'A superuser (or a role with CREATEROLE) must run: CREATE ROLE console_app NOLOGIN; '
                                'then GRANT console_app TO the console''s login role (DATABASE_URL), and migrate again', current_user
                    USING ERRCODE = 'insufficient_privilege';
        END;
    END IF;
END $$;

-- 2. New functions of the running console and of FRED's entry point.

-- The state engine at the present instant: what the running console (its scheduler,
-- `npm run states:update` without --at, a request's own object) may run. The present is now(), or
-- within a console change the change's instant (console.state_change_clock, which lies between the
-- transaction's start and this moment); any other registry.state_clock is refused: an instant of
-- one's choosing is for the owner only (console.state_engine_run).
CREATE FUNCTION console.state_engine_run_now(p_full boolean DEFAULT false, p_object_id integer DEFAULT NULL)
RETURNS TABLE (kind text, objects integer, opened integer, closed integer, cursor_before timestamptz, cursor_after timestamptz)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_at timestamptz := coalesce(nullif(current_setting('registry.state_clock', true), '')::timestamptz, now());
BEGIN
    IF v_at < now() OR v_at > clock_timestamp() + interval '1 millisecond' THEN
        RAISE EXCEPTION 'state engine: registry.state_clock is set to %, which is not the present (a console change''s instant); '
                        'only the owner role may run the engine at an instant of its choosing (console.state_engine_run)', v_at
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN QUERY SELECT * FROM console.state_engine_run(v_at, p_full, p_object_id);
END
$$;

-- The row locks a console change takes on its objects (FOR NO KEY UPDATE, in id order), without
-- giving the running console UPDATE rights on object_registry.
CREATE FUNCTION console.lock_objects(p_ids integer[]) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    PERFORM 1 FROM object_registry WHERE id = ANY (p_ids) ORDER BY id FOR NO KEY UPDATE;
END
$$;

-- The instant the state triggers date a change at: now(), or registry.state_clock (a session
-- setting anyone may set) when it is the present (a console change's instant,
-- console.state_change_clock) or when the session's login role has the owner's rights (tests and
-- tools that inject a clock). Another role's instant of its choosing is refused. The common case (no
-- clock set) stays one inlinable expression.
CREATE FUNCTION console.state_clock_chosen(p_clock text) RETURNS timestamptz
LANGUAGE plpgsql STABLE SET search_path = pg_catalog AS $$
DECLARE
    v_at timestamptz := p_clock::timestamptz;
BEGIN
    IF (v_at >= now() AND v_at <= clock_timestamp() + interval '1 millisecond')
       OR pg_has_role(session_user, (SELECT n.nspowner FROM pg_namespace n WHERE n.nspname = 'console'), 'USAGE') THEN
        RETURN v_at;
    END IF;
    RAISE EXCEPTION 'registry.state_clock is set to %, which is not the present: only the owner role may date state changes '
                    'at an instant of its choosing', v_at
        USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE OR REPLACE FUNCTION console.state_clock() RETURNS timestamptz
LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN nullif(current_setting('registry.state_clock', true), '') IS NULL THEN now()
                ELSE console.state_clock_chosen(current_setting('registry.state_clock', true)) END
$$;

-- A user's new password: the one way the running console changes a password hash (a bcrypt hash,
-- in the console's rsc2: form or bcrypt's own). p_expected: only if the stored hash is still this one
-- (a password change checked against the hash it read; a hash upgraded at sign-in). True when set.
CREATE FUNCTION console.user_set_password_hash(p_user_id integer, p_password_hash text, p_expected text DEFAULT NULL)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
BEGIN
    IF p_password_hash IS NULL OR p_password_hash !~ '^(rsc2:)?\$2[aby]\$[0-9]{2}\$[./A-Za-z0-9]{53}$' THEN
        RAISE EXCEPTION 'console.user_set_password_hash: the hash must be a bcrypt hash'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    UPDATE console.users SET password_hash = p_password_hash
     WHERE id = p_user_id AND (p_expected IS NULL OR password_hash = p_expected);
    RETURN FOUND;
END
$$;

-- The audit chain's lock, which the console takes before it signs a row (lib/audit/log.ts): the
-- head's row FOR UPDATE, without giving the running console UPDATE rights on console.audit_head.
CREATE FUNCTION console.audit_chain_lock(OUT last_id bigint, OUT last_hash text)
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog AS $$
    SELECT h.last_id, h.last_hash::text FROM console.audit_head h FOR UPDATE
$$;

-- FRED's entry point runs as its owner, at now(): FRED's roles call it as before (its EXECUTE
-- grants are FRED's and stay as they are) and need no rights in schema console.
CREATE OR REPLACE FUNCTION public.update_object_states(integer) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog SET TimeZone = 'UTC' AS $$
BEGIN
    -- Registry State Console: FRED's procedure replaced by the console's engine (exact instants).
    IF $1 = 0 THEN
        PERFORM console.state_engine_run(now(), false, NULL);
    ELSE
        PERFORM console.state_engine_run(now(), false, $1);
    END IF;
END
$$;

-- The audit chain's head moves only in the append trigger: it runs as the log's owner, so no other
-- role needs (or has) any right to change console.audit_head.
ALTER FUNCTION console.audit_log_append() SECURITY DEFINER SET search_path = pg_catalog;
-- The check of a signed row locks the head too (FOR UPDATE).
ALTER FUNCTION console.audit_log_accept_signed() SECURITY DEFINER SET search_path = pg_catalog;

-- 3. Functions: SECURITY DEFINER ones are executable by their owner and by the roles granted below.
DO $$
DECLARE
    f regprocedure;
BEGIN
    FOR f IN SELECT p.oid::regprocedure FROM pg_catalog.pg_proc p WHERE p.pronamespace = 'console'::regnamespace AND p.prosecdef LOOP
        EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', f);
    END LOOP;
END $$;
REVOKE USAGE ON SCHEMA console FROM PUBLIC;

GRANT USAGE ON SCHEMA console TO console_app;
GRANT EXECUTE ON FUNCTION console.state_engine_run_now(boolean, integer), console.lock_objects(integer[]),
    console.user_set_password_hash(integer, text, text), console.audit_chain_lock() TO console_app;

-- In a FRED registry migrated by another role than the owner of FRED's update_object_states (a
-- superuser, say), that owner needs the engine: it is FRED's owner role, which may pass an instant.
DO $$
DECLARE
    v_owner regrole := (SELECT p.proowner::regrole FROM pg_catalog.pg_proc p WHERE p.oid = 'public.update_object_states(integer)'::regprocedure);
BEGIN
    IF NOT has_schema_privilege(v_owner, 'console', 'USAGE') THEN
        EXECUTE format('GRANT USAGE ON SCHEMA console TO %s', v_owner);
    END IF;
    IF NOT has_function_privilege(v_owner, 'console.state_engine_run(timestamptz, boolean, integer)', 'EXECUTE') THEN
        EXECUTE format('GRANT EXECUTE ON FUNCTION console.state_engine_run(timestamptz, boolean, integer) TO %s', v_owner);
    END IF;
END $$;

-- 4. The console's tables.
GRANT SELECT ON ALL TABLES IN SCHEMA console TO console_app;
GRANT INSERT, UPDATE, DELETE ON console.sessions, console.sign_in_failures, console.settings, console.api_tokens,
    console.blocks, console.block_displaced, console.request_meta TO console_app;
GRANT INSERT ON console.users TO console_app;
GRANT UPDATE (display_name, role, disabled_at, session_version, updated_at, locale) ON console.users TO console_app;
GRANT INSERT (id, at, actor, actor_id, role, session_id, client_address, action, object_ids, input, result, error_code, key_id, mac)
    ON console.audit_log TO console_app;
GRANT UPDATE (seq) ON console.state_changes TO console_app;
GRANT USAGE, SELECT ON SEQUENCE console.users_id_seq, console.api_tokens_id_seq, console.blocks_id_seq TO console_app;

-- Tables later migrations create in schema console: the running console's DML by default (a
-- migration that wants less revokes it explicitly), for the role migrating now and the schema's owner.
DO $$
DECLARE
    r text;
BEGIN
    FOR r IN SELECT DISTINCT x FROM unnest(ARRAY[current_user::regrole::text,
                                                 (SELECT n.nspowner::regrole::text FROM pg_catalog.pg_namespace n WHERE n.nspname = 'console')]) x LOOP
        EXECUTE format('ALTER DEFAULT PRIVILEGES FOR ROLE %s IN SCHEMA console GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO console_app', r);
        EXECUTE format('ALTER DEFAULT PRIVILEGES FOR ROLE %s IN SCHEMA console GRANT USAGE, SELECT ON SEQUENCES TO console_app', r);
    END LOOP;
END $$;

-- 5. FRED's registry tables (those of migration 20261124000000_registry_fred_2_52): read, and the
-- request writes of the console.
DO $$
DECLARE
    t text;
    v_columns text;
BEGIN
    IF NOT has_schema_privilege('console_app', 'public', 'USAGE') THEN
        GRANT USAGE ON SCHEMA public TO console_app;
    END IF;
    FOREACH t IN ARRAY ARRAY['enum_object_type', 'enum_country', 'enum_ssntype', 'zone', 'registrar', 'history', 'object_registry',
                             'contact', 'nsset', 'nsset_contact_map', 'host', 'host_ipaddr_map', 'keyset', 'keyset_contact_map',
                             'domain', 'domain_contact_map', 'enumval', 'enum_object_states', 'enum_object_states_desc', 'object_state',
                             'object_state_request', 'object_state_request_lock', 'enum_object_state_request_reason_external',
                             'object_state_request_reason', 'enum_parameters', 'domain_lifecycle_parameters'] LOOP
        EXECUTE format('GRANT SELECT ON public.%I TO console_app', t);
    END LOOP;
    -- Every column but the transfer password.
    FOREACH t IN ARRAY ARRAY['object', 'object_history'] LOOP
        SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO v_columns
          FROM pg_catalog.pg_attribute a
         WHERE a.attrelid = format('public.%I', t)::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attname <> 'authinfopw';
        EXECUTE format('GRANT SELECT (%s) ON public.%I TO console_app', v_columns, t);
    END LOOP;
    EXECUTE format('GRANT USAGE ON SEQUENCE %s TO console_app', pg_get_serial_sequence('public.object_state_request', 'id'));
END $$;
GRANT INSERT, UPDATE (valid_to, canceled) ON public.object_state_request TO console_app;
GRANT INSERT, UPDATE (reason_cancellation) ON public.object_state_request_reason TO console_app;
GRANT INSERT, DELETE ON public.object_state_request_lock TO console_app;
