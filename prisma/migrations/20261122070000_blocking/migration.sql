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
