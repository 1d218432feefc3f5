-- FRED's plain writes at FRED's speed (issue 25, second step).
--
-- Measured at 100,000 domains (pgbench, one client) before this migration, what the console added
-- to FRED's writes:
--   * a contact update (object.update moved later): a BEFORE and a deferred AFTER trigger, each
--     with nested per-object calls and up to six index probes: +57 us on FRED's 130 us;
--   * the renewal of an expired domain, which closes about 8 state rows: +400 us, of which the
--     state feed's statement triggers took 220 us (two plpgsql triggers over transition tables,
--     each with SET clauses) and two of the console's four indexes on object_state 160 us (every
--     closed row is a new tuple in each of them); the rules themselves about 40 us.
--
-- Now:
--   * FEWER TRIGGER CALLS. A trigger's WHEN clause decides first, from the row alone, with two
--     bounds compiled from FRED's parameters (console.state_triggers_compile):
--     a renew of a domain whose expiration date was further ahead than any state it gives, and a
--     later update of an object updated within its deletion protection, call nothing. Otherwise a
--     BEFORE ROW trigger (object.update, the contact maps) decides from one statement of index
--     probes whether the change can alter anything; only then does it catch up (when something
--     was due) and switch on console.state_apply for the transaction, which the deferred AFTER
--     triggers of object, the contact maps and a domain's links now require in their WHEN clause.
--     The decisions:
--       - object.update moved later: nothing for a linked object or a domain (the date counts only
--         for an unlinked contact, nsset or keyset), nor when nothing is due and no deleteCandidate
--         is open;
--       - a new link to an object that is linked already: nothing.
--     Every such "nothing" is decided holding the engine's lock shared (try-lock; a run in
--     progress makes the change pending, as before), so no run can apply older data afterwards.
--     A renew keeps no BEFORE trigger (a BEFORE UPDATE row trigger locks the row first, whatever
--     its WHEN clause says): its AFTER trigger catches up with the old date, as before.
--   * LINKS ARE SERIALISED ON THE OPEN "linked" ROW. A writer that adds a link to a linked object
--     keeps that row locked FOR KEY SHARE (SKIP LOCKED: never waiting; locked means "look again at
--     the commit"); per-object work that may close it locks it FOR UPDATE before it reads the links.
--     So a link added while another transaction removes the object's last other link is never
--     lost (before, both could decide from what the other had not committed yet).
--   * THE FEED IS WRITTEN BY THE PER-OBJECT WORK ITSELF, in the statement that closes and opens the
--     rows; the feed's statement triggers stay for every other writer of object_state (scheduled
--     and full runs, FRED's own tools) and skip while console.feed_written is on.
--   * Two of the console's indexes on object_state are dropped: console_object_state_history_idx
--     (an object's history is read through FRED's object_state_object_id_all_idx: a few rows per
--     object) and console_object_state_closed_idx (closed rows by end: FRED's
--     object_state_valid_to_idx serves the "left" filter and the dashboard). The range index
--     ("had X at instant T") and the open-rows index stay.

DROP INDEX console_object_state_history_idx;
DROP INDEX console_object_state_closed_idx;

-- "Is this contact linked" probes keyset_contact_map by contact: FRED indexes it by keyset only (its
-- primary key), so the probe read the whole index (1 ms at 1.5 million domains).
CREATE INDEX console_keyset_contact_map_contactid_idx ON keyset_contact_map (contactid);

-- The feed's triggers skip the statements whose feed rows their writer wrote itself.
DROP TRIGGER console_state_feed_insert ON object_state;
DROP TRIGGER console_state_feed_update ON object_state;
CREATE TRIGGER console_state_feed_insert AFTER INSERT ON object_state
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
    WHEN (current_setting('console.feed_written', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION console.state_feed_insert();
CREATE TRIGGER console_state_feed_update AFTER UPDATE ON object_state
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
    WHEN (current_setting('console.feed_written', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION console.state_feed_update();

-- Catch-up: the probe first, without any lock (the common case ends there); the engine and the
-- object only when something was due.
CREATE OR REPLACE FUNCTION console.state_catch_up(p_id integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    v_at timestamptz;
    v_w timestamptz;
BEGIN
    IF p_id IS NULL OR current_setting('registry.state_marks', true) = 'off' THEN
        RETURN;
    END IF;
    v_at := console.state_clock();
    IF NOT EXISTS (SELECT 1 FROM console.state_next_event ne WHERE ne.object_id = p_id AND ne.next_at <= v_at)
       AND NOT EXISTS (SELECT 1 FROM console.state_pending sp WHERE sp.object_id = p_id) THEN
        RETURN;
    END IF;
    IF NOT console.state_engine_open(p_id, v_at) THEN
        RETURN;
    END IF;
    PERFORM console.state_object_row_lock(p_id);
    v_w := console.state_exact_to(p_id);
    IF v_w < v_at THEN
        PERFORM console.state_object_apply(p_id, v_w, v_at, true);
    END IF;
END
$$;

-- The lock of one object's per-object work: its open "linked" row first, when it has one (FOR
-- UPDATE: a writer adding a link holds it FOR KEY SHARE until its commit, so the links read after
-- this include it), then its row of console.state_next_event. Always in this order.
CREATE OR REPLACE FUNCTION console.state_object_row_lock(p_id integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM object_state os WHERE os.object_id = p_id AND os.state_id = 16 AND os.valid_to IS NULL FOR UPDATE;
    PERFORM 1 FROM console.state_next_event ne WHERE ne.object_id = p_id FOR UPDATE;
    IF NOT FOUND THEN
        INSERT INTO console.state_next_event (object_id) VALUES (p_id) ON CONFLICT (object_id) DO NOTHING;
        PERFORM 1 FROM console.state_next_event ne WHERE ne.object_id = p_id FOR UPDATE;
    END IF;
END
$$;

-- A new link to an object that is linked already changes nothing for it. True when its open
-- "linked" row is now locked FOR KEY SHARE by this transaction (until the commit, so no one closes
-- it from links read before this one commits); false when it has none or another transaction holds
-- it FOR UPDATE (never waited for): then the change is applied at the commit.
CREATE FUNCTION console.state_link_kept(p_id integer) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM object_state os WHERE os.object_id = p_id AND os.state_id = 16 AND os.valid_to IS NULL
        FOR KEY SHARE SKIP LOCKED;
    RETURN FOUND;
END
$$;

-- AFTER a change to an object's inputs (unchanged rules; see 20261125000000_fred_write_path): now
-- with the engine opened first, the link fast paths under the "linked" row's lock, and the feed
-- written with the rows.
CREATE OR REPLACE FUNCTION console.state_changed(p_id integer, p_link smallint DEFAULT 0, p_old_exdate date DEFAULT NULL)
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
    -- A caller that could not catch up before the change (p_old_exdate: the expiration date the
    -- domain had) has it done here, with that date.
    IF p_old_exdate IS NOT NULL AND (r.next_at <= v_at OR r.pending) AND coalesce(r.exact_to, '-infinity') < v_at THEN
        PERFORM console.state_object_apply(p_id, coalesce(r.exact_to, '-infinity'), v_at, true, p_old_exdate);
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

-- BEFORE object.update changes (FRED writes it with every update of any object).
CREATE FUNCTION console.state_object_update_before() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    v_at timestamptz;
    r record;
BEGIN
    -- Only an unlinked contact, nsset or keyset counts it (its deleteCandidate).
    IF EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = NEW.id AND os.state_id = 16 AND os.valid_to IS NULL)
       OR (SELECT o.type FROM object_registry o WHERE o.id = NEW.id) NOT IN (1, 2, 4) THEN
        RETURN NEW;
    END IF;
    v_at := console.state_clock();
    IF NOT console.state_engine_open(NEW.id, v_at) THEN
        RETURN NEW;
    END IF;
    SELECT EXISTS (SELECT 1 FROM console.state_next_event ne WHERE ne.object_id = NEW.id AND ne.next_at > v_at) AS later,
           EXISTS (SELECT 1 FROM console.state_pending sp WHERE sp.object_id = NEW.id) AS pending,
           EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = NEW.id AND os.state_id = 17 AND os.valid_to IS NULL) AS candidate
      INTO r;
    IF NEW.update > OLD.update AND r.later AND NOT r.pending AND NOT r.candidate THEN
        RETURN NEW;  -- deleteCandidate only moves later
    END IF;
    PERFORM console.state_catch_up(NEW.id);
    PERFORM set_config('console.state_apply', 'on', true);  -- the AFTER trigger's WHEN
    RETURN NEW;
END
$$;

-- BEFORE a row of a contact map (domain_contact_map, nsset_contact_map, keyset_contact_map).
CREATE FUNCTION console.state_link_before() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.contactid IS NOT DISTINCT FROM NEW.contactid THEN
        RETURN NEW;  -- the role changed only: nothing about the contact's links changed
    END IF;
    IF TG_OP = 'INSERT' AND console.state_engine_open(NEW.contactid, console.state_clock())
       AND console.state_link_kept(NEW.contactid) THEN
        RETURN NEW;
    END IF;
    IF TG_OP <> 'INSERT' THEN PERFORM console.state_catch_up(OLD.contactid); END IF;
    IF TG_OP <> 'DELETE' THEN PERFORM console.state_catch_up(NEW.contactid); END IF;
    PERFORM set_config('console.state_apply', 'on', true);  -- the AFTER trigger's WHEN
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
END
$$;

-- The objects a domain's change concerns, in id order, each with what the change is to it (0 its
-- own data, 1 a link lost, 2 a link added): console.domain_change_objects with the columns it
-- reads as plain values (passing the two rows as composites cost 30 us a call).
CREATE FUNCTION console.domain_change_ids(p_op text, p_old_id integer, p_new_id integer, p_exdate_changed boolean,
    p_old_nsset integer, p_new_nsset integer, p_old_registrant integer, p_new_registrant integer,
    p_old_keyset integer, p_new_keyset integer, OUT ids integer[], OUT links smallint[])
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    ids := '{}';
    links := '{}';
    -- The domain's own rules read its nsset only as there or not (nssetMissing).
    IF p_op <> 'UPDATE' OR p_exdate_changed OR (p_old_nsset IS NULL) <> (p_new_nsset IS NULL)
       OR p_old_id IS DISTINCT FROM p_new_id THEN
        ids := ids || coalesce(p_new_id, p_old_id); links := links || 0::smallint;
        IF p_op = 'UPDATE' AND p_old_id <> p_new_id THEN ids := ids || p_old_id; links := links || 0::smallint; END IF;
    END IF;
    IF p_old_registrant IS DISTINCT FROM p_new_registrant THEN
        IF p_old_registrant IS NOT NULL THEN ids := ids || p_old_registrant; links := links || 1::smallint; END IF;
        IF p_new_registrant IS NOT NULL THEN ids := ids || p_new_registrant; links := links || 2::smallint; END IF;
    END IF;
    IF p_old_nsset IS DISTINCT FROM p_new_nsset THEN
        IF p_old_nsset IS NOT NULL THEN ids := ids || p_old_nsset; links := links || 1::smallint; END IF;
        IF p_new_nsset IS NOT NULL THEN ids := ids || p_new_nsset; links := links || 2::smallint; END IF;
    END IF;
    IF p_old_keyset IS DISTINCT FROM p_new_keyset THEN
        IF p_old_keyset IS NOT NULL THEN ids := ids || p_old_keyset; links := links || 1::smallint; END IF;
        IF p_new_keyset IS NOT NULL THEN ids := ids || p_new_keyset; links := links || 2::smallint; END IF;
    END IF;
    IF cardinality(ids) > 1 THEN
        -- In id order, each id once (the domain itself before a lost link before a new one).
        SELECT array_agg(x.id ORDER BY x.id), array_agg(x.l ORDER BY x.id) INTO ids, links
          FROM (SELECT u.id, min(u.l) AS l FROM unnest(ids, links) AS u (id, l) GROUP BY u.id) x;
    END IF;
END
$$;

-- AFTER a row of a contact map: the contact gained (2) or lost (1) a link; in id order.
CREATE FUNCTION console.state_link_after() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public SET plan_cache_mode = force_generic_plan AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM console.state_changed(NEW.contactid, 2::smallint);
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM console.state_changed(OLD.contactid, 1::smallint);
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

-- The domain's other changes (a new or deleted domain, a new registrant, nsset or keyset): as
-- before, and the AFTER trigger switched on.
CREATE OR REPLACE FUNCTION console.state_domain_before() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public SET plan_cache_mode = force_generic_plan AS $$
DECLARE
    c record;
    i integer;
BEGIN
    IF TG_OP = 'INSERT' THEN
        c := console.domain_change_ids(TG_OP, NULL, NEW.id, true, NULL, NEW.nsset, NULL, NEW.registrant, NULL, NEW.keyset);
    ELSIF TG_OP = 'DELETE' THEN
        c := console.domain_change_ids(TG_OP, OLD.id, NULL, true, OLD.nsset, NULL, OLD.registrant, NULL, OLD.keyset, NULL);
    ELSE
        c := console.domain_change_ids(TG_OP, OLD.id, NEW.id, OLD.exdate IS DISTINCT FROM NEW.exdate, OLD.nsset, NEW.nsset,
                                       OLD.registrant, NEW.registrant, OLD.keyset, NEW.keyset);
    END IF;
    FOR i IN 1 .. cardinality(c.ids) LOOP
        -- A link added to an object that is linked already: nothing to catch up, and its linked row
        -- held until the commit (console.state_link_kept), so no one ends it meanwhile.
        IF c.links[i] <> 2 OR NOT console.state_link_kept(c.ids[i]) THEN
            PERFORM console.state_catch_up(c.ids[i]);
        END IF;
    END LOOP;
    PERFORM set_config('console.state_apply', 'on', true);  -- the AFTER trigger's WHEN
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
END
$$;

-- AFTER a change of a domain. A renew (the expiration date alone changed) is caught up here, with
-- the date the domain had.
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
        PERFORM console.state_changed(c.ids[i], c.links[i]);
    END LOOP;
    RETURN NULL;
END
$$;

DROP FUNCTION console.domain_change_objects(text, domain, domain);

-- The triggers. BEFORE: the decision; AFTER (deferred): only once a decision switched it on.
DROP TRIGGER console_state_catch_up_update ON domain;
DROP TRIGGER console_state_apply_update ON domain;
CREATE TRIGGER console_state_catch_up_update BEFORE UPDATE ON domain
    FOR EACH ROW
    WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off'
          AND (OLD.nsset IS DISTINCT FROM NEW.nsset OR OLD.registrant IS DISTINCT FROM NEW.registrant
               OR OLD.keyset IS DISTINCT FROM NEW.keyset OR OLD.id IS DISTINCT FROM NEW.id))
    EXECUTE FUNCTION console.state_domain_before();
-- A renew (the expiration date alone changed) has no BEFORE trigger: a BEFORE UPDATE row trigger
-- makes PostgreSQL lock the row before the update (a second heap write and WAL record), whatever
-- its WHEN clause says. Its AFTER trigger catches up with the date the domain had, and is not
-- queued at all for a domain whose date was further ahead than any state it gives.
-- (Created by console.state_triggers_compile() below.)

DROP TRIGGER console_state_catch_up ON object;
DROP TRIGGER console_state_apply ON object;
-- (console_state_catch_up: created by console.state_triggers_compile() below.)
CREATE CONSTRAINT TRIGGER console_state_apply AFTER UPDATE OF update ON object
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW
    WHEN (current_setting('console.state_apply', true) = 'on'
          AND current_setting('registry.state_marks', true) IS DISTINCT FROM 'off' AND OLD.update IS DISTINCT FROM NEW.update)
    EXECUTE FUNCTION console.state_object_update();

DROP TRIGGER console_state_catch_up ON domain_contact_map;
DROP TRIGGER console_state_apply ON domain_contact_map;
DROP TRIGGER console_state_catch_up ON nsset_contact_map;
DROP TRIGGER console_state_apply ON nsset_contact_map;
DROP TRIGGER console_state_catch_up ON keyset_contact_map;
DROP TRIGGER console_state_apply ON keyset_contact_map;
CREATE TRIGGER console_state_catch_up BEFORE INSERT OR UPDATE OR DELETE ON domain_contact_map
    FOR EACH ROW WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off')
    EXECUTE FUNCTION console.state_link_before();
CREATE CONSTRAINT TRIGGER console_state_apply AFTER INSERT OR UPDATE OR DELETE ON domain_contact_map
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (current_setting('console.state_apply', true) = 'on'
                       AND current_setting('registry.state_marks', true) IS DISTINCT FROM 'off')
    EXECUTE FUNCTION console.state_link_after();
CREATE TRIGGER console_state_catch_up BEFORE INSERT OR UPDATE OR DELETE ON nsset_contact_map
    FOR EACH ROW WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off')
    EXECUTE FUNCTION console.state_link_before();
CREATE CONSTRAINT TRIGGER console_state_apply AFTER INSERT OR UPDATE OR DELETE ON nsset_contact_map
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (current_setting('console.state_apply', true) = 'on'
                       AND current_setting('registry.state_marks', true) IS DISTINCT FROM 'off')
    EXECUTE FUNCTION console.state_link_after();
CREATE TRIGGER console_state_catch_up BEFORE INSERT OR UPDATE OR DELETE ON keyset_contact_map
    FOR EACH ROW WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off')
    EXECUTE FUNCTION console.state_link_before();
CREATE CONSTRAINT TRIGGER console_state_apply AFTER INSERT OR UPDATE OR DELETE ON keyset_contact_map
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (current_setting('console.state_apply', true) = 'on'
                       AND current_setting('registry.state_marks', true) IS DISTINCT FROM 'off')
    EXECUTE FUNCTION console.state_link_after();

-- TWO BOUNDS OF THE RULES, written as constants into the WHEN clauses of two triggers, which so
-- decide from the row alone, before any function is called (a plpgsql trigger costs 25-40 us
-- even when it only probes an index; a SQL function in a WHEN clause is parsed again for every
-- statement):
--   * a renew: no state derived from a domain's expiration date begins earlier than the most
--     negative of the lifecycle periods before it (expirationWarning's notify period; two days
--     more for the registry's zone and hours). A renew of a domain whose date was further ahead
--     changes nothing now and nothing that was due: its AFTER trigger is not queued.
--   * object.update: an unlinked contact, nsset or keyset becomes a delete candidate no sooner than
--     the protection months after its last update (less two days). A later update of an object
--     updated more recently than that does not call the BEFORE trigger.
-- The instant is the engine's clock (console.state_clock, written out: built-in functions only).
-- FRED's parameter tables (domain_lifecycle_parameters, enum_parameters) recreate both triggers
-- whenever they change, so the parameters stay the one source.
CREATE FUNCTION console.state_triggers_compile() RETURNS void
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
    -- A renew (the expiration date alone changed) has no BEFORE trigger: its AFTER trigger catches
    -- up with the date the domain had. The others (a new registrant, nsset or keyset) are queued
    -- once a BEFORE trigger switched console.state_apply on.
    DROP TRIGGER IF EXISTS console_state_apply_update ON domain;
    EXECUTE format($t$
        CREATE CONSTRAINT TRIGGER console_state_apply_update AFTER UPDATE ON domain
            DEFERRABLE INITIALLY DEFERRED
            FOR EACH ROW
            WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off'
                  AND ((current_setting('console.state_apply', true) = 'on'
                        AND (OLD.nsset IS DISTINCT FROM NEW.nsset OR OLD.registrant IS DISTINCT FROM NEW.registrant
                             OR OLD.keyset IS DISTINCT FROM NEW.keyset OR OLD.id IS DISTINCT FROM NEW.id))
                       OR (OLD.exdate IS DISTINCT FROM NEW.exdate
                           AND NOT (NEW.exdate > OLD.exdate AND OLD.exdate > %s::date + %s))))
            EXECUTE FUNCTION console.state_domain_after()$t$, v_clock, v_lead);
    EXECUTE format($t$
        CREATE OR REPLACE TRIGGER console_state_catch_up BEFORE UPDATE OF update ON object
            FOR EACH ROW
            WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off' AND OLD.update IS DISTINCT FROM NEW.update
                  AND NOT (NEW.update > OLD.update AND OLD.update > %s - interval %L))
            EXECUTE FUNCTION console.state_object_update_before()$t$, v_clock, format('%s months -2 days', v_months));
END
$$;
SELECT console.state_triggers_compile();

CREATE FUNCTION console.state_parameters_changed() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    PERFORM console.state_triggers_compile();
    RETURN NULL;
END
$$;
CREATE TRIGGER console_state_parameters AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON domain_lifecycle_parameters
    FOR EACH STATEMENT EXECUTE FUNCTION console.state_parameters_changed();
CREATE TRIGGER console_state_parameters AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON enum_parameters
    FOR EACH STATEMENT EXECUTE FUNCTION console.state_parameters_changed();

REVOKE EXECUTE ON FUNCTION console.state_link_kept(integer), console.state_triggers_compile() FROM PUBLIC;
