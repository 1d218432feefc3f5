-- No BEFORE UPDATE trigger on FRED's domain and object (issue 25, fourth step).
--
-- A BEFORE UPDATE row trigger makes PostgreSQL lock the old row before it is updated (a tuple lock:
-- one more heap write and WAL record), for every UPDATE of the table, whatever the trigger's WHEN
-- clause says. Measured at 100,000 domains with pgbench (8 clients, FRED's contact update
-- `UPDATE object SET upid, update`): a BEFORE trigger whose WHEN is never true cost 7 % of FRED's
-- throughput without the console (15,700 -> 14,600 per s); the console's own BEFORE trigger on
-- object cost 22 % (15,700 -> 12,300) and 5 % without it. The console had two: on object (every
-- EPP update of any object writes object.update) and on domain (every renew and update of a
-- domain).
--
-- Their work moves to the deferred AFTER triggers, which get the BEFORE triggers' WHEN bounds:
--   * the decision (a linked object or a domain: object.update counts for nothing; updated later
--     with nothing due and no deleteCandidate open: nothing) is taken at the commit, as the AFTER
--     trigger's first statements;
--   * the catch-up (work that was due before the change, applied with the inputs as they were)
--     gets the old inputs from the trigger's OLD row instead of running before the change:
--     console.state_changed passes them to state_object_apply, object_state_periods_of and
--     domain_periods as overrides (p_old_updated: object.update; p_old_nsset_missing: whether the
--     domain had no nsset; p_old_linked: an object that lost a link was linked, one that gained
--     its first was not), as it already did with the expiration date before a renew.
-- The contact maps (domain_contact_map, nsset_contact_map, keyset_contact_map) keep a BEFORE
-- trigger for INSERT (it locks nothing) and for UPDATE (FRED never updates their rows); a deleted
-- row (an admin or tech contact removed) is handled by its own deferred AFTER trigger, which
-- catches the contact up as linked.

DROP TRIGGER console_state_catch_up_update ON domain;
DROP TRIGGER console_state_catch_up ON object;
DROP FUNCTION console.state_object_update_before();

-- The rules' inputs as they were before a change, for the catch-up (new parameters, all defaulting
-- to the stored values).
DROP FUNCTION console.state_changed(integer, smallint, date);
DROP FUNCTION console.state_object_apply(integer, timestamptz, timestamptz, boolean, date);
DROP FUNCTION console.object_state_periods_of(integer, timestamptz, date);
DROP FUNCTION console.domain_periods(integer, timestamptz, timestamptz, tstzmultirange, tstzmultirange, tstzmultirange, tstzmultirange, date);

-- console.domain_periods as in 20261125000000_fred_write_path; p_nsset_missing: instead of the row's.
CREATE FUNCTION console.domain_periods(p_id integer, p_crdate timestamptz, p_erdate timestamptz,
    p_delete_prohibited tstzmultirange, p_renew_prohibited tstzmultirange,
    p_outzone_manual tstzmultirange, p_inzone_manual tstzmultirange, p_exdate date DEFAULT NULL,
    p_nsset_missing boolean DEFAULT NULL)
