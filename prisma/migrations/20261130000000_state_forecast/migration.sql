-- THE FORECAST (issue 27): what the engine will write, registry-wide, for instants ahead.
--
-- console.state_forecast(p_from, p_to, p_states) gives every period [valid_from, valid_to) of a
-- state in p_states (NULL: every state) that overlaps [p_from, p_to], as the engine will record it
-- when those instants come if the registry's data and requests stay as they are now. It uses the
-- engine's own rules, no copy of them:
--   * an object whose next change (console.state_next_event.next_at, which the engine and the
--     state triggers keep) is at or before p_to, or that has work waiting (console.state_pending),
--     gets its periods from console.object_state_periods_of, the per-object rules the state
--     triggers apply at commit; of its open rows, only the states the engine does not keep (neither
--     automatic nor manual) carry over as they are, as state_apply leaves them;
--   * every other object changes nothing before p_to: its open rows hold (valid_to NULL).
-- valid_to is NULL for a period that does not end (as far as the rules see). A period that began
-- in the past keeps its start, so "entered during a window" can tell a new period from one that
-- merely continues.
--
-- Cost: one per-object rules call per object that changes before p_to (about 50 µs each at 1.5
-- million domains: a week ahead, 39,000 objects, 1.9 s) plus an index scan of the open rows of
-- p_states. The console's role runs it with its own rights (SECURITY INVOKER): it only reads.
CREATE FUNCTION console.state_forecast(p_from timestamptz, p_to timestamptz, p_states integer[] DEFAULT NULL)
RETURNS TABLE (object_id integer, state_id integer, valid_from timestamptz, valid_to timestamptz)
LANGUAGE sql STABLE AS $$
WITH clock AS MATERIALIZED (
    SELECT console.state_clock() AS at
),
kept AS MATERIALIZED (
    SELECT coalesce(array_agg(s.id), '{}') AS ids
      FROM enum_object_states s WHERE s.manual OR s.id = ANY (console.engine_automatic_states())
),
changing AS MATERIALIZED (
    SELECT ne.object_id FROM console.state_next_event ne WHERE ne.next_at <= p_to
    UNION
    SELECT sp.object_id FROM console.state_pending sp
)
SELECT c.object_id, x.state_id, x.lo, x.hi
  FROM changing c
 CROSS JOIN clock
 CROSS JOIN LATERAL unnest(console.object_state_periods_of(c.object_id, clock.at)) x
 WHERE (p_states IS NULL OR x.state_id = ANY (p_states))
   AND x.lo <= p_to AND (x.hi IS NULL OR x.hi >= p_from)
UNION ALL
SELECT os.object_id, os.state_id, os.valid_from AT TIME ZONE 'UTC', NULL::timestamptz
  FROM object_state os
 CROSS JOIN kept
 WHERE os.valid_to IS NULL
   AND (p_states IS NULL OR os.state_id = ANY (p_states))
   AND (NOT os.state_id = ANY (kept.ids) OR NOT EXISTS (SELECT 1 FROM changing c WHERE c.object_id = os.object_id))
$$;

COMMENT ON FUNCTION console.state_forecast(timestamptz, timestamptz, integer[]) IS
    'The state periods overlapping [p_from, p_to] as the engine will record them if data and requests stay as they are (issue 27).';
