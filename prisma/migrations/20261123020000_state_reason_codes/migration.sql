-- Why each state of an object holds (issue 10, languages): state_reasons keeps deciding which rule
-- or request explains a state and with which of the object's dates and counts, but returns that as a
-- reason code with its arguments instead of English prose, so the console words it in the reader's
-- language (lib/i18n/messages/*/reasons.ts, rendered by lib/objects/reasons.ts). The rules stay
-- here, next to object_state_periods and their parameters; only the wording moved.
--
-- Codes and their arguments (dates are calendar dates YYYY-MM-DD; instants are timestamptz, shown
-- as wall times in `zone`, the registry's time zone of state_parameters()):
--   requested               from, to (null: open ended), zone, request, reason (null: none recorded)
--   expirationWarning       exdate, days, warningFrom
--   expired                 exdate, today
--   unguarded               days, at, zone, exdate
--   validationWarning       validationDate, days
--   notValidated            at, zone, validationDate
--   nssetMissing            (none)
--   outzoneNoNsset, outzoneManual, outzoneUnguarded (uses exdate), outzoneNotValidated (uses
--                           validationDate): each with exdate, validationDate
--   deleteCandidateDomain   exdate, days, at, zone
--   linked                  registrant, domainContact, nssetContact, keysetContact, nssetOf, keysetOf (counts)
--   deleteCandidateUnlinked since, neverLinked, months, zone
-- The result's columns change, so the function is dropped and created again (same arguments).
DROP FUNCTION state_reasons(integer, timestamptz);

CREATE FUNCTION state_reasons(p_object_id integer, p_at timestamptz DEFAULT now())
RETURNS TABLE (state_id integer, code text, args jsonb, request_id integer)
LANGUAGE sql STABLE AS $$
WITH p AS (SELECT * FROM state_parameters()),
obj AS (SELECT o.id, o.type, o.crdate FROM object_registry o WHERE o.id = p_object_id),
t AS (SELECT p.zone, p.day_hour, p.notify_days, p.dns_days, p.delete_days, p.validation1_days, p.validation2_days,
             p.protection_months, (p_at AT TIME ZONE p.zone)::date AS today FROM p),
req AS (
    SELECT r.id, r.state_id, r.valid_from, r.valid_to, rr.reason_creation
      FROM object_state_request r
      LEFT JOIN object_state_request_reason rr ON rr.object_state_request_id = r.id
     WHERE r.object_id = p_object_id AND r.valid_from <= p_at
       AND (r.valid_to IS NULL OR r.valid_to > p_at) AND (r.canceled IS NULL OR r.canceled > p_at)
),
manual AS (SELECT coalesce(array_agg(req.state_id), '{}') AS states FROM req),
dom AS (
    SELECT d.id, d.exdate, d.nsset, e.exdate AS val_exdate,
           registry_instant(d.exdate + t.dns_days, t.day_hour, t.zone) AS unguarded_at,
           registry_instant(d.exdate + t.delete_days, t.day_hour, t.zone) AS delete_at,
           registry_instant(e.exdate, t.day_hour, t.zone) AS not_validated_at
      FROM domain d CROSS JOIN t LEFT JOIN enumval e ON e.domainid = d.id WHERE d.id = p_object_id
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
    SELECT max(os.valid_to) AS at FROM object_state os WHERE os.object_id = p_object_id AND os.state_id = 16 AND os.valid_to IS NOT NULL
)
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
    (8, 'expirationWarning', jsonb_build_object('exdate', dom.exdate, 'days', -t.notify_days, 'warningFrom', dom.exdate + t.notify_days)),
    (9, 'expired', jsonb_build_object('exdate', dom.exdate, 'today', t.today)),
    (10, 'unguarded', jsonb_build_object('days', t.dns_days, 'at', dom.unguarded_at, 'zone', t.zone, 'exdate', dom.exdate)),
    (11, CASE WHEN dom.val_exdate IS NOT NULL THEN 'validationWarning' END,
         jsonb_build_object('validationDate', dom.val_exdate, 'days', -t.validation1_days)),
    (12, CASE WHEN dom.val_exdate IS NOT NULL THEN 'validationWarning' END,
         jsonb_build_object('validationDate', dom.val_exdate, 'days', -t.validation2_days)),
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
    (17, 'deleteCandidateDomain', jsonb_build_object('exdate', dom.exdate, 'days', t.delete_days, 'at', dom.delete_at, 'zone', t.zone))
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
       jsonb_build_object('since', coalesce(l.at, obj.crdate), 'neverLinked', l.at IS NULL, 'months', t.protection_months, 'zone', t.zone),
       NULL
  FROM obj CROSS JOIN t CROSS JOIN last_linked l WHERE obj.type IN (1, 2, 4)
$$;
