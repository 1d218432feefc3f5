-- The audit log's keyed chain. The unkeyed hash chain (prev_hash, hash, console.audit_row_hash)
-- shows accidents, but anyone who can write the database can recompute it: delete a row, renumber
-- the rest, rehash, move the head, and the chain is whole again. From now on every row also
-- carries a MAC (HMAC-SHA256) made by the console process with a secret key the database never
-- sees (AUDIT_KEYS, or the embedded console's key file), over the row's id, time and values, the
-- previous row's hash and the previous row's MAC. `npm run audit:verify` and `npm run db:check`
-- recompute it with the key.
--
-- Rows written before this migration have no MAC ("written before keyed chaining"); the first
-- keyed row's MAC covers the hash of the last of them, so they cannot be changed either without
-- the verifier noticing. Every row after it must be keyed.
ALTER TABLE console.audit_log
    -- Which of the configured keys signed the row (AUDIT_KEYS entries are ID:SECRET).
    ADD COLUMN key_id integer,
    -- Hex HMAC-SHA256; NULL only on rows written before keyed chaining.
    ADD COLUMN mac char(64),
    ADD CONSTRAINT audit_log_mac_check CHECK ((key_id IS NULL) = (mac IS NULL)),
    ADD CONSTRAINT audit_log_mac_hex_check CHECK (mac ~ '^[0-9a-f]{64}$');

-- The database cannot check a MAC (it has no key), but it refuses what can only be a mistake: a
-- row without one (no SQL inside the database writes audit rows; every row comes from the
-- console's audit() in lib/audit/log.ts), and a row whose id is not the one after the head, which
-- would mean its MAC was computed without holding the chain's lock. Named to fire before
-- audit_log_append (BEFORE triggers fire in name order), which assigns the id.
CREATE FUNCTION console.audit_log_accept_signed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    next_id bigint;
BEGIN
    IF NEW.mac IS NULL OR NEW.key_id IS NULL THEN
        RAISE EXCEPTION 'console.audit_log rows are signed by the console: this row has no key_id and mac (append rows with audit() in lib/audit/log.ts)'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    SELECT last_id + 1 INTO next_id FROM console.audit_head FOR UPDATE;
    IF NEW.id IS DISTINCT FROM next_id THEN
        RAISE EXCEPTION 'audit row id % is not the next in the chain (%): its MAC must be computed while holding console.audit_head FOR UPDATE', NEW.id, next_id;
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER audit_log_accept_signed BEFORE INSERT ON console.audit_log
    FOR EACH ROW EXECUTE FUNCTION console.audit_log_accept_signed();
