-- Issue 42: cases, four-eyes approval and reviews. A case is the order or request that justifies
-- blocks and manual state requests (a court order, a CSIRT's report, …); the changes made under it
-- carry its reference into FRED's reason row. Administrators say which changes need a second
-- person; such a change waits as a pending change (nothing in FRED's tables) until another person
-- approves it, and is then applied in the approver's transaction.

-- The kinds of case, configurable by administrators (retired kinds stay for the cases that have them).
CREATE TABLE console.case_kinds (
    code text PRIMARY KEY CHECK (code ~ '^[a-z][a-z0-9_]{0,39}$'),
    name_en text NOT NULL CHECK (length(name_en) BETWEEN 1 AND 100),
    name_cs text NOT NULL CHECK (length(name_cs) BETWEEN 1 AND 100),
    position integer NOT NULL DEFAULT 0,
    retired_at timestamptz
);

INSERT INTO console.case_kinds (code, name_en, name_cs, position) VALUES
    ('court_order', 'Court order', 'Soudní rozhodnutí', 1),
    ('csirt', 'CSIRT / phishing', 'CSIRT / phishing', 2),
    ('law_enforcement', 'Law enforcement', 'Orgán činný v trestním řízení', 3),
    ('registrant', 'Registrant''s request', 'Žádost držitele', 4),
    ('registrar', 'Registrar''s request', 'Žádost registrátora', 5),
    ('internal', 'Internal decision', 'Interní rozhodnutí', 6);

CREATE TABLE console.cases (
    id serial PRIMARY KEY,
    kind text NOT NULL REFERENCES console.case_kinds (code),
    -- The order's or ticket's number; short, as it goes into FRED's reason rows (300 characters).
    reference text NOT NULL CHECK (length(reference) BETWEEN 1 AND 60),
    requested_by text NOT NULL CHECK (length(requested_by) BETWEEN 1 AND 200),
    description text NOT NULL DEFAULT '' CHECK (length(description) <= 4000),
    -- The day (in the registry's zone) by which someone must look at the case again.
    review_by date,
    status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'ended')),
    -- Who answers for it: mailed before its review date.
    owner_id integer NOT NULL REFERENCES console.users (id),
    created_by text NOT NULL,
    created_by_id integer REFERENCES console.users (id),
    created_at timestamptz NOT NULL,
    ended_at timestamptz,
    ended_by text,
    ended_by_id integer REFERENCES console.users (id),
    -- When the owner was last mailed that the review date comes (one mail per date).
    review_mailed_for date,
    CHECK ((status = 'ended') = (ended_at IS NOT NULL))
);

CREATE INDEX cases_review_idx ON console.cases (review_by) WHERE status = 'open';

-- A change of a case's objects that waits for a second person: its command and the input that
-- command takes (the same as when made at once), the dry run's summary when proposed.
CREATE TABLE console.pending_changes (
    id serial PRIMARY KEY,
    case_id integer REFERENCES console.cases (id),
    command text NOT NULL CHECK (command IN ('block.create', 'request.create', 'block.lift', 'request.cancel')),
    object_id integer NOT NULL REFERENCES object_registry (id),
    input jsonb NOT NULL,
    -- The state it makes or lifts (serverBlocked for a block), for the policy and the queue.
    state text NOT NULL,
    -- make, change or lift (the policy's words).
    change text NOT NULL CHECK (change IN ('make', 'change', 'lift')),
    summary jsonb NOT NULL,
    -- When what it makes starts (null: at once, or a lift); past it, unapproved, it is late.
    starts_at timestamptz,
    proposed_by text NOT NULL,
    proposed_by_id integer NOT NULL REFERENCES console.users (id),
    proposed_at timestamptz NOT NULL,
    -- Changed by its proposer: a new version, approved anew.
    version integer NOT NULL DEFAULT 1,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'applied', 'rejected', 'withdrawn')),
    decided_by text,
    decided_by_id integer REFERENCES console.users (id),
    decided_at timestamptz,
    decision_reason text CHECK (length(decision_reason) <= 300),
    -- What applying it made: {"blockId": …} or {"requestId": …}.
    applied jsonb,
    -- Proposed together (the objects of one bulk change).
    batch_id uuid,
    -- When approvers were last mailed about it (a reminder after a day).
    mailed_at timestamptz,
    CHECK ((status = 'pending') = (decided_at IS NULL)),
    CHECK (decided_by_id IS NULL OR decided_by_id <> proposed_by_id OR status = 'withdrawn')
);

CREATE INDEX pending_changes_waiting_idx ON console.pending_changes (proposed_at) WHERE status = 'pending';
CREATE INDEX pending_changes_object_idx ON console.pending_changes (object_id) WHERE status = 'pending';
CREATE INDEX pending_changes_case_idx ON console.pending_changes (case_id);

-- Which changes need a second person: a change needs one when any rule matches it. A rule's
-- empty field matches anything (state: any state; change: make, change or lift; case_kind: any
-- kind, and changes made without a case).
CREATE TABLE console.approval_rules (
    id serial PRIMARY KEY,
    state text CHECK (length(state) BETWEEN 1 AND 50),
    change text CHECK (change IN ('make', 'change', 'lift')),
    case_kind text REFERENCES console.case_kinds (code),
    created_by text NOT NULL,
    created_at timestamptz NOT NULL
);

CREATE UNIQUE INDEX approval_rules_once_idx ON console.approval_rules (coalesce(state, ''), coalesce(change, ''), coalesce(case_kind, ''));

-- What happened in a case, in order: the record an authority reads. Appended only.
CREATE TABLE console.case_events (
    id bigserial PRIMARY KEY,
    case_id integer NOT NULL REFERENCES console.cases (id),
    at timestamptz NOT NULL,
    actor text NOT NULL,
    actor_id integer REFERENCES console.users (id),
    event text NOT NULL CHECK (event IN ('opened', 'edited', 'reviewed', 'proposed', 'changed', 'approved', 'rejected', 'withdrawn',
                                         'refused', 'made', 'ended')),
    pending_id integer REFERENCES console.pending_changes (id),
    object_id integer REFERENCES object_registry (id),
    detail jsonb NOT NULL DEFAULT '{}'
);

CREATE INDEX case_events_case_idx ON console.case_events (case_id, id);
-- One case per "open a case" form (its submission key): a repeated or doubled submission finds the first.
CREATE UNIQUE INDEX case_events_opened_key_idx ON console.case_events ((detail ->> 'key')) WHERE event = 'opened' AND detail ? 'key';
REVOKE UPDATE, DELETE ON console.case_events FROM console_app;

-- The blocks and requests made in a case.
ALTER TABLE console.blocks ADD COLUMN case_id integer REFERENCES console.cases (id);
ALTER TABLE console.request_meta ADD COLUMN case_id integer REFERENCES console.cases (id);
-- Who approved a change that waited for a second person (its author is request_meta.author).
ALTER TABLE console.request_meta ADD COLUMN approved_by text;
CREATE INDEX blocks_case_idx ON console.blocks (case_id) WHERE case_id IS NOT NULL;
CREATE INDEX request_meta_case_idx ON console.request_meta (case_id) WHERE case_id IS NOT NULL;

-- Whether a change needs a second person: any rule that matches it (an empty field matches anything).
CREATE FUNCTION console.change_needs_approval(p_state text, p_change text, p_case_kind text)
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
SELECT EXISTS (
    SELECT FROM console.approval_rules r
     WHERE (r.state IS NULL OR r.state = p_state)
       AND (r.change IS NULL OR r.change = p_change)
       AND (r.case_kind IS NULL OR r.case_kind = p_case_kind))
$function$;
