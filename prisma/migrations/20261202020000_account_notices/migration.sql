-- What a person is told about changes to their own sign-in (issue 39, ASVS 2.2.3, 3.3.4;
-- lib/users/notices.ts): a change of password, of the e-mail address, or of a second factor
-- (enrolled, removed, new recovery codes, a security key added or removed, an administrator's
-- reset) is kept as a notice, shown once on the first page the person opens in a session opened
-- after the change (shown_at), and mailed to their e-mail address when they have one.
-- session_id, client_address: the session and address the change was made from (the person's own,
-- or an administrator's).
ALTER TABLE console.users ADD COLUMN email varchar(254)
    CHECK (email IS NULL OR (email ~ '^[^@\s]+@[^@\s]+$' AND length(email) <= 254));
GRANT UPDATE (email) ON console.users TO console_app;

CREATE TABLE console.account_notices (
    id bigserial PRIMARY KEY,
    user_id integer NOT NULL REFERENCES console.users (id),
    kind text NOT NULL CHECK (kind ~ '^[a-z_]{1,40}$'),
    by_username varchar(64),
    client_address text,
    session_id uuid,
    created_at timestamptz NOT NULL DEFAULT now(),
    shown_at timestamptz
);
CREATE INDEX account_notices_unshown ON console.account_notices (user_id, created_at) WHERE shown_at IS NULL;
GRANT SELECT, INSERT, UPDATE ON console.account_notices TO console_app;
REVOKE DELETE ON console.account_notices FROM console_app;
GRANT USAGE, SELECT ON SEQUENCE console.account_notices_id_seq TO console_app;
