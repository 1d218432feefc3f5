-- All of FRED 2.52's automatic domain states (issue 18): deleteWarning (19), outzoneUnguarded (20)
-- and outzoneUnguardedWarning (28), by FRED's rules (domain_states in fred-db's state.sql) at the
-- exact instant instead of at the cron's run time:
--   19 deleteWarning            exdate + expiration_letter_warning_period, at 00:00 in the registry's
--                               zone; not while serverRenewProhibited holds.
--   20 outzoneUnguarded         with unguarded: exdate + expiration_dns_protection_period at the
--                               outzone hour (enum_parameters 14); not while serverRenewProhibited or
--                               serverInzoneManual holds.
--   28 outzoneUnguardedWarning  exdate + outzone_unguarded_email_warning_period, at 00:00 in the
--                               registry's zone; not while serverRenewProhibited or serverInzoneManual.
-- The periods come from domain_lifecycle_parameters, the row valid for the domain's expiration date.
-- Reason codes added to console.state_reasons (instants under at, dates as dates):
--   deleteWarning            exdate, days, letterDate
--   outzoneUnguardedState    exdate, days, at, zone
--   outzoneUnguardedWarning  exdate, days, mailDate, at (when the domain leaves the zone), zone
-- Objects holding these states from FRED's own runs are taken over: the next run compares every
-- object with the rules, so rows FRED opened stay open exactly where the rules agree.