RETURNS TABLE (state_id integer, valid_from timestamptz, valid_to timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT x.state_id, x.valid_from, x.valid_to
  FROM domain d
 CROSS JOIN LATERAL (SELECT coalesce(p_exdate, d.exdate) AS exdate) e
  JOIN console.lifecycle_periods() l ON e.exdate >= l.valid_from AND e.exdate < l.valid_until
  LEFT JOIN enumval ev ON ev.domainid = d.id
 CROSS JOIN console.state_parameters() p
 CROSS JOIN LATERAL console.domain_state_periods(
           p_crdate, p_erdate, e.exdate, ev.exdate, coalesce(p_nsset_missing, d.nsset IS NULL),
           l.notify, l.dns, l.registration, l.letter, l.outzone_warning, l.validation1, l.validation2,
           p.zone, p.day_hour, p.outzone_hour,
           p_delete_prohibited, p_renew_prohibited, p_outzone_manual, p_inzone_manual) x
 WHERE d.id = p_id
$$;

-- console.object_state_periods_of as in 20261125000000_fred_write_path, with the overrides.
CREATE FUNCTION console.object_state_periods_of(p_id integer, p_w timestamptz, p_exdate date DEFAULT NULL,
    p_updated timestamptz DEFAULT NULL, p_nsset_missing boolean DEFAULT NULL, p_linked boolean DEFAULT NULL)
RETURNS console.state_period[]
LANGUAGE plpgsql STABLE AS $$
DECLARE
    o record;
    g record;
    v_guarded boolean := false;
    v_dp tstzmultirange;
    v_manual console.state_period[];
    v_rules console.state_period[];
BEGIN
    SELECT ob.type, ob.crdate AT TIME ZONE 'UTC' AS crdate, ob.erdate AT TIME ZONE 'UTC' AS erdate,
           EXISTS (SELECT 1 FROM object_state_request r WHERE r.object_id = p_id) AS requested INTO o
      FROM object_registry ob WHERE ob.id = p_id;
    IF NOT FOUND THEN
        RETURN '{}';
    END IF;
    IF o.requested THEN
        WITH m AS (SELECT r.state_id, range_agg(r.period) AS periods FROM console.effective_requests r
                    WHERE r.object_id = p_id GROUP BY r.state_id)
        SELECT (SELECT m.periods FROM m WHERE m.state_id = 1) AS delete_prohibited,
               (SELECT m.periods FROM m WHERE m.state_id = 2) AS renew_prohibited,
               (SELECT m.periods FROM m WHERE m.state_id = 5) AS outzone_manual,
               (SELECT m.periods FROM m WHERE m.state_id = 6) AS inzone_manual,
               (SELECT array_agg(ROW(m.state_id, lower(per), upper(per))::console.state_period)
                  FROM m CROSS JOIN LATERAL unnest(m.periods * console.state_life(o.crdate, o.erdate)) AS per
                 WHERE upper(per) IS NULL OR upper(per) > p_w) AS manual
          INTO g;
        v_manual := g.manual;
        v_dp := g.delete_prohibited;
        v_guarded := g.delete_prohibited IS NOT NULL OR g.renew_prohibited IS NOT NULL
                     OR g.outzone_manual IS NOT NULL OR g.inzone_manual IS NOT NULL;
    END IF;
    IF o.type = 3 AND NOT v_guarded THEN
        SELECT array_agg(ROW(x.state_id, x.valid_from, x.valid_to)::console.state_period) INTO v_rules
          FROM console.domain_periods(p_id, o.crdate, o.erdate, NULL, NULL, NULL, NULL, p_exdate, p_nsset_missing) x
         WHERE x.valid_to IS NULL OR x.valid_to > p_w;
    ELSIF o.type = 3 THEN
        SELECT array_agg(ROW(x.state_id, x.valid_from, x.valid_to)::console.state_period) INTO v_rules
          FROM console.domain_periods(p_id, o.crdate, o.erdate, g.delete_prohibited, g.renew_prohibited,
                                      g.outzone_manual, g.inzone_manual, p_exdate, p_nsset_missing) x
         WHERE x.valid_to IS NULL OR x.valid_to > p_w;
    ELSIF o.type IN (1, 2, 4) THEN
        SELECT array_agg(ROW(x.state_id, x.valid_from, x.valid_to)::console.state_period) INTO v_rules
          FROM (SELECT coalesce(p_linked, l.linked) AS linked FROM console.is_linked(p_id, o.type) l) il
         CROSS JOIN console.state_parameters() p
          LEFT JOIN object ob ON ob.id = p_id
          LEFT JOIN LATERAL console.last_linked(p_id, p_w) ll ON NOT il.linked
         CROSS JOIN LATERAL console.linkable_state_periods(
                   o.crdate, o.erdate, il.linked, ll.at, coalesce(p_updated, ob.update AT TIME ZONE 'UTC'),
                   v_dp, p.zone, p.day_hour, p.protection_months) x
         WHERE x.valid_to IS NULL OR x.valid_to > p_w;
    END IF;
    RETURN coalesce(v_manual, '{}') || coalesce(v_rules, '{}');
END
$$;

CREATE FUNCTION console.state_object_apply(p_id integer, p_w timestamptz, p_at timestamptz, p_record boolean,
                                           p_exdate date DEFAULT NULL, p_updated timestamptz DEFAULT NULL,
                                           p_nsset_missing boolean DEFAULT NULL, p_linked boolean DEFAULT NULL,
                                           OUT opened integer, OUT closed integer)
LANGUAGE plpgsql AS $$
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
$$;

-- console.state_changed as in 20261125100000_fred_lean_write_path; the catch-up with any old input.
CREATE FUNCTION console.state_changed(p_id integer, p_link smallint DEFAULT 0, p_old_exdate date DEFAULT NULL,
    p_old_updated timestamptz DEFAULT NULL, p_old_nsset_missing boolean DEFAULT NULL, p_old_linked boolean DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    v_at timestamptz;
    r record;
    v_want integer[];
    v_next timestamptz;
    v_close integer[];
    v_open integer[];
    v_caught_up boolean := false;
BEGIN
    IF p_id IS NULL OR current_setting('registry.state_marks', true) = 'off' THEN
        RETURN;
    END IF;
    v_at := console.state_clock();
    IF NOT console.state_engine_open(p_id, v_at) THEN
        RETURN;
    END IF;
    -- A link added to an object that is linked already.
    IF p_link = 2 AND console.state_link_kept(p_id) THEN
        RETURN;
    END IF;
    -- A contact, nsset or keyset that lost a link but is still linked (the common case: most are
    -- linked many times) keeps every state. Its "linked" row locked first, so a link being added
    -- elsewhere is either committed (and seen) or waits for this transaction.
    IF p_link = 1 THEN
        PERFORM 1 FROM object_state os WHERE os.object_id = p_id AND os.state_id = 16 AND os.valid_to IS NULL FOR UPDATE;
        IF FOUND AND NOT EXISTS (SELECT 1 FROM console.state_pending sp WHERE sp.object_id = p_id)
           AND (SELECT il.linked FROM object_registry o CROSS JOIN LATERAL console.is_linked(o.id, o.type) il WHERE o.id = p_id) THEN
            RETURN;
        END IF;
    END IF;
    PERFORM console.state_object_row_lock(p_id);
    -- A link added to an unlinked contact, nsset or keyset (its BEFORE trigger caught it up): linked
    -- begins now and deleteCandidate, if open, ends now; nothing else follows from its links. Its
    -- recorded next change (a deleteCandidate threshold, now gone) only wakes a run early.
    IF p_link = 2 THEN
        SELECT ob.type IN (1, 2, 4) AND ob.erdate IS NULL AND ob.crdate AT TIME ZONE 'UTC' <= v_at AS linkable,
               EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = p_id AND os.state_id = 16 AND os.valid_to IS NULL) AS linked,
               EXISTS (SELECT 1 FROM console.state_pending sp WHERE sp.object_id = p_id) AS pending,
               coalesce(greatest(e.cursor, ne.exact_to), '-infinity') <= v_at AS exact
          INTO r
          FROM object_registry ob CROSS JOIN console.state_engine e
          LEFT JOIN console.state_next_event ne ON ne.object_id = ob.id
         WHERE ob.id = p_id;
        IF r.linked THEN
            RETURN;  -- linked by another transaction meanwhile (this one now holds the object)
        END IF;
        IF r.linkable AND NOT r.pending AND r.exact THEN
            PERFORM set_config('console.feed_written', 'on', true);
            WITH closed AS (
                UPDATE object_state os SET valid_to = greatest(os.valid_from, v_at AT TIME ZONE 'UTC')
                 WHERE os.object_id = p_id AND os.state_id = 17 AND os.valid_to IS NULL
                RETURNING os.id, os.state_id, os.valid_to AS at
            ), opened AS (
                INSERT INTO object_state (object_id, state_id, valid_from) VALUES (p_id, 16, v_at AT TIME ZONE 'UTC')
                RETURNING id, state_id, valid_from AS at
            )
            INSERT INTO console.state_changes (object_id, state_id, change, at)
            SELECT p_id, f.state_id, f.change, f.at AT TIME ZONE 'UTC'
              FROM (SELECT c.id, c.state_id, 'left' AS change, c.at FROM closed c
                    UNION ALL SELECT o.id, o.state_id, 'entered', o.at FROM opened o) f
             WHERE coalesce(current_setting('registry.state_feed', true), '') <> 'off'
             ORDER BY f.at, f.id, f.change;
            PERFORM set_config('console.feed_written', '', true);
            UPDATE console.state_next_event SET exact_to = v_at WHERE object_id = p_id;
            RETURN;
        END IF;
    END IF;
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
    v_at := greatest(v_at, r.exact_to);
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
        -- Nothing to write when its states stay and its recorded next change is not later than the
        -- new one (a renew moves it later): a scheduled run then looks at it early, finds nothing
        -- to change and records the right one.
        IF NOT v_caught_up AND NOT r.pending AND r.next_at IS NOT NULL AND r.next_at > v_at
           AND (v_next IS NULL OR v_next >= r.next_at) THEN
            RETURN;
        END IF;
    ELSE
        -- History is exact up to v_at: close the states that no longer hold and open those that now
        -- do, at v_at, with their feed rows in the same statement (closings first, as the feed's
        -- triggers order them), which the feed's triggers then skip.
        v_close := ARRAY(SELECT x FROM unnest(r.have) x WHERE NOT x = ANY (v_want));
        v_open := ARRAY(SELECT x FROM unnest(v_want) x WHERE NOT x = ANY (r.have));
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
$$;

-- AFTER object.update changed (deferred; its WHEN bound: console.state_triggers_compile). Only an
-- unlinked contact, nsset or keyset counts it (its deleteCandidate).
CREATE OR REPLACE FUNCTION console.state_object_update() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public SET plan_cache_mode = force_generic_plan AS $$
DECLARE
    v_at timestamptz;
BEGIN
    IF EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = NEW.id AND os.state_id = 16 AND os.valid_to IS NULL)
       OR (SELECT o.type FROM object_registry o WHERE o.id = NEW.id) NOT IN (1, 2, 4) THEN
        RETURN NULL;
    END IF;
    v_at := console.state_clock();
    IF NOT console.state_engine_open(NEW.id, v_at) THEN
        RETURN NULL;
    END IF;
    -- Updated later, nothing due, no work pending, no deleteCandidate open: deleteCandidate only
    -- moves later (decided holding the engine's lock shared, so no run applies older data after).
    IF coalesce(NEW.update > OLD.update, false)
       AND EXISTS (SELECT 1 FROM console.state_next_event ne WHERE ne.object_id = NEW.id AND ne.next_at > v_at)
       AND NOT EXISTS (SELECT 1 FROM console.state_pending sp WHERE sp.object_id = NEW.id)
       AND NOT EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = NEW.id AND os.state_id = 17 AND os.valid_to IS NULL) THEN
        RETURN NULL;
    END IF;
    PERFORM console.state_changed(NEW.id, 0::smallint, NULL, coalesce(OLD.update AT TIME ZONE 'UTC', '-infinity'));
    RETURN NULL;
