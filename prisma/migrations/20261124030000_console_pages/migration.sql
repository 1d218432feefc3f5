-- What the console's pages, requests, blocks and state change feed need. Indexes on FRED's tables
-- are named console_* (FRED's own indexes stay as they are); everything else is in schema console.

-- The object list (/objects): its sort orders and name searches read a page without visiting every
-- object. Names sort case-insensitively, so handles (upper case) and domain names interleave.
CREATE INDEX console_object_registry_live_lower_name_idx ON object_registry (lower(name), id) WHERE erdate IS NULL;
CREATE INDEX console_object_registry_live_type_lower_name_idx ON object_registry (type, lower(name), id) WHERE erdate IS NULL;
CREATE INDEX console_object_registry_live_crdate_idx ON object_registry (crdate, id) WHERE erdate IS NULL;
CREATE INDEX console_object_registry_type_crdate_idx ON object_registry (type, crdate, id);
CREATE INDEX console_object_registry_crid_idx ON object_registry (crid);
-- Name search is case-insensitive, by prefix or substring: trigrams of the lower-cased name.
CREATE INDEX console_object_registry_name_trgm_idx ON object_registry USING gin (lower(name) gin_trgm_ops);
-- Domains by expiration, ties in id order (the list's keyset); domains by keyset.
CREATE INDEX console_domain_exdate_id_idx ON domain (exdate, id);
CREATE INDEX console_domain_keyset_idx ON domain (keyset);

-- An object's history, in order.
CREATE INDEX console_object_state_history_idx ON object_state (object_id, state_id, valid_from);
-- "Has state X now" over millions of objects: an index-only scan of the open rows of one state.
CREATE INDEX console_object_state_open_idx ON object_state (state_id, object_id) WHERE valid_to IS NULL;
-- "Had state X at instant T" and "at any time in [A, B)": a range search within one state (UTC
-- timestamps, as stored; tsrange over timestamp is immutable, so it can be indexed).
CREATE INDEX console_object_state_period_idx ON object_state USING gist (state_id, tsrange(valid_from, valid_to, '[)'));
-- "When did this object stop being linked": closed rows of one state by end time.
CREATE INDEX console_object_state_closed_idx ON object_state (state_id, valid_to) WHERE valid_to IS NOT NULL;

-- Requests: an object's by state and start; not canceled ones by state and start; by end; and all
-- of them newest start first, keyset-paged on (valid_from, id).
CREATE INDEX console_object_state_request_object_idx ON object_state_request (object_id, state_id, valid_from);
CREATE INDEX console_object_state_request_active_idx ON object_state_request (state_id, valid_from) WHERE canceled IS NULL;
CREATE INDEX console_object_state_request_valid_to_idx ON object_state_request (valid_to) WHERE valid_to IS NOT NULL;
CREATE INDEX console_object_state_request_valid_from_id_idx ON object_state_request (valid_from, id);

-- What states do to EPP commands (STATES.md, "What states do to the rest of a registry").
CREATE TABLE console.object_state_command_refusal (
    command varchar(20) NOT NULL CHECK (command IN ('update', 'delete', 'transfer', 'renew')),
    state_id integer NOT NULL REFERENCES enum_object_states (id),
    PRIMARY KEY (command, state_id)
);

INSERT INTO console.object_state_command_refusal (command, state_id) VALUES
    ('update', 4), ('update', 17),
    ('delete', 4), ('delete', 1), ('delete', 17),
    ('transfer', 3), ('transfer', 17),
    ('renew', 2), ('renew', 17);

-- Why each state of an object holds: state_reasons decides which rule or request explains a state
-- and with which of the object's dates and counts, and returns that as a reason code with its
-- arguments, so the console words it in the reader's language (lib/i18n/messages/*/reasons.ts,
-- rendered by lib/objects/reasons.ts). The rules stay here, next to object_state_periods and their
-- parameters (enum_parameters, domain_lifecycle_parameters); only the wording is in TypeScript.
--
-- Codes and their arguments (dates are calendar dates YYYY-MM-DD; instants are timestamptz, shown
-- as wall times in `zone`, the registry's time zone of console.state_parameters()):
--   requested               from, to (null: open ended), zone, request, reason (null: none recorded)
--   expirationWarning       exdate, days, warningFrom
--   expired                 exdate, today
--   unguarded               days, at, zone, exdate
--   validationWarning       validationDate, days
--   notValidated            at, zone, validationDate
--   nssetMissing            (none)
--   outzoneNoNsset, outzoneManual, outzoneUnguarded (uses exdate), outzoneNotValidated (uses
--                           validationDate): each with exdate, validationDate
--   deleteCandidateDomain   exdate, days, at, zone
--   linked                  registrant, domainContact, nssetContact, keysetContact, nssetOf, keysetOf (counts)
--   deleteCandidateUnlinked since, neverLinked, months, zone
CREATE FUNCTION console.state_reasons(p_object_id integer, p_at timestamptz DEFAULT now())
RETURNS TABLE (state_id integer, code text, args jsonb, request_id integer)
LANGUAGE sql STABLE AS $$
WITH p AS (SELECT * FROM console.state_parameters()),
obj AS (SELECT o.id, o.type, o.crdate AT TIME ZONE 'UTC' AS crdate FROM object_registry o WHERE o.id = p_object_id),
t AS (SELECT p.zone, p.day_hour, p.outzone_hour, p.protection_months, (p_at AT TIME ZONE p.zone)::date AS today FROM p),
req AS (
    SELECT r.id, r.state_id, r.valid_from AT TIME ZONE 'UTC' AS valid_from, r.valid_to AT TIME ZONE 'UTC' AS valid_to, rr.reason_creation
      FROM object_state_request r
      LEFT JOIN object_state_request_reason rr ON rr.object_state_request_id = r.id
     WHERE r.object_id = p_object_id AND r.valid_from <= p_at AT TIME ZONE 'UTC'
       AND (r.valid_to IS NULL OR r.valid_to > p_at AT TIME ZONE 'UTC') AND (r.canceled IS NULL OR r.canceled > p_at AT TIME ZONE 'UTC')
),
manual AS (SELECT coalesce(array_agg(req.state_id), '{}') AS states FROM req),
dom AS (
    SELECT d.id, d.exdate, d.nsset, e.exdate AS val_exdate,
           (d.exdate + l.notify)::date AS warning_from,
           extract(day FROM -l.notify)::integer AS notify_days,
           extract(day FROM l.dns)::integer AS dns_days,
           extract(day FROM l.registration)::integer AS delete_days,
           extract(day FROM -l.validation1)::integer AS validation1_days,
           extract(day FROM -l.validation2)::integer AS validation2_days,
           console.registry_instant((d.exdate + l.dns)::date, t.outzone_hour, t.zone) AS unguarded_at,
           console.registry_instant((d.exdate + l.registration)::date, t.day_hour, t.zone) AS delete_at,
           console.registry_instant(e.exdate, t.outzone_hour, t.zone) AS not_validated_at
      FROM domain d CROSS JOIN t
      JOIN console.lifecycle_periods() l ON d.exdate >= l.valid_from AND d.exdate < l.valid_until
      LEFT JOIN enumval e ON e.domainid = d.id WHERE d.id = p_object_id
),
refs AS (
    SELECT (SELECT count(*) FROM domain d WHERE d.registrant = p_object_id) AS registrant,
           (SELECT count(*) FROM domain_contact_map m WHERE m.contactid = p_object_id) AS domain_contact,
           (SELECT count(*) FROM nsset_contact_map m WHERE m.contactid = p_object_id) AS nsset_contact,
           (SELECT count(*) FROM keyset_contact_map m WHERE m.contactid = p_object_id) AS keyset_contact,
           (SELECT count(*) FROM domain d WHERE d.nsset = p_object_id) AS nsset_of,
           (SELECT count(*) FROM domain d WHERE d.keyset = p_object_id) AS keyset_of
),
last_linked AS (
    SELECT max(os.valid_to) AT TIME ZONE 'UTC' AS at FROM object_state os
     WHERE os.object_id = p_object_id AND os.state_id = 16 AND os.valid_to IS NOT NULL
),
updated AS (SELECT ob.update AT TIME ZONE 'UTC' AS at FROM object ob WHERE ob.id = p_object_id)
-- Manual states: the request that holds them.
SELECT req.state_id, 'requested',
       jsonb_build_object('from', req.valid_from, 'to', req.valid_to, 'zone', t.zone, 'request', req.id,
                          'reason', nullif(req.reason_creation, '')),
       req.id
  FROM req CROSS JOIN t
UNION ALL
SELECT v.state_id, v.code, v.args, NULL::integer
  FROM dom CROSS JOIN t CROSS JOIN manual m
 CROSS JOIN LATERAL (VALUES
    (8, 'expirationWarning', jsonb_build_object('exdate', dom.exdate, 'days', dom.notify_days, 'warningFrom', dom.warning_from)),
    (9, 'expired', jsonb_build_object('exdate', dom.exdate, 'today', t.today)),
    (10, 'unguarded', jsonb_build_object('days', dom.dns_days, 'at', dom.unguarded_at, 'zone', t.zone, 'exdate', dom.exdate)),
    (11, CASE WHEN dom.val_exdate IS NOT NULL THEN 'validationWarning' END,
         jsonb_build_object('validationDate', dom.val_exdate, 'days', dom.validation1_days)),
    (12, CASE WHEN dom.val_exdate IS NOT NULL THEN 'validationWarning' END,
         jsonb_build_object('validationDate', dom.val_exdate, 'days', dom.validation2_days)),
    (13, CASE WHEN dom.val_exdate IS NOT NULL THEN 'notValidated' END,
         jsonb_build_object('at', dom.not_validated_at, 'zone', t.zone, 'validationDate', dom.val_exdate)),
    (14, 'nssetMissing', '{}'::jsonb),
    (15, CASE
           WHEN dom.nsset IS NULL THEN 'outzoneNoNsset'
           WHEN 5 = ANY (m.states) THEN 'outzoneManual'
           WHEN 6 = ANY (m.states) THEN NULL
           WHEN dom.unguarded_at <= p_at THEN 'outzoneUnguarded'
           WHEN dom.not_validated_at <= p_at THEN 'outzoneNotValidated'
         END,
         jsonb_build_object('exdate', dom.exdate, 'validationDate', dom.val_exdate)),
    (17, 'deleteCandidateDomain', jsonb_build_object('exdate', dom.exdate, 'days', dom.delete_days, 'at', dom.delete_at, 'zone', t.zone))
 ) AS v (state_id, code, args)
 WHERE v.code IS NOT NULL
UNION ALL
SELECT 16, 'linked',
       jsonb_build_object('registrant', refs.registrant, 'domainContact', refs.domain_contact, 'nssetContact', refs.nsset_contact,
                          'keysetContact', refs.keyset_contact, 'nssetOf', refs.nsset_of, 'keysetOf', refs.keyset_of),
       NULL
  FROM refs CROSS JOIN obj WHERE obj.type IN (1, 2, 4)
UNION ALL
SELECT 17, 'deleteCandidateUnlinked',
       jsonb_build_object('since', greatest(coalesce(l.at, obj.crdate), u.at), 'neverLinked', l.at IS NULL, 'months', t.protection_months,
                          'zone', t.zone),
       NULL
  FROM obj CROSS JOIN t CROSS JOIN last_linked l LEFT JOIN updated u ON true WHERE obj.type IN (1, 2, 4)
$$;
CREATE TABLE console.request_meta (
    request_id integer PRIMARY KEY REFERENCES object_state_request (id),
    author text NOT NULL,
    author_id integer REFERENCES console.users (id),
    -- One form submission, one request: a retried or doubled submit finds the first.
    idempotency_key uuid UNIQUE,
    batch_id uuid,
    canceled_by text,
    canceled_by_id integer REFERENCES console.users (id)
);

CREATE INDEX request_meta_batch_idx ON console.request_meta (batch_id) WHERE batch_id IS NOT NULL;

-- Administrative blocking (FRED's workflow, kept as the console's own record): serverBlocked plus
-- chosen prohibitions over one period. Prohibition requests in force when the block begins are cut
-- at its start and remembered, so unblocking restores them.
CREATE TABLE console.blocks (
    id serial PRIMARY KEY,
    object_id integer NOT NULL REFERENCES object_registry (id),
    -- The block's serverBlocked request; its period is the block's.
    blocked_request_id integer NOT NULL UNIQUE REFERENCES object_state_request (id),
    created_by text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    unblocked_at timestamptz,
    unblocked_by text
);

CREATE INDEX blocks_object_idx ON console.blocks (object_id);

CREATE TABLE console.block_displaced (
    block_id integer NOT NULL REFERENCES console.blocks (id),
    request_id integer NOT NULL REFERENCES object_state_request (id),
    -- The request's end before the block cut it (NULL: it had none).
    original_valid_to timestamptz,
    PRIMARY KEY (block_id, request_id)
);

ALTER TABLE console.request_meta ADD COLUMN block_id integer REFERENCES console.blocks (id);
CREATE INDEX request_meta_block_idx ON console.request_meta (block_id) WHERE block_id IS NOT NULL;

-- A feed of state changes for other systems (a zone generator following outzone, a
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
CREATE FUNCTION console.state_feed_insert() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    IF coalesce(current_setting('registry.state_feed', true), '') = 'off' THEN RETURN NULL; END IF;
    INSERT INTO console.state_changes (object_id, state_id, change, at)
    SELECT n.object_id, n.state_id, c.change, c.at
      FROM new_rows n
     CROSS JOIN LATERAL (VALUES ('entered', n.valid_from AT TIME ZONE 'UTC'), ('left', n.valid_to AT TIME ZONE 'UTC')) AS c(change, at)
     WHERE c.at IS NOT NULL
     ORDER BY c.at, n.id, c.change;
    RETURN NULL;
END $$;

CREATE FUNCTION console.state_feed_update() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    IF coalesce(current_setting('registry.state_feed', true), '') = 'off' THEN RETURN NULL; END IF;
    INSERT INTO console.state_changes (object_id, state_id, change, at)
    SELECT n.object_id, n.state_id, 'left', n.valid_to AT TIME ZONE 'UTC'
      FROM new_rows n JOIN old_rows o ON o.id = n.id
     WHERE o.valid_to IS NULL AND n.valid_to IS NOT NULL
     ORDER BY n.valid_to, n.id;
    RETURN NULL;
END $$;

CREATE TRIGGER console_state_feed_insert AFTER INSERT ON object_state
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION console.state_feed_insert();
CREATE TRIGGER console_state_feed_update AFTER UPDATE ON object_state
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
