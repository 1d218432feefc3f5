CREATE OR REPLACE FUNCTION console.state_changed_apply(p_id integer, p_link smallint, p_at timestamp with time zone, p_old_exdate date, p_old_updated timestamp with time zone, p_old_nsset_missing boolean, p_old_linked boolean)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
    v_at timestamptz := p_at;
    v_clock timestamptz;
    r record;
    v_want integer[];
    v_next timestamptz;
    v_close integer[];
    v_open integer[];
    v_caught_up boolean := false;
    v_fast boolean := false;
BEGIN
    PERFORM console.state_object_row_lock(p_id);
    -- Whatever follows, the object's stored plan of the states ahead (console.state_plan) may no
    -- longer hold: the forecast asks the rules for it until the plan's next pass writes it again.
    INSERT INTO console.state_plan_stale (object_id) VALUES (p_id);
    -- Three changes of a contact, nsset or keyset that alter nothing but one state, without the
    -- general recomputation; each only when its history is exact up to now and no work is pending:
    --   * p_link = 2, a link added to an unlinked one (its BEFORE trigger caught it up): linked
    --     begins now and deleteCandidate, if open, ends now. Its recorded next change (a
    --     deleteCandidate threshold, now gone) only wakes a run early.
    --   * p_link = 1, its last link lost (an admin or tech contact removed, a domain's nsset or
    --     keyset changed): linked ends now. No state of theirs but deleteCandidate follows from
    --     their links, and it begins no sooner than the protection period after the last link.
    --   * p_link = 3, an unlinked one updated later than before (object.update): an open
    --     deleteCandidate ends now. No other state of theirs follows from object.update, and
    --     deleteCandidate begins no sooner than the protection period after the update.
    -- For 1 and 3 nothing may have been due before the change (no catch-up), and the recorded next
    -- change becomes, if later, the earliest that deleteCandidate could begin (the bound the object
    -- trigger's WHEN clause uses): the scheduled run then recomputes the object and records the
    -- exact instant.
    IF p_link IN (1, 2, 3) THEN
        SELECT ob.type IN (1, 2, 4) AND ob.erdate IS NULL AND ob.crdate AT TIME ZONE 'UTC' <= v_at AS linkable,
               EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = p_id AND os.state_id = 16 AND os.valid_to IS NULL) AS linked,
               CASE WHEN p_link = 3 THEN EXISTS (SELECT 1 FROM object_state os
                                                  WHERE os.object_id = p_id AND os.state_id = 17 AND os.valid_to IS NULL) END AS candidate,
               EXISTS (SELECT 1 FROM console.state_pending sp WHERE sp.object_id = p_id) AS pending,
               coalesce(greatest(e.cursor, ne.exact_to), '-infinity') <= v_at AS exact,
               ne.next_at IS NULL OR ne.next_at > v_at AS nothing_due,
               CASE WHEN p_link = 2 THEN ne.next_at
                    ELSE least(ne.next_at, v_at + (SELECT make_interval(months => p.protection_months) FROM console.state_parameters() p)
                                                - interval '2 days') END AS next_at
          INTO r
          FROM object_registry ob CROSS JOIN console.state_engine e
          LEFT JOIN console.state_next_event ne ON ne.object_id = ob.id
         WHERE ob.id = p_id;
        IF p_link = 2 AND r.linked THEN
            RETURN;  -- linked by another transaction meanwhile (this one now holds the object)
        END IF;
        IF r.linkable AND NOT r.pending AND r.exact
           AND (CASE p_link WHEN 2 THEN true
                            WHEN 1 THEN r.linked AND r.nothing_due
                            ELSE NOT r.linked AND r.candidate AND r.nothing_due END) THEN
            v_fast := true;
            v_close := CASE p_link WHEN 1 THEN ARRAY[16] ELSE ARRAY[17] END;
            v_open := CASE p_link WHEN 2 THEN ARRAY[16] ELSE '{}' END;
            v_next := r.next_at;
        END IF;
    END IF;
    IF NOT v_fast THEN
        -- What the object is, where its history is exact, when it changes next, and its open states.
        SELECT ob.type, ob.crdate AT TIME ZONE 'UTC' AS crdate, ob.erdate AT TIME ZONE 'UTC' AS erdate,
               EXISTS (SELECT 1 FROM object_state_request rq WHERE rq.object_id = p_id) AS requested,
               EXISTS (SELECT 1 FROM console.state_pending sp WHERE sp.object_id = p_id) AS pending,
               greatest(e.cursor, ne.exact_to) AS exact_to, ne.next_at,
               (SELECT coalesce(array_agg(os.state_id ORDER BY os.state_id), '{}')
                  FROM object_state os
                  JOIN enum_object_states s ON s.id = os.state_id AND (s.manual OR s.id = ANY (console.engine_automatic_states()))
                 WHERE os.object_id = p_id AND os.valid_to IS NULL) AS have
          INTO r
          FROM object_registry ob CROSS JOIN console.state_engine e
          LEFT JOIN console.state_next_event ne ON ne.object_id = ob.id
         WHERE ob.id = p_id;
        IF NOT FOUND THEN
            RETURN;
        END IF;
        -- A caller that could not catch up before the change (an AFTER trigger) has it done here, with
        -- the inputs as they were: p_old_exdate the expiration date, p_old_updated object.update
        -- ('-infinity' for never), p_old_nsset_missing whether the domain had no nsset, p_old_linked
        -- whether the object was linked.
        IF (p_old_exdate IS NOT NULL OR p_old_updated IS NOT NULL OR p_old_nsset_missing IS NOT NULL OR p_old_linked IS NOT NULL)
           AND (r.next_at <= v_at OR r.pending) AND coalesce(r.exact_to, '-infinity') < v_at THEN
            PERFORM console.state_object_apply(p_id, coalesce(r.exact_to, '-infinity'), v_at, true, p_old_exdate,
                                               p_old_updated, p_old_nsset_missing, p_old_linked);
            v_caught_up := true;
            SELECT coalesce(array_agg(os.state_id ORDER BY os.state_id), '{}') INTO r.have
              FROM object_state os
              JOIN enum_object_states s ON s.id = os.state_id AND (s.manual OR s.id = ANY (console.engine_automatic_states()))
             WHERE os.object_id = p_id AND os.valid_to IS NULL;
        END IF;
        -- A run that committed after this transaction began may have taken the object past its
        -- instant; the change then counts from there (history is never rewritten).
        v_clock := v_at;
        v_at := greatest(v_at, r.exact_to);
        -- That transaction's change may be at that very instant (its rows begin there: FRED's block
        -- committed while this renew, begun before it, waited for the domain). This change comes
        -- after it, one millisecond later (the engine's resolution): closing such a row at its own
        -- start would leave a row that ends where it begins (db:check's "history order").
        IF r.exact_to > v_clock AND EXISTS (SELECT 1 FROM object_state os
                                           WHERE os.object_id = p_id AND os.valid_to IS NULL
                                             AND os.valid_from >= v_at AT TIME ZONE 'UTC') THEN
            SELECT max(os.valid_from AT TIME ZONE 'UTC') + interval '1 millisecond' INTO v_at
              FROM object_state os WHERE os.object_id = p_id AND os.valid_to IS NULL;
        END IF;
        IF r.type = 3 AND NOT r.requested THEN
            SELECT coalesce(array_agg(x.state_id ORDER BY x.state_id) FILTER (WHERE x.valid_from <= v_at), '{}'),
                   min(least(CASE WHEN x.valid_from > v_at THEN x.valid_from END, CASE WHEN x.valid_to > v_at THEN x.valid_to END))
              INTO v_want, v_next
              FROM console.domain_periods(p_id, r.crdate, r.erdate, NULL, NULL, NULL, NULL) x
             WHERE x.valid_to IS NULL OR x.valid_to > v_at;
        ELSE
            SELECT coalesce(array_agg(x.state_id ORDER BY x.state_id) FILTER (WHERE x.lo <= v_at), '{}'),
                   min(least(CASE WHEN x.lo > v_at THEN x.lo END, CASE WHEN x.hi > v_at THEN x.hi END))
              INTO v_want, v_next
              FROM unnest(console.object_state_periods_of(p_id, v_at)) x;
        END IF;
        IF v_want = r.have THEN
            v_close := '{}';
            v_open := '{}';
            -- Nothing to write when its states stay and its recorded next change is not later than the
            -- new one (a renew moves it later): a scheduled run then looks at it early, finds nothing
            -- to change and records the right one.
            IF NOT v_caught_up AND NOT r.pending AND r.next_at IS NOT NULL AND r.next_at > v_at
               AND (v_next IS NULL OR v_next >= r.next_at) THEN
                RETURN;
            END IF;
        ELSE
            v_close := ARRAY(SELECT x FROM unnest(r.have) x WHERE NOT x = ANY (v_want));
            v_open := ARRAY(SELECT x FROM unnest(v_want) x WHERE NOT x = ANY (r.have));
        END IF;
    END IF;
    -- History is exact up to v_at: close the states that no longer hold and open those that now do,
    -- at v_at, with their feed rows in the same statement (closings first, as the feed's triggers
    -- order them), which the feed's triggers then skip.
    IF cardinality(v_close) > 0 OR cardinality(v_open) > 0 THEN
        PERFORM set_config('console.feed_written', 'on', true);
        WITH closed AS (
            UPDATE object_state os SET valid_to = greatest(os.valid_from, v_at AT TIME ZONE 'UTC')
             WHERE os.object_id = p_id AND os.valid_to IS NULL AND os.state_id = ANY (v_close)
            RETURNING os.id, os.state_id, os.valid_to AS at
        ), opened AS (
            INSERT INTO object_state (object_id, state_id, valid_from)
            SELECT p_id, x, v_at AT TIME ZONE 'UTC' FROM unnest(v_open) x
            RETURNING id, state_id, valid_from AS at
        )
        INSERT INTO console.state_changes (object_id, state_id, change, at)
        SELECT p_id, f.state_id, f.change, f.at AT TIME ZONE 'UTC'
          FROM (SELECT c.id, c.state_id, 'left' AS change, c.at FROM closed c
                UNION ALL SELECT o.id, o.state_id, 'entered', o.at FROM opened o) f
         WHERE coalesce(current_setting('registry.state_feed', true), '') <> 'off'
         ORDER BY f.at, f.id, f.change;
        PERFORM set_config('console.feed_written', '', true);
    END IF;
    INSERT INTO console.state_next_event (object_id, next_at, exact_to) VALUES (p_id, v_next, v_at)
        ON CONFLICT (object_id) DO UPDATE SET next_at = excluded.next_at, exact_to = excluded.exact_to;
END
$function$;