END
$$;

-- AFTER a change of a domain (deferred). A renew (the expiration date alone changed) as before; a
-- new registrant, nsset or keyset now without a BEFORE trigger: each object it concerns is caught
-- up here with what it had (the domain its nsset there or not; an object that lost the link was
-- linked; one that gained it was not, or it keeps its "linked" row and nothing changes).
CREATE OR REPLACE FUNCTION console.state_domain_after() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public SET plan_cache_mode = force_generic_plan AS $$
DECLARE
    c record;
    i integer;
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.id = NEW.id AND OLD.nsset IS NOT DISTINCT FROM NEW.nsset
       AND OLD.registrant IS NOT DISTINCT FROM NEW.registrant AND OLD.keyset IS NOT DISTINCT FROM NEW.keyset THEN
        IF NEW.exdate > OLD.exdate THEN
            PERFORM console.state_moved_later(NEW.id, console.expiration_states(), OLD.exdate);
        ELSIF NEW.exdate IS DISTINCT FROM OLD.exdate THEN
            PERFORM console.state_changed(NEW.id, 0::smallint, OLD.exdate);
        END IF;
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        c := console.domain_change_ids(TG_OP, NULL, NEW.id, true, NULL, NEW.nsset, NULL, NEW.registrant, NULL, NEW.keyset);
    ELSIF TG_OP = 'DELETE' THEN
        c := console.domain_change_ids(TG_OP, OLD.id, NULL, true, OLD.nsset, NULL, OLD.registrant, NULL, OLD.keyset, NULL);
    ELSE
        c := console.domain_change_ids(TG_OP, OLD.id, NEW.id, OLD.exdate IS DISTINCT FROM NEW.exdate, OLD.nsset, NEW.nsset,
                                       OLD.registrant, NEW.registrant, OLD.keyset, NEW.keyset);
    END IF;
    FOR i IN 1 .. cardinality(c.ids) LOOP
        IF TG_OP <> 'UPDATE' THEN
            PERFORM console.state_changed(c.ids[i], c.links[i]);  -- caught up by the BEFORE trigger
        ELSIF c.links[i] = 0 THEN
            PERFORM console.state_changed(c.ids[i], 0::smallint,
                                          CASE WHEN OLD.exdate IS DISTINCT FROM NEW.exdate THEN OLD.exdate END,
                                          NULL, OLD.nsset IS NULL);
        ELSE
            PERFORM console.state_changed(c.ids[i], c.links[i], NULL, NULL, NULL, c.links[i] = 1);
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;

