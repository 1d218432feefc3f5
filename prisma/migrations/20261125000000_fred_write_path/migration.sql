-- FRED's write path at FRED's speed, and states in force when a change commits (issue 25).
--
-- Before: a change to FRED's tables ran, in a BEFORE trigger, a per-object engine run for the
-- changed object and every object it names (a renew ran four: the domain, its registrant, nsset and
-- keyset), each through console.object_state_periods() and the batch materialiser's temp tables
-- (seq scans of object_state, of state_next_event, and hashed subplans over all of domain for
-- "linked"): 78-187 ms each at 100,000 domains. It then only marked the objects; the states the new
-- data gives were written by the next scheduled run, up to a minute later, dated back. Every
-- per-object run took the engine's lock shared, so FRED's writes stopped during a full run.
--
-- Now:
--   * THE RULES are pure functions of one object's inputs (console.domain_state_periods,
--     console.linkable_state_periods, console.effective_requests, console.is_linked). Two
--     gatherers feed them: console.object_state_periods(ids) for many objects at once (set-based:
--     full and scheduled runs, db:check) and console.object_state_periods_of(id, w) for one object
--     (index lookups only; its plan is cached and does not depend on any statistics).
--   * A change is applied when it is made: an AFTER ROW trigger brings each object whose states the
--     change can alter (a renew: the domain only; a new link to an object already linked: nothing)
--     to the rules at the change's instant, in the changing transaction, so object_state is right
--     when the change commits, as FRED's own triggers had it. A BEFORE ROW trigger first brings the
--     object's history up to the instant with the data as it was, but only when something was due
--     for it since it was last exact (one index probe otherwise).
--   * Per-object work never waits for a scheduled or full run: it takes the engine's lock shared
--     with try-lock; when a run holds it, the change is recorded in console.state_pending (insert
--     only, nothing ever waits on it) and the next run applies it. Per-object work on one object
--     is serialised by a row lock on its console.state_next_event row, taken in id order within a row.
--   * FRED's regular procedure (update_object_states(0)) does the due work, not a recomputation of
--     every object; `states:update --full` still recomputes everything.
--   * Each object's history is exact up to greatest(cursor, state_next_event.exact_to); the table
--     state_marks is gone.

-- FRED's parameters as a set-returning SQL function, which the planner inlines into the query that
-- reads them (a record-returning one it plans anew on every call: 76 us per per-object run).
DROP FUNCTION console.state_parameters();
CREATE FUNCTION console.state_parameters()
RETURNS TABLE (zone text, day_hour integer, outzone_hour integer, protection_months integer)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT max(val) FILTER (WHERE id = 10),
           coalesce(max(val) FILTER (WHERE id = 9), '0')::integer,
           coalesce(max(val) FILTER (WHERE id = 14), max(val) FILTER (WHERE id = 9), '0')::integer,
           coalesce(max(val) FILTER (WHERE id = 11), '6')::integer
      FROM enum_parameters WHERE id IN (9, 10, 11, 14)
$$;

-- The time-dependent periods of one state of one object.
CREATE TYPE console.state_period AS (state_id integer, lo timestamptz, hi timestamptz);

-- A request holds over [valid_from, LEAST(canceled, valid_to)); only manual states valid for the
-- object's type count, and a request canceled before its start never holds.
CREATE VIEW console.effective_requests AS
SELECT r.object_id, r.state_id, o.type AS object_type,
       o.crdate AT TIME ZONE 'UTC' AS crdate, o.erdate AT TIME ZONE 'UTC' AS erdate,
       tstzrange(r.valid_from AT TIME ZONE 'UTC',
                 nullif(least(coalesce(r.canceled, 'infinity'), coalesce(r.valid_to, 'infinity')), 'infinity') AT TIME ZONE 'UTC',
                 '[)') AS period
  FROM object_state_request r
  JOIN object_registry o ON o.id = r.object_id
  JOIN enum_object_states s ON s.id = r.state_id AND s.manual AND o.type = ANY (s.types)
 WHERE least(coalesce(r.canceled, 'infinity'), coalesce(r.valid_to, 'infinity')) > r.valid_from;

-- linked (contact 1, nsset 2, keyset 4): referenced by a domain (registrant, nsset, keyset,
-- admin/temp contact) or by an nsset/keyset contact map. Each test is one index probe. (This and
-- last_linked return a one-row table so that the planner inlines them: scalar SQL functions with
-- subqueries are planned anew on every call.)
CREATE FUNCTION console.is_linked(p_id integer, p_type integer) RETURNS TABLE (linked boolean)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT CASE p_type
           WHEN 1 THEN EXISTS (SELECT 1 FROM domain d WHERE d.registrant = p_id)
                    OR EXISTS (SELECT 1 FROM domain_contact_map m WHERE m.contactid = p_id)
                    OR EXISTS (SELECT 1 FROM nsset_contact_map m WHERE m.contactid = p_id)
                    OR EXISTS (SELECT 1 FROM keyset_contact_map m WHERE m.contactid = p_id)
           WHEN 2 THEN EXISTS (SELECT 1 FROM domain d WHERE d.nsset = p_id)
           WHEN 4 THEN EXISTS (SELECT 1 FROM domain d WHERE d.keyset = p_id)
           ELSE false END
$$;

