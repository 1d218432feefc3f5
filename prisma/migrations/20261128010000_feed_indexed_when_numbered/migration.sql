-- The state change feed's indexes filled when a change is numbered, not when FRED's change writes it
-- (issue 25, fifth step).
--
-- A change that closes or opens states writes one console.state_changes row per state in FRED's
-- transaction (a renew of an expired domain: 4-8). Each row entered four indexes there: the
-- primary key, the unnumbered rows' index, and the two on seq, which is always NULL then. The two
-- on seq are now partial (seq IS NOT NULL): a row enters them when console.sequence_state_changes
-- numbers it, in the feed reader's transaction. The feed's reads (seq > N, by state and seq, the
-- highest seq) all imply seq IS NOT NULL and use them as before.
ALTER TABLE console.state_changes DROP CONSTRAINT state_changes_seq_key;
CREATE UNIQUE INDEX state_changes_seq_key ON console.state_changes (seq) WHERE seq IS NOT NULL;
DROP INDEX console.state_changes_state_seq_idx;
CREATE INDEX state_changes_state_seq_idx ON console.state_changes (state_id, seq) WHERE seq IS NOT NULL;