-- A new registrant, nsset or keyset that is linked already keeps its "linked" row locked FOR KEY
-- SHARE from the statement on (console.state_link_kept), as the BEFORE trigger had it: a
-- transaction removing that object's last other link waits for this one's commit and then sees
-- the new link. An AFTER ROW trigger locks nothing of the domain's row; its WHEN leaves out a
-- domain's nsset removed.
CREATE FUNCTION console.state_domain_links_kept() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    IF NEW.registrant IS DISTINCT FROM OLD.registrant AND NEW.registrant IS NOT NULL THEN
        PERFORM console.state_link_kept(NEW.registrant);
    END IF;
    IF NEW.nsset IS DISTINCT FROM OLD.nsset AND NEW.nsset IS NOT NULL THEN
        PERFORM console.state_link_kept(NEW.nsset);
    END IF;
    IF NEW.keyset IS DISTINCT FROM OLD.keyset AND NEW.keyset IS NOT NULL THEN
        PERFORM console.state_link_kept(NEW.keyset);
    END IF;
    RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION console.state_domain_links_kept() FROM PUBLIC;
CREATE TRIGGER console_state_links_kept AFTER UPDATE ON domain
    FOR EACH ROW
    WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off'
          AND ((NEW.registrant IS DISTINCT FROM OLD.registrant AND NEW.registrant IS NOT NULL)
               OR (NEW.nsset IS DISTINCT FROM OLD.nsset AND NEW.nsset IS NOT NULL)
               OR (NEW.keyset IS DISTINCT FROM OLD.keyset AND NEW.keyset IS NOT NULL)))
    EXECUTE FUNCTION console.state_domain_links_kept();

