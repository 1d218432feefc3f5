-- Shadow's page (issue 40) shows how long each run took: a run's row is written when its comparison
-- is done (lib/states/shadow.ts runShadow), in the transaction made_at dates (now(), its start), so
-- clock_timestamp() then is its end. Runs written before this column have no end (NULL: unknown).
ALTER TABLE console.shadow_runs ADD COLUMN finished_at timestamptz;
ALTER TABLE console.shadow_runs ALTER COLUMN finished_at SET DEFAULT clock_timestamp();
