-- Issue 41, item 5: lists that say when. The object list's filters by an instant or a window
-- (had at, during, entered, left, and the forecast past now) show, per object, the period of the
-- filtered state they matched (when it entered, when it leaves), the states it held at the chosen
-- instant, and for a change still ahead, its cause. Two read functions, with the caller's rights.

-- One object's state periods from now on, as console.state_forecast gives them registry-wide: the
-- engine's own rules (console.object_state_periods_of, applied by the state triggers and runs) for
-- the states it keeps, which are automatic or manual; of its open rows, only the states the engine
-- does not keep carry over as they are. Unlike state_forecast it has no window: a period's end is
-- given however far ahead the rules put it (valid_to NULL: no end the rules see).
CREATE FUNCTION console.state_forecast_of(p_object_id integer, p_states integer[] DEFAULT NULL)
RETURNS TABLE (state_id integer, valid_from timestamptz, valid_to timestamptz)
LANGUAGE sql STABLE AS $$
WITH kept AS MATERIALIZED (
    SELECT coalesce(array_agg(s.id), '{}') AS ids
      FROM enum_object_states s WHERE s.manual OR s.id = ANY (console.engine_automatic_states())
)
SELECT x.state_id, x.lo, x.hi
  FROM unnest(console.object_state_periods_of(p_object_id, console.state_clock())) x
 WHERE p_states IS NULL OR x.state_id = ANY (p_states)
UNION ALL
SELECT os.state_id, os.valid_from AT TIME ZONE 'UTC', NULL::timestamptz
  FROM object_state os
 CROSS JOIN kept
 WHERE os.object_id = p_object_id AND os.valid_to IS NULL
   AND NOT os.state_id = ANY (kept.ids)
   AND (p_states IS NULL OR os.state_id = ANY (p_states))
$$;

COMMENT ON FUNCTION console.state_forecast_of(integer, integer[]) IS
    'One object''s state periods from now on, as console.state_forecast gives them, without a window (issue 41).';

-- Why a state of an object enters (p_entering) or leaves at p_at: the requests of the object that
-- start or end at that very instant, as codes requestStarts and requestEnds (args.own: the request is
-- of the state itself) — those of the state itself if there are any (a block's end: its serverBlocked
-- request, not the four that end with it), else those of other states (the end of serverInzoneManual
-- is why outzone begins); and, for a state that enters, the rule that makes it hold then
-- (console.state_reasons at p_at, its code and arguments) unless a request of that state starting
-- then already says it. Wording is the console's (lib/objects/reasons.ts).
CREATE FUNCTION console.state_change_causes(p_object_id integer, p_state_id integer, p_at timestamptz, p_entering boolean)
RETURNS TABLE (code text, args jsonb)
LANGUAGE sql STABLE AS $$
WITH p AS (SELECT sp.zone FROM console.state_parameters() sp),
req AS (
    SELECT r.id, r.state_id, s.name,
           r.valid_from AT TIME ZONE 'UTC' AS starts,
           nullif(least(coalesce(r.canceled, 'infinity'), coalesce(r.valid_to, 'infinity')), 'infinity') AT TIME ZONE 'UTC' AS ends,
           nullif(rr.reason_creation, '') AS reason
      FROM object_state_request r
      JOIN enum_object_states s ON s.id = r.state_id
      LEFT JOIN object_state_request_reason rr ON rr.object_state_request_id = r.id
     WHERE r.object_id = p_object_id
       AND (r.valid_from = p_at AT TIME ZONE 'UTC' OR least(r.canceled, r.valid_to) = p_at AT TIME ZONE 'UTC')
       -- Only a request that holds at all (not canceled before its start), as console.effective_requests.
       AND least(coalesce(r.canceled, 'infinity'), coalesce(r.valid_to, 'infinity')) > r.valid_from
),
said AS (
    SELECT CASE WHEN req.starts = p_at THEN 'requestStarts' ELSE 'requestEnds' END AS code,
           jsonb_build_object('request', req.id, 'state', req.name, 'own', req.state_id = p_state_id, 'at', p_at, 'zone', p.zone,
                              'reason', req.reason) AS args,
           req.state_id, req.id
      FROM req CROSS JOIN p
     WHERE (req.starts = p_at OR req.ends = p_at)
       AND (req.state_id = p_state_id OR NOT EXISTS (SELECT 1 FROM req own WHERE own.state_id = p_state_id))
)
SELECT said.code, said.args FROM said
UNION ALL
SELECT sr.code, sr.args
  FROM console.state_reasons(p_object_id, p_at) sr
 WHERE p_entering AND sr.state_id = p_state_id AND sr.code IS NOT NULL
   AND NOT (sr.code = 'requested' AND EXISTS (SELECT 1 FROM said WHERE said.state_id = p_state_id AND said.code = 'requestStarts'))
$$;

COMMENT ON FUNCTION console.state_change_causes(integer, integer, timestamptz, boolean) IS
    'Why a state of an object enters or leaves at an instant: the requests that start or end then, and the rule that holds it (issue 41).';
