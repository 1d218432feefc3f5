-- Security keys and passkeys (WebAuthn) as a second factor for sign-in (lib/auth/security-keys.ts).
-- credential_id: the credential's id (base64url) as the authenticator gives it back at sign-in;
-- public_key: its COSE public key; counter: the signature counter last seen (a key that reports a
-- lower one is refused: it may be a clone); last_used_at: the last sign-in with it, so that no
-- sign-in challenge issued before it is accepted again.
CREATE TABLE console.security_keys (
    id serial PRIMARY KEY,
    user_id integer NOT NULL REFERENCES console.users (id),
    credential_id text NOT NULL UNIQUE CHECK (credential_id ~ '^[A-Za-z0-9_-]+$' AND length(credential_id) BETWEEN 16 AND 1400),
    public_key bytea NOT NULL,
    counter bigint NOT NULL DEFAULT 0 CHECK (counter >= 0),
    transports text[] NOT NULL DEFAULT '{}',
    name text NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
    created_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz
);
CREATE INDEX security_keys_user_id ON console.security_keys (user_id);
GRANT SELECT, INSERT, UPDATE, DELETE ON console.security_keys TO console_app;
GRANT USAGE, SELECT ON SEQUENCE console.security_keys_id_seq TO console_app;
