CREATE OR REPLACE FUNCTION console.state_object_apply(p_id integer, p_w timestamp with time zone, p_at timestamp with time zone, p_record boolean, p_exdate date DEFAULT NULL::date, p_updated timestamp with time zone DEFAULT NULL::timestamp with time zone, p_nsset_missing boolean DEFAULT NULL::boolean, p_linked boolean DEFAULT NULL::boolean, OUT opened integer, OUT closed integer)
 RETURNS record
 LANGUAGE plpgsql
AS $function$
DECLARE
    v_desired console.state_period[];
    v_next timestamptz;
    v_close_ids integer[];
    v_close_to timestamp[];
    v_open console.state_period[];
    v_known record;
    v_want integer[];
    v_have integer[];
    v_same boolean := false;
BEGIN
    opened := 0;
    closed := 0;
    v_desired := console.object_state_periods_of(p_id, p_w, p_exdate, p_updated, p_nsset_missing, p_linked);
    SELECT min(least(CASE WHEN d.lo > p_at THEN d.lo END, CASE WHEN d.hi > p_at THEN d.hi END)),
           coalesce(array_agg(d.state_id ORDER BY d.state_id) FILTER (WHERE d.lo <= p_at AND (d.hi IS NULL OR d.hi > p_at)), '{}')
      INTO v_next, v_want
      FROM unnest(v_desired) d;

    -- A change applied at its instant (w = p_at) usually leaves the states as they are: then the
    -- open rows are exactly the states that hold, and nothing is written to object_state.
    IF p_w = p_at THEN
        SELECT coalesce(array_agg(os.state_id ORDER BY os.state_id), '{}') INTO v_have
          FROM object_state os
         WHERE os.object_id = p_id AND os.valid_to IS NULL
           AND (os.state_id = ANY (console.engine_automatic_states())
                OR os.state_id IN (SELECT s.id FROM enum_object_states s WHERE s.manual));
        IF v_have = v_want THEN
            v_same := true;
        END IF;
    END IF;

    -- An open row continues while its state's period that contains w lasts; it closes where that
    -- period ends (if by p_at), or at w when the state does not hold at w.
    IF NOT v_same THEN
    SELECT array_agg(os.id), array_agg(greatest(os.valid_from, (coalesce(c.hi, p_w) AT TIME ZONE 'UTC')))
      INTO v_close_ids, v_close_to
      FROM object_state os
      LEFT JOIN unnest(v_desired) c ON c.state_id = os.state_id AND c.lo <= p_w
     WHERE os.object_id = p_id AND os.valid_to IS NULL
       AND (os.state_id = ANY (console.engine_automatic_states())
            OR os.state_id IN (SELECT s.id FROM enum_object_states s WHERE s.manual))
       AND (c.state_id IS NULL OR c.hi <= p_at);
    END IF;
    IF v_same THEN
        NULL;
    ELSIF v_close_ids IS NOT NULL THEN
        UPDATE object_state os SET valid_to = c.valid_to
          FROM unnest(v_close_ids, v_close_to) AS c (id, valid_to) WHERE os.id = c.id;
        GET DIAGNOSTICS closed = ROW_COUNT;
    END IF;

    -- Periods that begin after w open rows at their start; a period that already held at w opens
    -- one at w unless a row covers w. Periods that also end by p_at are written closed; a row still
    -- open already says the state holds.
    IF NOT v_same THEN
    SELECT array_agg(d) INTO v_open
      FROM unnest(v_desired) d
     WHERE d.lo <= p_at
       AND (d.lo > p_w OR NOT EXISTS (
               SELECT 1 FROM object_state os
                WHERE os.object_id = p_id AND os.state_id = d.state_id
                  AND os.valid_from <= p_w AT TIME ZONE 'UTC' AND (os.valid_to IS NULL OR os.valid_to > p_w AT TIME ZONE 'UTC')))
       AND (d.hi <= p_at OR NOT EXISTS (
               SELECT 1 FROM object_state os WHERE os.object_id = p_id AND os.state_id = d.state_id AND os.valid_to IS NULL));
    END IF;
    IF v_open IS NOT NULL THEN
        INSERT INTO object_state (object_id, state_id, valid_from, valid_to)
        SELECT p_id, d.state_id, greatest(d.lo, p_w) AT TIME ZONE 'UTC', CASE WHEN d.hi <= p_at THEN d.hi AT TIME ZONE 'UTC' END
          FROM unnest(v_open) d;
        GET DIAGNOSTICS opened = ROW_COUNT;
    END IF;

    IF NOT p_record AND opened = 0 AND closed = 0 THEN
        SELECT ne.next_at INTO v_known FROM console.state_next_event ne WHERE ne.object_id = p_id;
        IF (FOUND AND v_known.next_at IS NOT DISTINCT FROM v_next) OR (NOT FOUND AND v_next IS NULL) THEN
            RETURN;
        END IF;
    END IF;
    INSERT INTO console.state_next_event (object_id, next_at, exact_to) VALUES (p_id, v_next, p_at)
        ON CONFLICT (object_id) DO UPDATE SET next_at = excluded.next_at, exact_to = excluded.exact_to;
END
$function$;