-- AFTER a row of a contact map: the contact gained (2) or lost (1) a link; in id order. A deleted
-- row has no BEFORE trigger any more: the contact is caught up as linked (it had this link).
CREATE OR REPLACE FUNCTION console.state_link_after() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public SET plan_cache_mode = force_generic_plan AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM console.state_changed(NEW.contactid, 2::smallint);
    ELSIF TG_OP = 'DELETE' THEN
        -- No BEFORE trigger caught it up: it is caught up here as it was, linked by this row.
        PERFORM console.state_changed(OLD.contactid, 1::smallint, p_old_linked => true);
    ELSIF OLD.contactid IS DISTINCT FROM NEW.contactid THEN
        IF OLD.contactid < NEW.contactid THEN
            PERFORM console.state_changed(OLD.contactid, 1::smallint);
            PERFORM console.state_changed(NEW.contactid, 2::smallint);
        ELSE
            PERFORM console.state_changed(NEW.contactid, 2::smallint);
            PERFORM console.state_changed(OLD.contactid, 1::smallint);
        END IF;
    END IF;
    RETURN NULL;
END
$$;

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['domain_contact_map', 'nsset_contact_map', 'keyset_contact_map'] LOOP
        EXECUTE format('DROP TRIGGER console_state_catch_up ON %I', t);
        EXECUTE format('DROP TRIGGER console_state_apply ON %I', t);
        EXECUTE format($t$CREATE TRIGGER console_state_catch_up BEFORE INSERT OR UPDATE ON %I
            FOR EACH ROW WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off')
            EXECUTE FUNCTION console.state_link_before()$t$, t);
        EXECUTE format($t$CREATE CONSTRAINT TRIGGER console_state_apply AFTER INSERT OR UPDATE ON %I
            DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW WHEN (current_setting('console.state_apply', true) = 'on'
                               AND current_setting('registry.state_marks', true) IS DISTINCT FROM 'off')
            EXECUTE FUNCTION console.state_link_after()$t$, t);
        EXECUTE format($t$CREATE CONSTRAINT TRIGGER console_state_apply_delete AFTER DELETE ON %I
            DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off')
            EXECUTE FUNCTION console.state_link_after()$t$, t);
    END LOOP;
