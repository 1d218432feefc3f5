-- Password guessing limits per account, per client address and over everything (lib/auth/throttle.ts).
-- Failures now carry the client address they came from and an id, so a successful check takes back
-- exactly its own record. Rows from before have no address: they count for their account only.
ALTER TABLE console.sign_in_failures
    ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY,
    ADD COLUMN client_address text NOT NULL DEFAULT '';

ALTER TABLE console.sign_in_failures ADD CONSTRAINT sign_in_failures_pkey PRIMARY KEY (id);

-- One address's failures over all accounts, and all failures of the last minute.
CREATE INDEX sign_in_failures_address_at_idx ON console.sign_in_failures (client_address, at);
CREATE INDEX sign_in_failures_at_idx ON console.sign_in_failures (at);

-- The addresses an account signed in from (they stay exempt from the limits a distributed attack
-- sets off): looked up per attempt.
CREATE INDEX sessions_user_address_idx ON console.sessions (user_id, client_address, created_at);
