-- Issue 10: a feed of state changes for other systems (a zone generator following outzone, a
-- notifier telling registrars about external states). Every state entered or left is recorded once,
-- in the same transaction as the history row that says so, by statement triggers on object_state
-- (whoever writes it: the engine, a request's materialisation, FRED's own procedure).
CREATE TABLE console.state_changes (
    -- Insertion order; not the feed's order: transactions commit in another order than they insert.
    id bigserial PRIMARY KEY,
    -- The feed's id: given in commit order by console.sequence_state_changes(), so a reader that
    -- has read up to N never later finds a change below N.
    seq bigint UNIQUE,
    object_id integer NOT NULL,
    state_id integer NOT NULL REFERENCES enum_object_states (id),
    change text NOT NULL CHECK (change IN ('entered', 'left')),
    -- The instant the state began or ended (the history row's valid_from or valid_to).
    at timestamptz NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX state_changes_unsequenced_idx ON console.state_changes (id) WHERE seq IS NULL;
CREATE INDEX state_changes_state_seq_idx ON console.state_changes (state_id, seq);

-- Set registry.state_feed to 'off' (transaction-local) to write history without feeding it: the
-- demo loader's first build of all history is the registry's past, not news.
CREATE FUNCTION console.state_feed_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF coalesce(current_setting('registry.state_feed', true), '') = 'off' THEN RETURN NULL; END IF;
    INSERT INTO console.state_changes (object_id, state_id, change, at)
    SELECT n.object_id, n.state_id, c.change, c.at
      FROM new_rows n
     CROSS JOIN LATERAL (VALUES ('entered', n.valid_from), ('left', n.valid_to)) AS c(change, at)
     WHERE c.at IS NOT NULL
     ORDER BY c.at, n.id, c.change;
    RETURN NULL;
END $$;

CREATE FUNCTION console.state_feed_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF coalesce(current_setting('registry.state_feed', true), '') = 'off' THEN RETURN NULL; END IF;
    INSERT INTO console.state_changes (object_id, state_id, change, at)
    SELECT n.object_id, n.state_id, 'left', n.valid_to
      FROM new_rows n JOIN old_rows o ON o.id = n.id
     WHERE o.valid_to IS NULL AND n.valid_to IS NOT NULL
     ORDER BY n.valid_to, n.id;
    RETURN NULL;
END $$;

CREATE TRIGGER object_state_feed_insert AFTER INSERT ON object_state
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION console.state_feed_insert();
CREATE TRIGGER object_state_feed_update AFTER UPDATE ON object_state
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION console.state_feed_update();

-- Numbers the committed changes not numbered yet, after every number given so far. One caller at a
-- time (an advisory lock); it sees only committed rows, so a number once read is never undercut.
CREATE FUNCTION console.sequence_state_changes() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    v_count bigint;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('console.state_changes.seq'));
    WITH pending AS (
        SELECT c.id, row_number() OVER (ORDER BY c.id) AS n
          FROM console.state_changes c WHERE c.seq IS NULL
    ), top AS (SELECT coalesce(max(seq), 0) AS seq FROM console.state_changes)
    UPDATE console.state_changes c SET seq = top.seq + p.n FROM pending p, top WHERE c.id = p.id;
    GET DIAGNOSTICS v_count = ROW_COUNT;
    RETURN v_count;
END $$;

-- API tokens for the feed's readers (other systems). Only a hash is kept; the token is shown once.
CREATE TABLE console.api_tokens (
    id serial PRIMARY KEY,
    name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
    token_hash char(64) NOT NULL UNIQUE,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz,
    revoked_by text,
    last_used_at timestamptz,
    -- The last position the client asked from: its cursor, as far as the console knows.
    last_after bigint
);