-- The engine now computes and may close 19, 20 and 28 too.
CREATE OR REPLACE FUNCTION console.engine_automatic_states() RETURNS integer[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT '{8,9,10,11,12,13,14,15,16,17,19,20,28}'::integer[]
$$;

-- Two more lifecycle periods: the letter warning (deleteWarning) and the e-mail warning before the
-- domain leaves the zone (outzoneUnguardedWarning).
DROP FUNCTION console.lifecycle_periods();
CREATE FUNCTION console.lifecycle_periods()
RETURNS TABLE (valid_from date, valid_until date, notify interval, dns interval, registration interval,
               validation1 interval, validation2 interval, letter interval, outzone_warning interval)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN row_number() OVER w = 1 THEN '-infinity'::date ELSE console.first_date_from(l.valid_for_exdate_after) END,
           coalesce(console.first_date_from(lead(l.valid_for_exdate_after) OVER w), 'infinity'::date),
           l.expiration_notify_period, l.expiration_dns_protection_period, l.expiration_registration_protection_period,
           l.validation_notify1_period, l.validation_notify2_period, l.expiration_letter_warning_period,
           l.outzone_unguarded_email_warning_period
      FROM domain_lifecycle_parameters l
    WINDOW w AS (ORDER BY l.valid_for_exdate_after)
$$;

-- THE RULES, with the three states added (otherwise as in 20261124020000_state_engine).
CREATE OR REPLACE FUNCTION console.object_state_periods(p_ids integer[] DEFAULT NULL)
RETURNS TABLE (object_id integer, state_id integer, valid_from timestamptz, valid_to timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
WITH p AS (SELECT * FROM console.state_parameters()),
-- A request holds over [valid_from, LEAST(canceled, valid_to)); only manual states valid for the
-- object's type count, and a request canceled before its start never holds.
request AS NOT MATERIALIZED (
    SELECT r.object_id, r.state_id, o.crdate AT TIME ZONE 'UTC' AS crdate, o.erdate AT TIME ZONE 'UTC' AS erdate,
           tstzrange(r.valid_from AT TIME ZONE 'UTC',
                     nullif(least(coalesce(r.canceled, 'infinity'), coalesce(r.valid_to, 'infinity')), 'infinity') AT TIME ZONE 'UTC',
                     '[)') AS period
      FROM object_state_request r
      JOIN object_registry o ON o.id = r.object_id
      JOIN enum_object_states s ON s.id = r.state_id AND s.manual AND o.type = ANY (s.types)
     WHERE (p_ids IS NULL OR r.object_id = ANY (p_ids))
       AND least(coalesce(r.canceled, 'infinity'), coalesce(r.valid_to, 'infinity')) > r.valid_from
),
-- The manual states the automatic rules depend on, one row per object that has any of them.
guard AS MATERIALIZED (
    SELECT request.object_id,
           coalesce(range_agg(period) FILTER (WHERE request.state_id = 1), '{}') AS delete_prohibited,
           coalesce(range_agg(period) FILTER (WHERE request.state_id = 2), '{}') AS renew_prohibited,
           coalesce(range_agg(period) FILTER (WHERE request.state_id = 5), '{}') AS outzone_manual,
           coalesce(range_agg(period) FILTER (WHERE request.state_id = 6), '{}') AS inzone_manual
      FROM request WHERE request.state_id IN (1, 2, 5, 6) GROUP BY request.object_id
),
-- The threshold instants of a domain's date rules (NULL: the rule never applies), with the
-- lifecycle periods valid for its expiration date.
dom AS NOT MATERIALIZED (
    SELECT d.id, o.crdate AT TIME ZONE 'UTC' AS crdate, o.erdate AT TIME ZONE 'UTC' AS erdate, d.nsset IS NULL AS nsset_missing,
           console.registry_instant((d.exdate + l.notify)::date, 0, p.zone) AS expiration_warning,
           console.registry_instant(d.exdate, 0, p.zone) AS expired,
           console.registry_instant((d.exdate + l.dns)::date, p.outzone_hour, p.zone) AS unguarded,
           console.registry_instant((d.exdate + l.registration)::date, p.day_hour, p.zone) AS delete_candidate,
           console.registry_instant((d.exdate + l.letter)::date, 0, p.zone) AS delete_warning,
           console.registry_instant((d.exdate + l.outzone_warning)::date, 0, p.zone) AS outzone_warning,
           console.registry_instant((e.exdate + l.validation1)::date, 0, p.zone) AS validation_warning1,
           console.registry_instant((e.exdate + l.validation2)::date, 0, p.zone) AS validation_warning2,
           console.registry_instant(e.exdate, p.outzone_hour, p.zone) AS not_validated,
           g.object_id IS NOT NULL AS guarded,
           g.delete_prohibited, g.renew_prohibited, g.outzone_manual, g.inzone_manual
      FROM domain d
      JOIN object_registry o ON o.id = d.id
      CROSS JOIN p
      JOIN console.lifecycle_periods() l ON d.exdate >= l.valid_from AND d.exdate < l.valid_until
      LEFT JOIN enumval e ON e.domainid = d.id
      LEFT JOIN guard g ON g.object_id = d.id
     WHERE p_ids IS NULL OR d.id = ANY (p_ids)
),
-- Most domains have no request the rules depend on: each state then holds from its threshold
-- (or the domain's creation, if later) to the domain's deletion. outzone = nssetMissing OR
-- unguarded OR notValidated, whichever comes first; outzoneUnguarded holds with unguarded.
plain_domain AS (
    SELECT dom.id AS object_id, v.state_id, greatest(v.since, dom.crdate) AS valid_from, dom.erdate AS valid_to
      FROM dom
     CROSS JOIN LATERAL (VALUES
           (8, dom.expiration_warning),
           (9, dom.expired),
           (10, dom.unguarded),
           (11, dom.validation_warning1),
           (12, dom.validation_warning2),
           (13, dom.not_validated),
           (14, CASE WHEN dom.nsset_missing THEN dom.crdate END),
           (15, CASE WHEN dom.nsset_missing THEN dom.crdate ELSE least(dom.unguarded, dom.not_validated) END),
           (17, dom.delete_candidate),
           (19, dom.delete_warning),
           (20, dom.unguarded),
           (28, dom.outzone_warning)
     ) AS v (state_id, since)
     WHERE NOT dom.guarded AND v.since IS NOT NULL
       AND (dom.erdate IS NULL OR greatest(v.since, dom.crdate) < dom.erdate)
),
-- The others, with period arithmetic. serverRenewProhibited takes a domain out of the expiry
-- flow; serverDeleteProhibited keeps it from becoming a delete candidate; serverInzoneManual keeps
-- outzoneUnguarded and outzoneUnguardedWarning away (FRED);
-- outzone = nssetMissing OR serverOutzoneManual OR ((unguarded OR notValidated) AND NOT serverInzoneManual).
flow AS (
    SELECT dom.id, console.state_life(dom.crdate, dom.erdate) AS life, dom.outzone_manual, dom.inzone_manual,
           console.state_from(dom.expiration_warning) - dom.renew_prohibited AS ew,
           console.state_from(dom.expired) - dom.renew_prohibited AS ex,
           console.state_from(dom.unguarded) - dom.renew_prohibited AS ug,
           console.state_from(dom.delete_candidate) - dom.renew_prohibited - dom.delete_prohibited AS dc,
           console.state_from(dom.delete_warning) - dom.renew_prohibited AS dw,
           console.state_from(dom.outzone_warning) - dom.renew_prohibited - dom.inzone_manual AS ow,
           console.state_from(dom.validation_warning1) AS vw1,
           console.state_from(dom.validation_warning2) AS vw2,
           console.state_from(dom.not_validated) AS nv,
           CASE WHEN dom.nsset_missing THEN '{(,)}'::tstzmultirange ELSE '{}'::tstzmultirange END AS nm
      FROM dom WHERE dom.guarded
),
guarded_domain AS (
    SELECT flow.id AS object_id, v.state_id, v.periods * flow.life AS periods
      FROM flow
     CROSS JOIN LATERAL (VALUES
           (8, flow.ew), (9, flow.ex), (10, flow.ug), (11, flow.vw1), (12, flow.vw2), (13, flow.nv), (14, flow.nm),
           (15, flow.nm + flow.outzone_manual + ((flow.ug + flow.nv) - flow.inzone_manual)),
           (17, flow.dc),
           (19, flow.dw),
           (20, flow.ug - flow.inzone_manual),
           (28, flow.ow)
     ) AS v (state_id, periods)
),
manual AS (
    SELECT request.object_id, request.state_id,
           range_agg(request.period) * console.state_life(min(request.crdate), min(request.erdate)) AS periods
      FROM request GROUP BY request.object_id, request.state_id
),
-- linked (contact, nsset, keyset): referenced by a domain (registrant, nsset, keyset, admin/temp
-- contact) or by an nsset/keyset contact map.
linkable AS MATERIALIZED (
    SELECT o.id, o.crdate AT TIME ZONE 'UTC' AS crdate, o.erdate AT TIME ZONE 'UTC' AS erdate,
           (o.id IN (SELECT d.registrant FROM domain d) OR o.id IN (SELECT d.nsset FROM domain d WHERE d.nsset IS NOT NULL)
            OR o.id IN (SELECT d.keyset FROM domain d WHERE d.keyset IS NOT NULL) OR o.id IN (SELECT m.contactid FROM domain_contact_map m)
            OR o.id IN (SELECT m.contactid FROM nsset_contact_map m) OR o.id IN (SELECT m.contactid FROM keyset_contact_map m)) AS linked
      FROM object_registry o
     WHERE o.type IN (1, 2, 4) AND (p_ids IS NULL OR o.id = ANY (p_ids))
),
-- deleteCandidate (contact, nsset, keyset): unlinked, and the protection months (at the day hour)
-- after the latest of creation, the last time it was linked and its last update (FRED). A linked
-- row still open belongs to an object unlinked since the engine last saw it: it was last linked
-- when its window starts.
unlinked AS (
    SELECT l.id, l.crdate, l.erdate, ob.update AT TIME ZONE 'UTC' AS updated,
           CASE WHEN EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = l.id AND os.state_id = 16 AND os.valid_to IS NULL)
                THEN (SELECT greatest(e.cursor, m.processed_to)
                        FROM console.state_engine e LEFT JOIN console.state_marks m ON m.object_id = l.id)
                ELSE (SELECT max(os.valid_to) AT TIME ZONE 'UTC' FROM object_state os WHERE os.object_id = l.id AND os.state_id = 16)
           END AS last_linked
      FROM linkable l LEFT JOIN object ob ON ob.id = l.id
     WHERE NOT l.linked
),
candidate AS (
    SELECT u.id AS object_id,
           (console.state_from(console.registry_instant(
                (greatest((u.crdate AT TIME ZONE p.zone)::date, (u.last_linked AT TIME ZONE p.zone)::date,
                          (u.updated AT TIME ZONE p.zone)::date)
                 + make_interval(months => p.protection_months))::date,
                p.day_hour, p.zone))
            - coalesce(g.delete_prohibited, '{}')) * console.state_life(u.crdate, u.erdate) AS periods
      FROM unlinked u CROSS JOIN p LEFT JOIN guard g ON g.object_id = u.id
),
ranged AS (
    SELECT guarded_domain.object_id, guarded_domain.state_id, guarded_domain.periods FROM guarded_domain
    UNION ALL
    SELECT manual.object_id, manual.state_id, manual.periods FROM manual
    UNION ALL
    SELECT candidate.object_id, 17, candidate.periods FROM candidate
)
SELECT plain_domain.object_id, plain_domain.state_id, plain_domain.valid_from, plain_domain.valid_to FROM plain_domain
UNION ALL
SELECT l.id, 16, l.crdate, l.erdate FROM linkable l WHERE l.linked AND (l.erdate IS NULL OR l.erdate > l.crdate)
UNION ALL
SELECT ranged.object_id, ranged.state_id, lower(period), upper(period)
  FROM ranged CROSS JOIN LATERAL unnest(ranged.periods) AS period
$$;

-- Why each state holds, with the three added.
CREATE OR REPLACE FUNCTION console.state_reasons(p_object_id integer, p_at timestamptz DEFAULT now())
RETURNS TABLE (state_id integer, code text, args jsonb, request_id integer)
LANGUAGE sql STABLE AS $$
WITH p AS (SELECT * FROM console.state_parameters()),
obj AS (SELECT o.id, o.type, o.crdate AT TIME ZONE 'UTC' AS crdate FROM object_registry o WHERE o.id = p_object_id),
t AS (SELECT p.zone, p.day_hour, p.outzone_hour, p.protection_months, (p_at AT TIME ZONE p.zone)::date AS today FROM p),
req AS (
    SELECT r.id, r.state_id, r.valid_from AT TIME ZONE 'UTC' AS valid_from, r.valid_to AT TIME ZONE 'UTC' AS valid_to, rr.reason_creation
      FROM object_state_request r
      LEFT JOIN object_state_request_reason rr ON rr.object_state_request_id = r.id
     WHERE r.object_id = p_object_id AND r.valid_from <= p_at AT TIME ZONE 'UTC'
       AND (r.valid_to IS NULL OR r.valid_to > p_at AT TIME ZONE 'UTC') AND (r.canceled IS NULL OR r.canceled > p_at AT TIME ZONE 'UTC')
),
manual AS (SELECT coalesce(array_agg(req.state_id), '{}') AS states FROM req),
dom AS (
    SELECT d.id, d.exdate, d.nsset, e.exdate AS val_exdate,
           (d.exdate + l.notify)::date AS warning_from,
           extract(day FROM -l.notify)::integer AS notify_days,
           extract(day FROM l.dns)::integer AS dns_days,
           extract(day FROM l.registration)::integer AS delete_days,
           extract(day FROM l.letter)::integer AS letter_days,
           (d.exdate + l.letter)::date AS delete_warning_from,
           extract(day FROM l.outzone_warning)::integer AS outzone_warning_days,
           (d.exdate + l.outzone_warning)::date AS outzone_warning_from,
           extract(day FROM -l.validation1)::integer AS validation1_days,
           extract(day FROM -l.validation2)::integer AS validation2_days,
           console.registry_instant((d.exdate + l.dns)::date, t.outzone_hour, t.zone) AS unguarded_at,
           console.registry_instant((d.exdate + l.registration)::date, t.day_hour, t.zone) AS delete_at,
           console.registry_instant(e.exdate, t.outzone_hour, t.zone) AS not_validated_at
      FROM domain d CROSS JOIN t
      JOIN console.lifecycle_periods() l ON d.exdate >= l.valid_from AND d.exdate < l.valid_until
      LEFT JOIN enumval e ON e.domainid = d.id WHERE d.id = p_object_id
),
refs AS (
    SELECT (SELECT count(*) FROM domain d WHERE d.registrant = p_object_id) AS registrant,
           (SELECT count(*) FROM domain_contact_map m WHERE m.contactid = p_object_id) AS domain_contact,
           (SELECT count(*) FROM nsset_contact_map m WHERE m.contactid = p_object_id) AS nsset_contact,
           (SELECT count(*) FROM keyset_contact_map m WHERE m.contactid = p_object_id) AS keyset_contact,
           (SELECT count(*) FROM domain d WHERE d.nsset = p_object_id) AS nsset_of,
           (SELECT count(*) FROM domain d WHERE d.keyset = p_object_id) AS keyset_of
),
last_linked AS (
    SELECT max(os.valid_to) AT TIME ZONE 'UTC' AS at FROM object_state os
     WHERE os.object_id = p_object_id AND os.state_id = 16 AND os.valid_to IS NOT NULL
),
updated AS (SELECT ob.update AT TIME ZONE 'UTC' AS at FROM object ob WHERE ob.id = p_object_id)
-- Manual states: the request that holds them.
SELECT req.state_id, 'requested',
       jsonb_build_object('from', req.valid_from, 'to', req.valid_to, 'zone', t.zone, 'request', req.id,
                          'reason', nullif(req.reason_creation, '')),
       req.id
  FROM req CROSS JOIN t
UNION ALL
SELECT v.state_id, v.code, v.args, NULL::integer
  FROM dom CROSS JOIN t CROSS JOIN manual m
 CROSS JOIN LATERAL (VALUES
    (8, 'expirationWarning', jsonb_build_object('exdate', dom.exdate, 'days', dom.notify_days, 'warningFrom', dom.warning_from)),
    (9, 'expired', jsonb_build_object('exdate', dom.exdate, 'today', t.today)),
    (10, 'unguarded', jsonb_build_object('days', dom.dns_days, 'at', dom.unguarded_at, 'zone', t.zone, 'exdate', dom.exdate)),
    (11, CASE WHEN dom.val_exdate IS NOT NULL THEN 'validationWarning' END,
         jsonb_build_object('validationDate', dom.val_exdate, 'days', dom.validation1_days)),
    (12, CASE WHEN dom.val_exdate IS NOT NULL THEN 'validationWarning' END,
         jsonb_build_object('validationDate', dom.val_exdate, 'days', dom.validation2_days)),
    (13, CASE WHEN dom.val_exdate IS NOT NULL THEN 'notValidated' END,
         jsonb_build_object('at', dom.not_validated_at, 'zone', t.zone, 'validationDate', dom.val_exdate)),
    (14, 'nssetMissing', '{}'::jsonb),
    (15, CASE
           WHEN dom.nsset IS NULL THEN 'outzoneNoNsset'
           WHEN 5 = ANY (m.states) THEN 'outzoneManual'
           WHEN 6 = ANY (m.states) THEN NULL
           WHEN dom.unguarded_at <= p_at THEN 'outzoneUnguarded'
           WHEN dom.not_validated_at <= p_at THEN 'outzoneNotValidated'
         END,
         jsonb_build_object('exdate', dom.exdate, 'validationDate', dom.val_exdate)),
    (17, 'deleteCandidateDomain', jsonb_build_object('exdate', dom.exdate, 'days', dom.delete_days, 'at', dom.delete_at, 'zone', t.zone)),
    (19, 'deleteWarning', jsonb_build_object('exdate', dom.exdate, 'days', dom.letter_days, 'letterDate', dom.delete_warning_from)),
    (20, 'outzoneUnguardedState', jsonb_build_object('exdate', dom.exdate, 'days', dom.dns_days, 'at', dom.unguarded_at, 'zone', t.zone)),
    (28, 'outzoneUnguardedWarning',
         jsonb_build_object('exdate', dom.exdate, 'days', dom.outzone_warning_days, 'mailDate', dom.outzone_warning_from,
                            'at', dom.unguarded_at, 'zone', t.zone))
 ) AS v (state_id, code, args)
 WHERE v.code IS NOT NULL
UNION ALL
SELECT 16, 'linked',
       jsonb_build_object('registrant', refs.registrant, 'domainContact', refs.domain_contact, 'nssetContact', refs.nsset_contact,
                          'keysetContact', refs.keyset_contact, 'nssetOf', refs.nsset_of, 'keysetOf', refs.keyset_of),
       NULL
  FROM refs CROSS JOIN obj WHERE obj.type IN (1, 2, 4)
UNION ALL
SELECT 17, 'deleteCandidateUnlinked',
       jsonb_build_object('since', greatest(coalesce(l.at, obj.crdate), u.at), 'neverLinked', l.at IS NULL, 'months', t.protection_months,
                          'zone', t.zone),
       NULL
  FROM obj CROSS JOIN t CROSS JOIN last_linked l LEFT JOIN updated u ON true WHERE obj.type IN (1, 2, 4)
$$;

-- A registry that holds objects already: the next run compares every object with the new rules
-- (db:migrate and the server's start run it), opening the new states where they hold from now on
-- and keeping the rows FRED's own runs opened where the rules agree.
UPDATE console.state_engine SET full_run_due = true WHERE EXISTS (SELECT FROM object_registry);