END
$$;

-- The two compiled triggers of 20261125100000_fred_lean_write_path (bounds fixed in
-- 20261126000000_object_blocks_by_index), now both AFTER and deferred:
--   * domain: a renew bounded as before; a new registrant, nsset or keyset always (it was queued
--     once its BEFORE trigger had switched console.state_apply on);
--   * object: object.update moved, bounded as its BEFORE trigger was (a later update of an object
--     updated within its deletion protection calls nothing).
CREATE OR REPLACE FUNCTION console.state_triggers_compile() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_lead integer;
    v_months integer;
    v_clock constant text := $c$(coalesce(nullif(current_setting('registry.state_clock', true), '')::timestamptz, now()) AT TIME ZONE 'UTC')$c$;
BEGIN
    SELECT coalesce(max(ceil(extract(epoch FROM -least(l.notify, l.dns, l.registration, l.letter, l.outzone_warning,
                                                       interval '0')) / 86400)), 0)::integer + 2
      INTO v_lead FROM console.lifecycle_periods() l;
    SELECT coalesce(p.protection_months, 0) INTO v_months FROM console.state_parameters() p;
    DROP TRIGGER IF EXISTS console_state_apply_update ON domain;
    EXECUTE format($t$
        CREATE CONSTRAINT TRIGGER console_state_apply_update AFTER UPDATE ON domain
            DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW
            WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off'
                  AND (OLD.nsset IS DISTINCT FROM NEW.nsset OR OLD.registrant IS DISTINCT FROM NEW.registrant
                       OR OLD.keyset IS DISTINCT FROM NEW.keyset OR OLD.id IS DISTINCT FROM NEW.id
                       OR (OLD.exdate IS DISTINCT FROM NEW.exdate
                           AND NOT coalesce(NEW.exdate > OLD.exdate AND OLD.exdate > %s::date + %s, false))))
            EXECUTE FUNCTION console.state_domain_after()$t$, v_clock, v_lead);
    DROP TRIGGER IF EXISTS console_state_apply ON object;
    EXECUTE format($t$
        CREATE CONSTRAINT TRIGGER console_state_apply AFTER UPDATE OF update ON object
            DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW
            WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off' AND OLD.update IS DISTINCT FROM NEW.update
                  AND NOT coalesce(NEW.update > OLD.update AND OLD.update > %s - interval %L, false))
            EXECUTE FUNCTION console.state_object_update()$t$, v_clock, format('%s months -2 days', v_months));
END
$$;
SELECT console.state_triggers_compile();

-- The per-object work is the triggers' and the engine's: no other role calls it directly.
REVOKE EXECUTE ON FUNCTION console.state_changed(integer, smallint, date, timestamptz, boolean, boolean),
    console.state_object_apply(integer, timestamptz, timestamptz, boolean, date, timestamptz, boolean, boolean)
    FROM PUBLIC;
