-- Manual state requests made in the console (issue 7). The registry table stays FRED's; what the
-- console adds about a request (who, which form submission, which batch, who canceled) lives in
-- console.request_meta. The rules that must hold however a request is written are constraints here.

-- A request's effective period [valid_from, LEAST(canceled, valid_to)); empty when canceled before
-- it started (it never takes effect).
CREATE FUNCTION request_period(p_from timestamptz, p_to timestamptz, p_canceled timestamptz) RETURNS tstzrange
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN p_canceled IS NULL AND p_to IS NULL THEN tstzrange(p_from, NULL, '[)')
                ELSE tstzrange(p_from, greatest(p_from, least(coalesce(p_canceled, 'infinity'), coalesce(p_to, 'infinity'))), '[)')
           END
$$;

-- Two requests for the same state on the same object never hold at the same time (FRED's rule).
ALTER TABLE object_state_request ADD CONSTRAINT object_state_request_no_overlap
    EXCLUDE USING gist (object_id WITH =, state_id WITH =, request_period(valid_from, valid_to, canceled) WITH &&);

-- serverOutzoneManual (5) and serverInzoneManual (6) never hold together on one domain (FRED lets
-- them, and outzone wins; here the second is refused).
ALTER TABLE object_state_request ADD CONSTRAINT object_state_request_zone_exclusive
    EXCLUDE USING gist (object_id WITH =, request_period(valid_from, valid_to, canceled) WITH &&) WHERE (state_id IN (5, 6));

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
