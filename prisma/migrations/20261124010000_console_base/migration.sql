-- The console's own data: users, their sessions, sign-in throttling, settings and the append-only
-- audit log. All of it lives in schema console, apart from the registry (FRED's tables in public),
-- so that a FRED database the console adopts gains nothing outside that schema here.

-- btree_gist for the console's GiST index over (state, period) of object_state, pg_trgm for the
-- name search. Kept in schema console when the console brings them; a database that already has
-- them (FRED's has pg_trgm) keeps its own.
CREATE EXTENSION IF NOT EXISTS btree_gist WITH SCHEMA console;
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA console;

-- How the registry tables came to be: created by the console in an empty database, or adopted from
-- FRED (then FRED's model_version at adoption, and the instant the console's engine took over).
CREATE TABLE console.registry_origin (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    origin text NOT NULL CHECK (origin IN ('created', 'adopted')),
    model_version text NOT NULL,
    since timestamptz NOT NULL DEFAULT now(),
    -- Adopted: the newest request then; requests up to it are the registry's own, kept as they are
    -- even where the console's rules would refuse them (listed as inherited by db:check).
    last_inherited_request integer
);

CREATE TABLE console.users (
    id serial PRIMARY KEY,
    username varchar(64) NOT NULL UNIQUE,
    display_name varchar(200),
    -- bcrypt; NULL for accounts that only sign in through OpenID Connect
    password_hash text,
    oidc_subject text UNIQUE,
    role text NOT NULL,
    disabled_at timestamptz,
    -- Raised by a role change, disabling or "sign out everywhere": older sessions stop working.
    session_version integer NOT NULL DEFAULT 1,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT users_username_check CHECK (username ~ '^[a-z0-9][a-z0-9._@-]{1,63}$'),
    CONSTRAINT users_role_check CHECK (role IN ('admin', 'operator', 'support')),
    -- NULL: not chosen yet; the browser's language decides. State descriptions carry the same two.
    locale text CONSTRAINT users_locale_check CHECK (locale IN ('en', 'cs'))
);

CREATE TABLE console.sessions (
    id uuid PRIMARY KEY,
    user_id integer NOT NULL REFERENCES console.users (id),
    session_version integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    ended_at timestamptz,
    end_reason text,
    client_address text,
    user_agent varchar(400)
);

CREATE INDEX sessions_user_open_idx ON console.sessions (user_id) WHERE ended_at IS NULL;

-- Failed sign-ins by the user name typed (existing or not), for throttling.
CREATE TABLE console.sign_in_failures (
    username varchar(200) NOT NULL,
    at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX sign_in_failures_username_at_idx ON console.sign_in_failures (username, at);

CREATE TABLE console.settings (
    key text PRIMARY KEY,
    value text NOT NULL
);

-- One row per action. Rows are only ever inserted: UPDATE, DELETE and TRUNCATE raise an error,
-- and each row carries the hash of the row before it, so a row changed or removed behind the
-- triggers' back breaks the chain that `npm run audit:verify` checks.
CREATE TABLE console.audit_log (
    id bigint PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT clock_timestamp(),
    actor text,
    actor_id integer,
    role text,
    session_id uuid,
    client_address text,
    action text NOT NULL,
    object_ids integer[] NOT NULL DEFAULT '{}',
    input jsonb NOT NULL DEFAULT '{}',
    result text NOT NULL,
    error_code text,
    prev_hash char(64) NOT NULL,
    hash char(64) NOT NULL,
    CONSTRAINT audit_log_result_check CHECK (result IN ('ok', 'refused', 'error'))
);

CREATE INDEX audit_log_at_idx ON console.audit_log (at DESC, id DESC);
CREATE INDEX audit_log_actor_idx ON console.audit_log (actor, id DESC);
CREATE INDEX audit_log_action_idx ON console.audit_log (action, id DESC);
CREATE INDEX audit_log_object_ids_idx ON console.audit_log USING gin (object_ids);

-- The end of the chain: its single row is locked by every insert, which serialises appends and
-- lets the verifier notice a removed last row.
CREATE TABLE console.audit_head (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    last_id bigint NOT NULL,
    last_hash char(64) NOT NULL
);

INSERT INTO console.audit_head (last_id, last_hash) VALUES (0, repeat('0', 64));

CREATE FUNCTION console.audit_row_hash(prev_hash text, r console.audit_log) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT encode(sha256(convert_to(
        concat_ws(E'\x1f', prev_hash, r.id::text,
                  to_char(r.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                  coalesce(r.actor, ''), coalesce(r.actor_id::text, ''), coalesce(r.role, ''),
                  coalesce(r.session_id::text, ''), coalesce(r.client_address, ''), r.action,
                  r.object_ids::text, r.input::text, r.result, coalesce(r.error_code, '')),
        'UTF8')), 'hex')
$$;

CREATE FUNCTION console.audit_log_append() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    head console.audit_head%ROWTYPE;
BEGIN
    SELECT * INTO head FROM console.audit_head FOR UPDATE;
    NEW.id := head.last_id + 1;
    NEW.prev_hash := head.last_hash;
    NEW.hash := console.audit_row_hash(head.last_hash, NEW);
    UPDATE console.audit_head SET last_id = NEW.id, last_hash = NEW.hash;
    RETURN NEW;
END
$$;

CREATE FUNCTION console.audit_log_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'console.audit_log is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER audit_log_append BEFORE INSERT ON console.audit_log
    FOR EACH ROW EXECUTE FUNCTION console.audit_log_append();
CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON console.audit_log
    FOR EACH ROW EXECUTE FUNCTION console.audit_log_immutable();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON console.audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION console.audit_log_immutable();

-- The head moves only inside audit_log_append (trigger depth 2), never by a direct statement.
CREATE FUNCTION console.audit_head_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF pg_trigger_depth() < 2 THEN
        RAISE EXCEPTION 'console.audit_head moves only when an audit row is appended'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER audit_head_guard BEFORE UPDATE OR DELETE ON console.audit_head
    FOR EACH ROW EXECUTE FUNCTION console.audit_head_guard();
