-- The instant of a console change (a request created or canceled, a block, a bulk apply), taken
-- only after the change holds the engine's shared lock. A scheduled run holds that lock
-- exclusively: taken the other way round, a run could start after the change read its instant,
-- commit a cursor past it without seeing the change, and the change's own run for its object then
-- had nothing left to do: the request was in force and its state missing until the next run,
-- which dated it at its own instant. With the lock first, a run either committed before the
-- instant was read (its cursor is earlier) or waits for the change to commit (and sees it).
-- The instant is also the transaction's state clock (console.state_clock), so the state triggers
-- and the engine date the change alike. It is whole milliseconds (rounded up, so it is never
-- before a cursor committed in the same millisecond): the console carries it as a JavaScript Date.
CREATE FUNCTION console.state_change_clock() RETURNS timestamptz
LANGUAGE plpgsql AS $$
DECLARE
    v_now timestamptz;
BEGIN
    PERFORM pg_advisory_xact_lock_shared(7353002, 0);
    v_now := date_trunc('milliseconds', clock_timestamp() + interval '999 microseconds');
    PERFORM set_config('registry.state_clock', v_now::text, true);
    RETURN v_now;
END
$$;