-- THE DOMAIN RULES, for one domain's inputs: its life, expiration and validation dates, whether it
-- has an nsset, the lifecycle periods valid for its expiration date, FRED's parameters, and the
-- periods of the manual states the rules depend on (serverDeleteProhibited, serverRenewProhibited,
-- serverOutzoneManual, serverInzoneManual; NULL or empty: none).
--   8 expirationWarning, 9 expired, 10 unguarded, 17 deleteCandidate, 19 deleteWarning and
--   28 outzoneUnguardedWarning from the expiration date (10 at the outzone hour, 17 at the day
--   hour, the others at 00:00 in the registry's zone); 11, 12 validationWarning1/2 and
--   13 notValidated from the validation date; 14 nssetMissing;
--   outzone 15 = nssetMissing OR serverOutzoneManual OR ((unguarded OR notValidated) AND NOT serverInzoneManual);
--   20 outzoneUnguarded = unguarded AND NOT serverInzoneManual.
-- serverRenewProhibited takes a domain out of the expiry flow; serverDeleteProhibited keeps it from
-- becoming a delete candidate; serverInzoneManual keeps 20 and 28 away (FRED).
-- Most domains have none of those requests: each state then holds from its threshold (or the
-- domain's creation, if later) to its deletion, without period arithmetic.
CREATE FUNCTION console.domain_state_periods(
    p_crdate timestamptz, p_erdate timestamptz, p_exdate date, p_val_exdate date, p_nsset_missing boolean,
    p_notify interval, p_dns interval, p_registration interval, p_letter interval, p_outzone_warning interval,
    p_validation1 interval, p_validation2 interval, p_zone text, p_day_hour integer, p_outzone_hour integer,
    p_delete_prohibited tstzmultirange, p_renew_prohibited tstzmultirange,
    p_outzone_manual tstzmultirange, p_inzone_manual tstzmultirange)
RETURNS TABLE (state_id integer, valid_from timestamptz, valid_to timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT x.state_id, x.valid_from, x.valid_to
  FROM (SELECT console.registry_instant((p_exdate + p_notify)::date, 0, p_zone) AS ew,
               console.registry_instant(p_exdate, 0, p_zone) AS ex,
               console.registry_instant((p_exdate + p_dns)::date, p_outzone_hour, p_zone) AS ug,
               console.registry_instant((p_exdate + p_registration)::date, p_day_hour, p_zone) AS dc,
               console.registry_instant((p_exdate + p_letter)::date, 0, p_zone) AS dw,
               console.registry_instant((p_exdate + p_outzone_warning)::date, 0, p_zone) AS ow,
               console.registry_instant((p_val_exdate + p_validation1)::date, 0, p_zone) AS vw1,
               console.registry_instant((p_val_exdate + p_validation2)::date, 0, p_zone) AS vw2,
               console.registry_instant(p_val_exdate, p_outzone_hour, p_zone) AS nv,
               coalesce(p_delete_prohibited, '{}') AS dp, coalesce(p_renew_prohibited, '{}') AS rp,
               coalesce(p_outzone_manual, '{}') AS om, coalesce(p_inzone_manual, '{}') AS im,
               CASE WHEN p_nsset_missing THEN '{(,)}'::tstzmultirange ELSE '{}'::tstzmultirange END AS nm,
               console.state_life(p_crdate, p_erdate) AS life,
               coalesce(isempty(p_delete_prohibited), true) AND coalesce(isempty(p_renew_prohibited), true)
               AND coalesce(isempty(p_outzone_manual), true) AND coalesce(isempty(p_inzone_manual), true) AS plain) t
 CROSS JOIN LATERAL (
    SELECT v.state_id, greatest(v.since, p_crdate) AS valid_from, p_erdate AS valid_to
      FROM (VALUES (8, t.ew), (9, t.ex), (10, t.ug), (11, t.vw1), (12, t.vw2), (13, t.nv),
                   (14, CASE WHEN p_nsset_missing THEN p_crdate END),
                   (15, CASE WHEN p_nsset_missing THEN p_crdate ELSE least(t.ug, t.nv) END),
                   (17, t.dc), (19, t.dw), (20, t.ug), (28, t.ow)) AS v (state_id, since)
     WHERE t.plain AND v.since IS NOT NULL AND (p_erdate IS NULL OR greatest(v.since, p_crdate) < p_erdate)
    UNION ALL
    SELECT g.state_id, lower(per), upper(per)
      FROM (SELECT console.state_from(t.ug) - t.rp AS ug, console.state_from(t.nv) AS nv) f
     CROSS JOIN LATERAL (VALUES
           (8, console.state_from(t.ew) - t.rp),
           (9, console.state_from(t.ex) - t.rp),
           (10, f.ug),
           (11, console.state_from(t.vw1)),
           (12, console.state_from(t.vw2)),
           (13, f.nv),
           (14, t.nm),
           (15, t.nm + t.om + ((f.ug + f.nv) - t.im)),
           (17, console.state_from(t.dc) - t.rp - t.dp),
           (19, console.state_from(t.dw) - t.rp),
           (20, f.ug - t.im),
           (28, console.state_from(t.ow) - t.rp - t.im)) AS g (state_id, periods)
     CROSS JOIN LATERAL unnest(g.periods * t.life) AS per
     WHERE NOT t.plain
 ) x
$$;

-- The states domain_state_periods derives from the expiration date (each from a threshold after
-- it; outzone also from unguarded). Moving the date later moves every threshold later: none of these
-- can begin then, and no change comes sooner (the shortcut of console.state_moved_later).
CREATE FUNCTION console.expiration_states() RETURNS integer[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT '{8,9,10,15,17,19,20,28}'::integer[]
$$;

-- THE RULES OF CONTACTS, NSSETS AND KEYSETS, for one object's inputs: linked while referenced;
-- unlinked, a delete candidate the protection months (at the day hour) after the latest of its
-- creation, the last time it was linked and its last update, unless serverDeleteProhibited holds.
CREATE FUNCTION console.linkable_state_periods(
    p_crdate timestamptz, p_erdate timestamptz, p_linked boolean, p_last_linked timestamptz, p_updated timestamptz,
    p_delete_prohibited tstzmultirange, p_zone text, p_day_hour integer, p_protection_months integer)
RETURNS TABLE (state_id integer, valid_from timestamptz, valid_to timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT 16, p_crdate, p_erdate WHERE p_linked AND (p_erdate IS NULL OR p_erdate > p_crdate)
UNION ALL
SELECT 17, lower(per), upper(per)
  FROM unnest((console.state_from(console.registry_instant(
                   (greatest((p_crdate AT TIME ZONE p_zone)::date, (p_last_linked AT TIME ZONE p_zone)::date,
                             (p_updated AT TIME ZONE p_zone)::date)
                    + make_interval(months => p_protection_months))::date,
                   p_day_hour, p_zone))
               - coalesce(p_delete_prohibited, '{}')) * console.state_life(p_crdate, p_erdate)) AS per
 WHERE NOT p_linked
$$;

-- When an unlinked object was last linked, as its history says: at w if a linked row is still open
-- (it was unlinked since its history was last exact, at w), else when its last linked row ended.
CREATE FUNCTION console.last_linked(p_id integer, p_w timestamptz) RETURNS TABLE (at timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = p_id AND os.state_id = 16 AND os.valid_to IS NULL)
                THEN p_w
                ELSE (SELECT max(os.valid_to) AT TIME ZONE 'UTC' FROM object_state os WHERE os.object_id = p_id AND os.state_id = 16)
           END
$$;

-- Each object's history is exact up to greatest(cursor, exact_to): a change applied at its instant
-- (or a per-object run) records that instant here; a scheduled run's cursor covers the rest.
-- next_at is NULL when nothing is due for the object.
ALTER TABLE console.state_next_event ALTER COLUMN next_at DROP NOT NULL, ADD COLUMN exact_to timestamptz;
INSERT INTO console.state_next_event (object_id, next_at, exact_to)
SELECT m.object_id, NULL, m.processed_to FROM console.state_marks m
    ON CONFLICT (object_id) DO UPDATE SET exact_to = excluded.exact_to;
-- The marked objects still need the new data applied: the next run recomputes everything.
UPDATE console.state_engine SET full_run_due = true WHERE EXISTS (SELECT FROM console.state_marks);

-- Changes whose objects could not be brought up to date when they were made (a scheduled or full
-- run held the engine): insert-only for writers, so no writer ever waits on it; a run applies and
-- removes them.
CREATE TABLE console.state_pending (
    object_id integer NOT NULL,
    at timestamptz NOT NULL
);
-- No index: the table is empty but during a run, and a writer's probe of it then costs one lock
-- fewer (a transaction's first 16 relation locks are cheap, later ones go to the shared lock table).

-- The rules for many objects at once (p_ids NULL: every object), from their data as it is now:
-- per object and state, the periods during which the state must hold. Set-based: for full and
-- scheduled runs and db:check. w (for last_linked) is where each object's history is exact.
CREATE OR REPLACE FUNCTION console.object_state_periods(p_ids integer[] DEFAULT NULL)
RETURNS TABLE (object_id integer, state_id integer, valid_from timestamptz, valid_to timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
WITH p AS (SELECT * FROM console.state_parameters()),
e AS (SELECT cursor FROM console.state_engine),
request AS NOT MATERIALIZED (
    SELECT r.* FROM console.effective_requests r WHERE p_ids IS NULL OR r.object_id = ANY (p_ids)
),
guard AS MATERIALIZED (
    SELECT request.object_id,
           coalesce(range_agg(period) FILTER (WHERE request.state_id = 1), '{}') AS delete_prohibited,
           coalesce(range_agg(period) FILTER (WHERE request.state_id = 2), '{}') AS renew_prohibited,
           coalesce(range_agg(period) FILTER (WHERE request.state_id = 5), '{}') AS outzone_manual,
           coalesce(range_agg(period) FILTER (WHERE request.state_id = 6), '{}') AS inzone_manual
      FROM request WHERE request.state_id IN (1, 2, 5, 6) GROUP BY request.object_id
)
SELECT d.id, x.state_id, x.valid_from, x.valid_to
  FROM domain d
  JOIN object_registry o ON o.id = d.id
 CROSS JOIN p
  JOIN console.lifecycle_periods() l ON d.exdate >= l.valid_from AND d.exdate < l.valid_until
  LEFT JOIN enumval ev ON ev.domainid = d.id
  LEFT JOIN guard g ON g.object_id = d.id
 CROSS JOIN LATERAL console.domain_state_periods(
           o.crdate AT TIME ZONE 'UTC', o.erdate AT TIME ZONE 'UTC', d.exdate, ev.exdate, d.nsset IS NULL,
           l.notify, l.dns, l.registration, l.letter, l.outzone_warning, l.validation1, l.validation2,
           p.zone, p.day_hour, p.outzone_hour,
           g.delete_prohibited, g.renew_prohibited, g.outzone_manual, g.inzone_manual) x
 WHERE p_ids IS NULL OR d.id = ANY (p_ids)
UNION ALL
SELECT k.id, x.state_id, x.valid_from, x.valid_to
  FROM (SELECT o.id, o.crdate AT TIME ZONE 'UTC' AS crdate, o.erdate AT TIME ZONE 'UTC' AS erdate, il.linked
          FROM object_registry o CROSS JOIN LATERAL console.is_linked(o.id, o.type) il
         WHERE o.type IN (1, 2, 4) AND (p_ids IS NULL OR o.id = ANY (p_ids))) k
 CROSS JOIN p CROSS JOIN e
  LEFT JOIN object ob ON ob.id = k.id
  LEFT JOIN guard g ON g.object_id = k.id
  LEFT JOIN console.state_next_event ne ON ne.object_id = k.id AND NOT k.linked
  LEFT JOIN LATERAL console.last_linked(k.id, greatest(e.cursor, ne.exact_to)) ll ON NOT k.linked
 CROSS JOIN LATERAL console.linkable_state_periods(
           k.crdate, k.erdate, k.linked, ll.at,
           ob.update AT TIME ZONE 'UTC', g.delete_prohibited, p.zone, p.day_hour, p.protection_months) x
UNION ALL
SELECT m.object_id, m.state_id, lower(per), upper(per)
  FROM (SELECT request.object_id, request.state_id,
               range_agg(request.period) * console.state_life(min(request.crdate), min(request.erdate)) AS periods
          FROM request GROUP BY request.object_id, request.state_id) m
 CROSS JOIN LATERAL unnest(m.periods) AS per
$$;

-- One domain's periods from its rows (domain, enumval, the lifecycle periods for its expiration
-- date, FRED's parameters) and the periods of the requests the rules depend on. Called with NULL
-- literals for those (most domains), the planner drops the period arithmetic. p_exdate: the
-- expiration date to use instead of the row's (the one before a renew, to catch up to it).
CREATE FUNCTION console.domain_periods(p_id integer, p_crdate timestamptz, p_erdate timestamptz,
    p_delete_prohibited tstzmultirange, p_renew_prohibited tstzmultirange,
    p_outzone_manual tstzmultirange, p_inzone_manual tstzmultirange, p_exdate date DEFAULT NULL)
RETURNS TABLE (state_id integer, valid_from timestamptz, valid_to timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT x.state_id, x.valid_from, x.valid_to
  FROM domain d
 CROSS JOIN LATERAL (SELECT coalesce(p_exdate, d.exdate) AS exdate) e
  JOIN console.lifecycle_periods() l ON e.exdate >= l.valid_from AND e.exdate < l.valid_until
  LEFT JOIN enumval ev ON ev.domainid = d.id
 CROSS JOIN console.state_parameters() p
 CROSS JOIN LATERAL console.domain_state_periods(
           p_crdate, p_erdate, e.exdate, ev.exdate, d.nsset IS NULL,
           l.notify, l.dns, l.registration, l.letter, l.outzone_warning, l.validation1, l.validation2,
           p.zone, p.day_hour, p.outzone_hour,
           p_delete_prohibited, p_renew_prohibited, p_outzone_manual, p_inzone_manual) x
 WHERE d.id = p_id
$$;

-- The same rules for one object (the per-object run's gatherer): its inputs by index lookups,
-- one small statement each, so a cached plan costs little to start; the periods that reach past
-- p_w (where its history is exact), as an array.
CREATE FUNCTION console.object_state_periods_of(p_id integer, p_w timestamptz, p_exdate date DEFAULT NULL) RETURNS console.state_period[]
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
          FROM console.domain_periods(p_id, o.crdate, o.erdate, NULL, NULL, NULL, NULL, p_exdate) x
         WHERE x.valid_to IS NULL OR x.valid_to > p_w;
    ELSIF o.type = 3 THEN
        SELECT array_agg(ROW(x.state_id, x.valid_from, x.valid_to)::console.state_period) INTO v_rules
          FROM console.domain_periods(p_id, o.crdate, o.erdate, g.delete_prohibited, g.renew_prohibited,
                                      g.outzone_manual, g.inzone_manual, p_exdate) x
         WHERE x.valid_to IS NULL OR x.valid_to > p_w;
    ELSIF o.type IN (1, 2, 4) THEN
        SELECT array_agg(ROW(x.state_id, x.valid_from, x.valid_to)::console.state_period) INTO v_rules
          FROM console.is_linked(p_id, o.type) il
         CROSS JOIN console.state_parameters() p
          LEFT JOIN object ob ON ob.id = p_id
          LEFT JOIN LATERAL console.last_linked(p_id, p_w) ll ON NOT il.linked
         CROSS JOIN LATERAL console.linkable_state_periods(
                   o.crdate, o.erdate, il.linked, ll.at, ob.update AT TIME ZONE 'UTC',
                   v_dp, p.zone, p.day_hour, p.protection_months) x
         WHERE x.valid_to IS NULL OR x.valid_to > p_w;
    END IF;
    RETURN coalesce(v_manual, '{}') || coalesce(v_rules, '{}');
END
$$;

-- THE PER-OBJECT MATERIALISER. Brings one object's history in line with the rules from w (history
-- before w is final) up to p_at, closing and opening rows at the exact instants where periods
-- begin and end; writes nothing when nothing differs (no statement on object_state, so its
-- statement triggers do not fire either). Records when its states change next and that it is exact
-- up to p_at (p_record: always; otherwise only when something changed). Plain index lookups; no
-- temporary tables. The caller holds the object's lock.
CREATE FUNCTION console.state_object_apply(p_id integer, p_w timestamptz, p_at timestamptz, p_record boolean,
                                           p_exdate date DEFAULT NULL, OUT opened integer, OUT closed integer)
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
    v_desired := console.object_state_periods_of(p_id, p_w, p_exdate);
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

-- Where one object's history is exact up to.
CREATE FUNCTION console.state_exact_to(p_id integer) RETURNS timestamptz
LANGUAGE plpgsql STABLE AS $$
DECLARE
    v_exact timestamptz;
BEGIN
    SELECT greatest(e.cursor, ne.exact_to) INTO v_exact
      FROM console.state_engine e LEFT JOIN console.state_next_event ne ON ne.object_id = p_id;
    RETURN coalesce(v_exact, '-infinity');
END
$$;

-- The lock of one object's per-object work: its row of console.state_next_event, locked FOR
-- UPDATE (created when it has none). A row lock, not an advisory one: a transaction may change
-- millions of objects (FRED's deletion of delete candidates, a bulk load), and every advisory lock
-- takes an entry of the server's lock table until the commit (out of shared memory at a few
-- thousand). Only per-object work takes it, never while a run holds the engine.
CREATE FUNCTION console.state_object_row_lock(p_id integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM console.state_next_event ne WHERE ne.object_id = p_id FOR UPDATE;
    IF NOT FOUND THEN
        INSERT INTO console.state_next_event (object_id) VALUES (p_id) ON CONFLICT (object_id) DO NOTHING;
        PERFORM 1 FROM console.state_next_event ne WHERE ne.object_id = p_id FOR UPDATE;
    END IF;
END
$$;

-- Per-object work never waits for a scheduled or full run: true when the engine's lock is now held
-- shared for this transaction; false, and the change recorded as pending for the next run, when a
-- run holds it. Taken before any of the engine's tables is read.
CREATE FUNCTION console.state_engine_open(p_id integer, p_at timestamptz) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT pg_try_advisory_xact_lock_shared(7353002, 0) THEN
        INSERT INTO console.state_pending (object_id, at) VALUES (p_id, p_at);
        RETURN false;
    END IF;
    RETURN true;
END
$$;

-- One object's per-object work: the engine open (console.state_engine_open), then the object locked.
CREATE FUNCTION console.state_object_lock(p_id integer, p_at timestamptz) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT console.state_engine_open(p_id, p_at) THEN
        RETURN false;
    END IF;
    PERFORM console.state_object_row_lock(p_id);
    RETURN true;
END
$$;

-- BEFORE a change to an object's inputs: when something was due for it since its history was
-- last exact (a threshold passed, a pending change), bring its history up to the change's instant
-- with the data as it still is. Otherwise its history is already exact up to now: one probe.
CREATE FUNCTION console.state_catch_up(p_id integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    v_at timestamptz;
    v_w timestamptz;
BEGIN
    IF p_id IS NULL OR current_setting('registry.state_marks', true) = 'off' THEN
        RETURN;
    END IF;
    v_at := console.state_clock();
    IF NOT console.state_engine_open(p_id, v_at) THEN
        RETURN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM console.state_next_event ne WHERE ne.object_id = p_id AND ne.next_at <= v_at)
       AND NOT EXISTS (SELECT 1 FROM console.state_pending sp WHERE sp.object_id = p_id) THEN
        RETURN;
    END IF;
    PERFORM console.state_object_row_lock(p_id);
    v_w := console.state_exact_to(p_id);
    IF v_w < v_at THEN
        PERFORM console.state_object_apply(p_id, v_w, v_at, true);
    END IF;
END
$$;

-- AFTER a change to an object's inputs: its states as the rules give them from the change's
-- instant, written at the commit, so they are in force when the change commits. p_link: 2, the
-- change only added a link to the object (when it is linked already, nothing about it changes);
-- 1, it only took one away (when it stays linked, nothing changes); 0, the object's own data.
-- p_old_exdate: a domain's expiration date before the change (to catch up with, if due).
CREATE FUNCTION console.state_changed(p_id integer, p_link smallint DEFAULT 0, p_old_exdate date DEFAULT NULL)
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
    IF p_link = 2 AND EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = p_id AND os.state_id = 16 AND os.valid_to IS NULL) THEN
        RETURN;
    END IF;
    v_at := console.state_clock();
    IF NOT console.state_object_lock(p_id, v_at) THEN
        RETURN;
    END IF;
    -- A contact, nsset or keyset that lost a link but is still linked (the common case: most are
    -- linked many times) keeps every state: linked holds on, deleteCandidate cannot begin while it
    -- does, its requests are as they were.
    IF p_link = 1 AND EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = p_id AND os.state_id = 16 AND os.valid_to IS NULL)
       AND NOT EXISTS (SELECT 1 FROM console.state_pending sp WHERE sp.object_id = p_id)
       AND (SELECT il.linked FROM object_registry o CROSS JOIN LATERAL console.is_linked(o.id, o.type) il WHERE o.id = p_id) THEN
        RETURN;
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
    -- A renew's domain has no BEFORE trigger: when a threshold passed since its history was last
    -- exact, that history is first brought up to the change with the expiration date it had.
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
    -- The states that hold from v_at on and when they change next: a domain with no requests (the
    -- common case) from its rows alone, anything else through the general gatherer.
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
        -- to change and records the right one. (No state can begin and end again in between: the
        -- rules' thresholds are days apart.)
        IF NOT v_caught_up AND NOT r.pending AND r.next_at IS NOT NULL AND r.next_at > v_at
           AND (v_next IS NULL OR v_next >= r.next_at) THEN
            RETURN;
        END IF;
    ELSE
        -- History is exact up to v_at, so the change only closes the states that no longer hold and
        -- opens those that now do, at v_at.
        -- (Each statement only when it has rows: object_state's statement triggers fire even for none.)
        v_close := ARRAY(SELECT x FROM unnest(r.have) x WHERE NOT x = ANY (v_want));
        v_open := ARRAY(SELECT x FROM unnest(v_want) x WHERE NOT x = ANY (r.have));
        IF cardinality(v_close) > 0 THEN
            UPDATE object_state os SET valid_to = greatest(os.valid_from, v_at AT TIME ZONE 'UTC')
             WHERE os.object_id = p_id AND os.valid_to IS NULL AND os.state_id = ANY (v_close);
        END IF;
        IF cardinality(v_open) > 0 THEN
            INSERT INTO object_state (object_id, state_id, valid_from)
            SELECT p_id, x, v_at AT TIME ZONE 'UTC' FROM unnest(v_open) x;
        END IF;
    END IF;
    INSERT INTO console.state_next_event (object_id, next_at, exact_to) VALUES (p_id, v_next, v_at)
        ON CONFLICT (object_id) DO UPDATE SET next_at = excluded.next_at, exact_to = excluded.exact_to;
END
$$;

-- A date an object's rules count from moved later, nothing else (a renew: the expiration date; an
-- unlinked contact, nsset or keyset updated: its last update). Every threshold that date gives
-- moves later, so when the object holds none of the states it gives (p_states) and nothing is due
-- or pending for it, nothing changes now and its next change comes no sooner: nothing is computed
-- or written (two index probes; a scheduled run reaches it at its old next change, finds nothing
-- to do and records the new one). Otherwise state_changed, catching up with the old expiration
-- date if something was due.
CREATE FUNCTION console.state_moved_later(p_id integer, p_states integer[], p_old_exdate date DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    v_at timestamptz := console.state_clock();
BEGIN
    IF NOT console.state_engine_open(p_id, v_at) THEN
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM console.state_next_event ne WHERE ne.object_id = p_id AND ne.next_at > v_at)
       AND NOT EXISTS (SELECT 1 FROM object_state os
                        WHERE os.object_id = p_id AND os.valid_to IS NULL AND os.state_id = ANY (p_states))
       AND NOT EXISTS (SELECT 1 FROM console.state_pending sp WHERE sp.object_id = p_id) THEN
        RETURN;
    END IF;
    PERFORM console.state_changed(p_id, 0::smallint, p_old_exdate);
END
$$;

-- The triggers. Each names the objects whose states the change can alter, in id order (so two
-- writers lock shared objects in the same order). BEFORE triggers catch up at the change; the
-- AFTER triggers are deferred to the commit, so a transaction that changes an object several times
-- (a block changed: its requests canceled and written again) is applied once, with its final data,
-- and a state it keeps does not end and begin again. Bulk loads (registry.state_marks = off) queue
-- nothing.
DROP TRIGGER console_state_mark ON domain;
DROP TRIGGER console_state_mark_update ON domain;
DROP TRIGGER console_state_mark ON enumval;
DROP TRIGGER console_state_mark ON domain_contact_map;
DROP TRIGGER console_state_mark ON nsset_contact_map;
DROP TRIGGER console_state_mark ON keyset_contact_map;
DROP TRIGGER console_state_mark ON object;
DROP TRIGGER console_state_mark ON object_registry;
DROP TRIGGER console_state_mark_update ON object_registry;
DROP TRIGGER console_2_state_mark ON object_state_request;
DROP FUNCTION console.state_mark_domain();
DROP FUNCTION console.state_mark_column();
DROP FUNCTION console.state_mark_object_registry();
DROP FUNCTION console.state_mark(integer);

-- domain: the domain's own states follow its expiration date and nsset; its registrant, nsset and
-- keyset are linked by it. The objects a row change concerns, in id order, each with what the change
-- is to it (console.state_changed's p_link: 0 its own data, 1 a link lost, 2 a link added).
CREATE FUNCTION console.domain_change_objects(p_op text, p_old domain, p_new domain, OUT ids integer[], OUT links smallint[])
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    v_id integer;
    v_pairs integer[] := '{}';
    v_links smallint[] := '{}';
BEGIN
    -- The domain's own rules read its nsset only as there or not (nssetMissing).
    IF p_op <> 'UPDATE' OR p_old.exdate IS DISTINCT FROM p_new.exdate OR (p_old.nsset IS NULL) <> (p_new.nsset IS NULL)
       OR p_old.id IS DISTINCT FROM p_new.id THEN
        v_pairs := v_pairs || coalesce(p_new.id, p_old.id); v_links := v_links || 0::smallint;
        IF p_op = 'UPDATE' AND p_old.id <> p_new.id THEN v_pairs := v_pairs || p_old.id; v_links := v_links || 0::smallint; END IF;
    END IF;
    IF p_old.registrant IS DISTINCT FROM p_new.registrant THEN
        IF p_old.registrant IS NOT NULL THEN v_pairs := v_pairs || p_old.registrant; v_links := v_links || 1::smallint; END IF;
        IF p_new.registrant IS NOT NULL THEN v_pairs := v_pairs || p_new.registrant; v_links := v_links || 2::smallint; END IF;
    END IF;
    IF p_old.nsset IS DISTINCT FROM p_new.nsset THEN
        IF p_old.nsset IS NOT NULL THEN v_pairs := v_pairs || p_old.nsset; v_links := v_links || 1::smallint; END IF;
        IF p_new.nsset IS NOT NULL THEN v_pairs := v_pairs || p_new.nsset; v_links := v_links || 2::smallint; END IF;
    END IF;
    IF p_old.keyset IS DISTINCT FROM p_new.keyset THEN
        IF p_old.keyset IS NOT NULL THEN v_pairs := v_pairs || p_old.keyset; v_links := v_links || 1::smallint; END IF;
        IF p_new.keyset IS NOT NULL THEN v_pairs := v_pairs || p_new.keyset; v_links := v_links || 2::smallint; END IF;
    END IF;
    IF cardinality(v_pairs) <= 1 THEN
        ids := v_pairs; links := v_links;
        RETURN;
    END IF;
    -- In id order, each id once (the domain itself before a lost link before a new one).
    SELECT array_agg(x.id ORDER BY x.id), array_agg(x.l ORDER BY x.id) INTO ids, links
      FROM (SELECT u.id, min(u.l) AS l FROM unnest(v_pairs, v_links) AS u (id, l) GROUP BY u.id) x;
END
$$;

CREATE FUNCTION console.state_domain_before() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public SET plan_cache_mode = force_generic_plan AS $$
DECLARE
    c record;
    i integer;
BEGIN
    c := console.domain_change_objects(TG_OP, OLD, NEW);
    FOR i IN 1 .. cardinality(c.ids) LOOP
        PERFORM console.state_catch_up(c.ids[i]);
    END LOOP;
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
END
$$;

CREATE FUNCTION console.state_domain_after() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public SET plan_cache_mode = force_generic_plan AS $$
DECLARE
    c record;
    i integer;
BEGIN
    c := console.domain_change_objects(TG_OP, OLD, NEW);
    FOR i IN 1 .. cardinality(c.ids) LOOP
        -- Only the expiration date changed: no BEFORE trigger ran; this one catches up if needed.
        IF TG_OP = 'UPDATE' AND c.ids[i] = NEW.id AND OLD.nsset IS NOT DISTINCT FROM NEW.nsset
           AND OLD.registrant IS NOT DISTINCT FROM NEW.registrant AND OLD.keyset IS NOT DISTINCT FROM NEW.keyset
           AND OLD.id = NEW.id THEN
            IF NEW.exdate > OLD.exdate THEN
                PERFORM console.state_moved_later(c.ids[i], console.expiration_states(), OLD.exdate);
            ELSE
                PERFORM console.state_changed(c.ids[i], 0::smallint, OLD.exdate);
            END IF;
        ELSE
            PERFORM console.state_changed(c.ids[i], c.links[i]);
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;

CREATE TRIGGER console_state_catch_up BEFORE INSERT OR DELETE ON domain
    FOR EACH ROW EXECUTE FUNCTION console.state_domain_before();
-- (Not for a change of the expiration date alone, a renew: the AFTER trigger catches up then.)
CREATE TRIGGER console_state_catch_up_update BEFORE UPDATE ON domain
    FOR EACH ROW
    WHEN (OLD.nsset IS DISTINCT FROM NEW.nsset
          OR OLD.registrant IS DISTINCT FROM NEW.registrant OR OLD.keyset IS DISTINCT FROM NEW.keyset
          OR OLD.id IS DISTINCT FROM NEW.id)
    EXECUTE FUNCTION console.state_domain_before();
CREATE CONSTRAINT TRIGGER console_state_apply AFTER INSERT OR DELETE ON domain
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off')
    EXECUTE FUNCTION console.state_domain_after();
CREATE CONSTRAINT TRIGGER console_state_apply_update AFTER UPDATE ON domain
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW
    WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off' AND (OLD.exdate IS DISTINCT FROM NEW.exdate OR OLD.nsset IS DISTINCT FROM NEW.nsset
          OR OLD.registrant IS DISTINCT FROM NEW.registrant OR OLD.keyset IS DISTINCT FROM NEW.keyset
          OR OLD.id IS DISTINCT FROM NEW.id))
    EXECUTE FUNCTION console.state_domain_after();

-- Tables whose rows name one object the change concerns (the column is the trigger's first
-- argument); 'link' as the second argument: a new row links that object.
CREATE FUNCTION console.state_column_before() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public SET plan_cache_mode = force_generic_plan AS $$
DECLARE
    v_old integer;
    v_new integer;
BEGIN
    IF TG_OP <> 'INSERT' THEN v_old := (to_jsonb(OLD) ->> TG_ARGV[0])::integer; END IF;
    IF TG_OP <> 'DELETE' THEN v_new := (to_jsonb(NEW) ->> TG_ARGV[0])::integer; END IF;
    IF TG_ARGV[1] IS NOT DISTINCT FROM 'link' AND v_old IS NOT DISTINCT FROM v_new THEN
        RETURN NEW;  -- a map row changed its role only: nothing about the object's links changed
    END IF;
    PERFORM console.state_catch_up(least(v_old, v_new));
    IF v_old <> v_new THEN PERFORM console.state_catch_up(greatest(v_old, v_new)); END IF;
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
END
$$;

CREATE FUNCTION console.state_column_after() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public SET plan_cache_mode = force_generic_plan AS $$
DECLARE
    v_old integer;
    v_new integer;
    v_link boolean := TG_ARGV[1] IS NOT DISTINCT FROM 'link';
BEGIN
    IF TG_OP <> 'INSERT' THEN v_old := (to_jsonb(OLD) ->> TG_ARGV[0])::integer; END IF;
    IF TG_OP <> 'DELETE' THEN v_new := (to_jsonb(NEW) ->> TG_ARGV[0])::integer; END IF;
    IF v_link AND v_old IS NOT DISTINCT FROM v_new THEN
        RETURN NULL;  -- a map row changed its role only: nothing about the object's links changed
    END IF;
    -- (p_link: 1 a link lost, 2 a link added, 0 the object's own data.)
    IF v_old IS NOT NULL AND v_new IS NOT NULL AND v_old > v_new THEN
        PERFORM console.state_changed(v_new, CASE WHEN v_link THEN 2 ELSE 0 END::smallint);
        PERFORM console.state_changed(v_old, CASE WHEN v_link THEN 1 ELSE 0 END::smallint);
    ELSE
        PERFORM console.state_changed(v_old, CASE WHEN v_link THEN 1 ELSE 0 END::smallint);
        IF v_new IS DISTINCT FROM v_old THEN
            PERFORM console.state_changed(v_new, CASE WHEN v_link THEN 2 ELSE 0 END::smallint);
        END IF;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER console_state_catch_up BEFORE INSERT OR UPDATE OR DELETE ON enumval
    FOR EACH ROW EXECUTE FUNCTION console.state_column_before('domainid');
CREATE CONSTRAINT TRIGGER console_state_apply AFTER INSERT OR UPDATE OR DELETE ON enumval
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off')
    EXECUTE FUNCTION console.state_column_after('domainid');
CREATE TRIGGER console_state_catch_up BEFORE INSERT OR UPDATE OR DELETE ON domain_contact_map
    FOR EACH ROW EXECUTE FUNCTION console.state_column_before('contactid', 'link');
CREATE CONSTRAINT TRIGGER console_state_apply AFTER INSERT OR UPDATE OR DELETE ON domain_contact_map
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off')
    EXECUTE FUNCTION console.state_column_after('contactid', 'link');
CREATE TRIGGER console_state_catch_up BEFORE INSERT OR UPDATE OR DELETE ON nsset_contact_map
    FOR EACH ROW EXECUTE FUNCTION console.state_column_before('contactid', 'link');
CREATE CONSTRAINT TRIGGER console_state_apply AFTER INSERT OR UPDATE OR DELETE ON nsset_contact_map
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off')
    EXECUTE FUNCTION console.state_column_after('contactid', 'link');
CREATE TRIGGER console_state_catch_up BEFORE INSERT OR UPDATE OR DELETE ON keyset_contact_map
    FOR EACH ROW EXECUTE FUNCTION console.state_column_before('contactid', 'link');
CREATE CONSTRAINT TRIGGER console_state_apply AFTER INSERT OR UPDATE OR DELETE ON keyset_contact_map
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off')
    EXECUTE FUNCTION console.state_column_after('contactid', 'link');
CREATE TRIGGER console_state_catch_up BEFORE INSERT OR UPDATE OR DELETE ON object_state_request
    FOR EACH ROW EXECUTE FUNCTION console.state_column_before('object_id');
CREATE CONSTRAINT TRIGGER console_state_apply AFTER INSERT OR UPDATE OR DELETE ON object_state_request
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off')
    EXECUTE FUNCTION console.state_column_after('object_id');

-- object.update counts only for an unlinked contact, nsset or keyset (its deleteCandidate).
CREATE FUNCTION console.state_object_update() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public SET plan_cache_mode = force_generic_plan AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = NEW.id AND os.state_id = 16 AND os.valid_to IS NULL)
       AND EXISTS (SELECT 1 FROM object_registry o WHERE o.id = NEW.id AND o.type IN (1, 2, 4)) THEN
        IF TG_WHEN = 'BEFORE' THEN
            PERFORM console.state_catch_up(NEW.id);
        ELSIF NEW.update IS NOT NULL AND (OLD.update IS NULL OR NEW.update > OLD.update) THEN
            -- Updated later: deleteCandidate (17) only moves later.
            PERFORM console.state_moved_later(NEW.id, '{17}');
        ELSE
            PERFORM console.state_changed(NEW.id);
        END IF;
    END IF;
    IF TG_WHEN = 'BEFORE' THEN RETURN NEW; END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER console_state_catch_up BEFORE UPDATE OF update ON object
    FOR EACH ROW WHEN (OLD.update IS DISTINCT FROM NEW.update)
    EXECUTE FUNCTION console.state_object_update();
CREATE CONSTRAINT TRIGGER console_state_apply AFTER UPDATE OF update ON object
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off' AND (OLD.update IS DISTINCT FROM NEW.update))
    EXECUTE FUNCTION console.state_object_update();

-- object_registry: a new object (its first states and next change), its creation or deletion instant.
CREATE TRIGGER console_state_catch_up BEFORE UPDATE ON object_registry
    FOR EACH ROW WHEN (OLD.erdate IS DISTINCT FROM NEW.erdate OR OLD.crdate IS DISTINCT FROM NEW.crdate)
    EXECUTE FUNCTION console.state_column_before('id');
CREATE CONSTRAINT TRIGGER console_state_apply AFTER INSERT ON object_registry
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off')
    EXECUTE FUNCTION console.state_column_after('id');
CREATE CONSTRAINT TRIGGER console_state_apply_update AFTER UPDATE ON object_registry
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (current_setting('registry.state_marks', true) IS DISTINCT FROM 'off' AND (OLD.erdate IS DISTINCT FROM NEW.erdate OR OLD.crdate IS DISTINCT FROM NEW.crdate))
    EXECUTE FUNCTION console.state_column_after('id');

-- The batch materialiser (full and scheduled runs), set-based over pg_temp.state_work. For a
-- scheduled run's few objects it finds their rows by the ids themselves (p_ids), not by joining the
-- work tables, whose statistics a plan must not depend on.
CREATE OR REPLACE FUNCTION console.state_apply(p_at timestamptz, p_ids integer[], OUT opened integer, OUT closed integer)
LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan SET jit = off SET work_mem = '256MB' AS $$
DECLARE
    v_rows integer;
BEGIN
    INSERT INTO pg_temp.state_desired (object_id, state_id, lo, hi, w)
    SELECT r.object_id, r.state_id, r.valid_from, r.valid_to, sw.w
      FROM console.object_state_periods(p_ids) r
      JOIN pg_temp.state_work sw ON sw.object_id = r.object_id
     WHERE r.valid_to IS NULL OR r.valid_to > sw.w;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    IF v_rows > 5000 THEN
        ANALYZE pg_temp.state_work;
        ANALYZE pg_temp.state_desired;
    END IF;

    WITH closing AS (
        SELECT os.id, greatest(os.valid_from AT TIME ZONE 'UTC', coalesce(c.hi, sw.w)) AS valid_to
          FROM object_state os
          JOIN pg_temp.state_work sw ON sw.object_id = os.object_id
          LEFT JOIN pg_temp.state_desired c
                 ON c.object_id = os.object_id AND c.state_id = os.state_id AND c.lo <= sw.w
         WHERE os.valid_to IS NULL
           AND (p_ids IS NULL OR os.object_id = ANY (p_ids))
           AND (os.state_id = ANY (console.engine_automatic_states())
                OR os.state_id IN (SELECT s.id FROM enum_object_states s WHERE s.manual))
           AND (c.object_id IS NULL OR c.hi <= p_at)
    )
    UPDATE object_state os SET valid_to = closing.valid_to AT TIME ZONE 'UTC' FROM closing WHERE os.id = closing.id;
    GET DIAGNOSTICS closed = ROW_COUNT;

    INSERT INTO object_state (object_id, state_id, valid_from, valid_to)
    SELECT d.object_id, d.state_id, greatest(d.lo, d.w) AT TIME ZONE 'UTC', CASE WHEN d.hi <= p_at THEN d.hi AT TIME ZONE 'UTC' END
      FROM pg_temp.state_desired d
     WHERE d.lo <= p_at
       AND (d.lo > d.w OR NOT EXISTS (
               SELECT 1 FROM object_state os
                WHERE os.object_id = d.object_id AND os.state_id = d.state_id
                  AND os.valid_from <= d.w AT TIME ZONE 'UTC' AND (os.valid_to IS NULL OR os.valid_to > d.w AT TIME ZONE 'UTC')))
       AND (d.hi <= p_at OR NOT EXISTS (
               SELECT 1 FROM object_state os
                WHERE os.object_id = d.object_id AND os.state_id = d.state_id AND os.valid_to IS NULL));
    GET DIAGNOSTICS opened = ROW_COUNT;

    -- When each object's states change next, if nothing else changes (the cursor covers exactness).
    -- (DELETE, not TRUNCATE: TRUNCATE's lock would make every reader wait for the whole run.)
    IF p_ids IS NULL THEN
        DELETE FROM console.state_next_event;
    ELSE
        DELETE FROM console.state_next_event ne WHERE ne.object_id = ANY (p_ids);
    END IF;
    INSERT INTO console.state_next_event (object_id, next_at)
    SELECT x.object_id, min(x.at)
      FROM (SELECT d.object_id, d.lo AS at FROM pg_temp.state_desired d WHERE d.lo > p_at
            UNION ALL
            SELECT d.object_id, d.hi FROM pg_temp.state_desired d WHERE d.hi > p_at) x
     GROUP BY x.object_id;
    IF p_ids IS NULL THEN
        ANALYZE console.state_next_event;
    END IF;
END
$$;

-- One engine run.
--   p_object_id set: that object, from where its history is exact up to p_at (FRED's
--     update_object_states(id) before its EPP commands, the console after a change). Never waits
--     for a scheduled or full run: while one holds the engine, there is nothing to do yet.
--   p_full: every object.  Otherwise: the objects whose next change is due and the pending ones.
-- Scheduled and full runs hold the engine's lock exclusively and skip when another run holds it;
-- per-object work takes it shared without waiting (console.state_object_lock).
CREATE OR REPLACE FUNCTION console.state_engine_run(p_at timestamptz DEFAULT now(), p_full boolean DEFAULT false, p_object_id integer DEFAULT NULL)
RETURNS TABLE (kind text, objects integer, opened integer, closed integer, cursor_before timestamptz, cursor_after timestamptz)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public SET TimeZone = 'UTC' AS $$
DECLARE
    v_cursor timestamptz;
    v_w timestamptz;
    v_started timestamptz := clock_timestamp();
    v_objects integer;
    v_opened integer;
    v_closed integer;
    v_ids integer[];
    v_pending tid[];
BEGIN
    IF p_at IS NULL OR NOT isfinite(p_at) THEN
        RAISE EXCEPTION 'state engine: the instant to run at must be a finite time, not %', p_at
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

    IF p_object_id IS NOT NULL THEN
        SELECT e.cursor INTO v_cursor FROM console.state_engine e;
        IF NOT pg_try_advisory_xact_lock_shared(7353002, 0) THEN
            RETURN QUERY SELECT 'busy'::text, 0, 0, 0, v_cursor, v_cursor;
            RETURN;
        END IF;
        PERFORM console.state_object_row_lock(p_object_id);
        v_w := console.state_exact_to(p_object_id);
        IF p_at < v_w THEN
            RETURN QUERY SELECT 'object'::text, 0, 0, 0, v_cursor, v_cursor;
            RETURN;
        END IF;
        SELECT a.opened, a.closed INTO v_opened, v_closed FROM console.state_object_apply(p_object_id, v_w, p_at, false) a;
        RETURN QUERY SELECT 'object'::text, 1, v_opened, v_closed, v_cursor, v_cursor;
        RETURN;
    END IF;

    IF NOT pg_try_advisory_xact_lock(7353002, 1) THEN
        RETURN QUERY SELECT 'busy'::text, 0, 0, 0, NULL::timestamptz, NULL::timestamptz;
        RETURN;
    END IF;
    -- Waits only for per-object work already under way (short); from here on, new per-object work
    -- does not wait for this run but leaves its change pending for the next one.
    PERFORM pg_advisory_xact_lock(7353002, 0);
    SELECT e.cursor, e.full_run_due OR p_full INTO v_cursor, p_full FROM console.state_engine e FOR UPDATE;
    IF v_cursor IS NOT NULL AND p_at < v_cursor THEN
        RETURN QUERY SELECT 'behind'::text, 0, 0, 0, v_cursor, v_cursor;
        RETURN;
    END IF;

    PERFORM console.state_work_tables();
    SELECT array_agg(sp.ctid) INTO v_pending FROM console.state_pending sp;
    IF p_full OR v_cursor IS NULL THEN
        INSERT INTO pg_temp.state_work (object_id, w)
        SELECT o.id, coalesce(greatest(v_cursor, ne.exact_to, sp.at), v_cursor, '-infinity')
          FROM object_registry o LEFT JOIN console.state_next_event ne ON ne.object_id = o.id
          LEFT JOIN (SELECT p.object_id, min(p.at) AS at FROM console.state_pending p WHERE p.ctid = ANY (v_pending)
                      GROUP BY p.object_id) sp ON sp.object_id = o.id
         WHERE greatest(ne.exact_to, sp.at) IS NULL OR greatest(ne.exact_to, sp.at) <= p_at;
        v_ids := NULL;
    ELSE
        -- A pending change counts from its instant: until then the object's data was as the run
        -- that held the engine saw it.
        INSERT INTO pg_temp.state_work (object_id, w)
        SELECT x.object_id, greatest(v_cursor, max(ne.exact_to), min(x.at))
          FROM (SELECT ne.object_id, NULL::timestamptz AS at FROM console.state_next_event ne WHERE ne.next_at <= p_at
                UNION ALL
                SELECT sp.object_id, sp.at FROM console.state_pending sp WHERE sp.ctid = ANY (v_pending)) x
          LEFT JOIN console.state_next_event ne ON ne.object_id = x.object_id
         GROUP BY x.object_id
        HAVING coalesce(greatest(v_cursor, max(ne.exact_to), min(x.at)), '-infinity') <= p_at;
        SELECT coalesce(array_agg(sw.object_id), '{}') INTO v_ids FROM pg_temp.state_work sw;
    END IF;
    SELECT count(*) INTO v_objects FROM pg_temp.state_work;

    SELECT a.opened, a.closed INTO v_opened, v_closed FROM console.state_apply(p_at, v_ids) a;

    DELETE FROM console.state_pending sp
     WHERE sp.ctid = ANY (v_pending) AND sp.object_id IN (SELECT sw.object_id FROM pg_temp.state_work sw);
    UPDATE console.state_engine e
       SET cursor = p_at,
           full_run_due = false,
           last_run_kind = CASE WHEN v_ids IS NULL THEN 'full' ELSE 'incremental' END,
           last_run_at = now(),
           last_run_finished_at = clock_timestamp(),
           last_run_objects = v_objects,
           last_run_opened = v_opened,
           last_run_closed = v_closed,
           last_run_ms = round(extract(epoch FROM clock_timestamp() - v_started)::numeric * 1000, 1);
    TRUNCATE pg_temp.state_work, pg_temp.state_desired;
    RETURN QUERY SELECT CASE WHEN v_ids IS NULL THEN 'full' ELSE 'incremental' END, v_objects, v_opened, v_closed, v_cursor, p_at;
END
$$;

DROP TABLE console.state_marks;

-- FRED's entry point: 0 = the regular procedure, which now does the due work (a full recomputation
-- is `states:update --full`, or due after a migration that changes the rules); else that object.
CREATE OR REPLACE FUNCTION public.update_object_states(integer) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, public SET TimeZone = 'UTC' AS $$
BEGIN
    -- Registry State Console: FRED's procedure replaced by the console's engine (exact instants).
    IF $1 = 0 THEN
        PERFORM console.state_engine_run(now(), false, NULL);
    ELSE
        PERFORM console.state_engine_run(now(), false, $1);
    END IF;
END
$$;


-- The feed's rows name states of object_state rows, which FRED's own foreign key already holds to
-- enum_object_states. A second key here made every state change lock that state's catalogue row
-- (FOR KEY SHARE: one shared row for every writer, a multixact under concurrency).
ALTER TABLE console.state_changes DROP CONSTRAINT state_changes_state_id_fkey;

-- The per-object work is the triggers' (SECURITY DEFINER, they run it as the owner) and the
-- engine's: no other role calls it directly.
REVOKE EXECUTE ON FUNCTION console.state_changed(integer, smallint, date), console.state_catch_up(integer),
    console.state_moved_later(integer, integer[], date), console.state_object_apply(integer, timestamptz, timestamptz, boolean, date),
    console.state_engine_open(integer, timestamptz), console.state_object_lock(integer, timestamptz),
    console.state_object_row_lock(integer), console.state_exact_to(integer) FROM PUBLIC;
