-- A second factor for sign-in (lib/auth/second-factor.ts): a TOTP secret (RFC 6238), encrypted with
-- a key derived from NEXTAUTH_SECRET, and one-time recovery codes (their SHA-256). confirmed_at null:
-- enrolment started, not yet confirmed with a code; last_step: the 30-second step of the last code
-- accepted, so that no code is accepted twice.
CREATE TABLE console.second_factors (
    user_id integer PRIMARY KEY REFERENCES console.users (id),
    secret text NOT NULL,
    confirmed_at timestamptz,
    last_step bigint,
    recovery_hashes text[] NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
);
GRANT SELECT, INSERT, UPDATE, DELETE ON console.second_factors TO console_app;
