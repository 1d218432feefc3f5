-- Shadow's comparison (issue 40, README "Running on an existing FRED database"): in shadow mode the
-- console's rules (console.object_state_periods) are compared with what FRED's engine recorded in
-- object_state, at an instant, into tables of the console's own (never object_state). Each
-- difference is explained: one of FRED's known bugs (fred_bug:<name>), FRED's procedure not yet run
-- since the state's instant (fred_not_yet_run), or unexplained (lib/states/shadow.ts).
CREATE TABLE console.shadow_runs (
    id bigserial PRIMARY KEY,
    at timestamptz NOT NULL,
    -- When the run was made (at may be another instant: a run over a past or given instant).
    made_at timestamptz NOT NULL DEFAULT now(),
    -- FRED's last regular run as the run inferred it (the newest instant FRED wrote on an automatic state).
    fred_last_run timestamptz,
    objects integer NOT NULL CHECK (objects >= 0),
    differences integer NOT NULL CHECK (differences >= 0),
    unexplained integer NOT NULL CHECK (unexplained >= 0 AND unexplained <= differences)
);
CREATE INDEX shadow_runs_at_idx ON console.shadow_runs (at);

CREATE TABLE console.shadow_differences (
    run_id bigint NOT NULL REFERENCES console.shadow_runs (id) ON DELETE CASCADE,
    object_id integer NOT NULL,
    state_id integer NOT NULL,
    -- The console's start (it has the state) or end (FRED has it) of the state, else the run's instant.
    instant timestamptz NOT NULL,
    console_has boolean NOT NULL,
    fred_has boolean NOT NULL CHECK (console_has <> fred_has),
    cause text NOT NULL CHECK (cause ~ '^fred_bug:.+$' OR cause IN ('fred_not_yet_run', 'unexplained')),
    PRIMARY KEY (run_id, object_id, state_id)
);

-- The running console's scheduler writes runs (console_app gets DML on new console tables by
-- default): it only adds and reads them; nobody but the owner changes or removes a run.
REVOKE UPDATE, DELETE ON console.shadow_runs, console.shadow_differences FROM console_app;
