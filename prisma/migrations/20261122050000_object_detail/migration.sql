-- The object page (/objects/[id]): why each state holds, and what the states refuse. Both live here,
-- next to the rules (object_state_periods) and their parameters, so the console never restates them.

-- What states do to EPP commands (STATES.md, "What states do to the rest of a registry").
CREATE TABLE object_state_command_refusal (
    command varchar(20) NOT NULL CHECK (command IN ('update', 'delete', 'transfer', 'renew')),
    state_id integer NOT NULL REFERENCES enum_object_states (id),
    PRIMARY KEY (command, state_id)
);

INSERT INTO object_state_command_refusal (command, state_id) VALUES
    ('update', 4), ('update', 17),
    ('delete', 4), ('delete', 1), ('delete', 17),
    ('transfer', 3), ('transfer', 17),
    ('renew', 2), ('renew', 17);

-- Why each state of an object holds at p_at, in words with the object's own dates: a manual state
-- by the request in force (with its reason), an automatic one by its rule from object_state_periods'
-- parameters. One row per state the explanation covers; the page shows those the object has.
CREATE FUNCTION state_reasons(p_object_id integer, p_at timestamptz DEFAULT now())
RETURNS TABLE (state_id integer, reason text, request_id integer)
LANGUAGE sql STABLE AS $$
WITH p AS (SELECT * FROM state_parameters()),
obj AS (SELECT o.id, o.type, o.crdate FROM object_registry o WHERE o.id = p_object_id),
-- Instants printed as the registry reads them.
fmt AS (SELECT p.zone, p.day_hour, p.notify_days, p.dns_days, p.delete_days, p.validation1_days, p.validation2_days,
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
           registry_instant(d.exdate + f.dns_days, f.day_hour, f.zone) AS unguarded_at,
           registry_instant(d.exdate + f.delete_days, f.day_hour, f.zone) AS delete_at,
           registry_instant(e.exdate, f.day_hour, f.zone) AS not_validated_at
      FROM domain d CROSS JOIN fmt f LEFT JOIN enumval e ON e.domainid = d.id WHERE d.id = p_object_id
),
at_text AS (SELECT f.*, ' ' || f.zone AS tz FROM fmt f),
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
SELECT req.state_id,
       'requested for ' || to_char(req.valid_from AT TIME ZONE t.zone, 'YYYY-MM-DD HH24:MI') ||
       CASE WHEN req.valid_to IS NULL THEN ' onwards' ELSE ' – ' || to_char(req.valid_to AT TIME ZONE t.zone, 'YYYY-MM-DD HH24:MI') END ||
       t.tz || ' (request ' || req.id || ')' ||
       coalesce(': “' || nullif(req.reason_creation, '') || '”', ', no reason recorded'),
       req.id
  FROM req CROSS JOIN at_text t
UNION ALL
SELECT v.state_id, v.reason, NULL::integer
  FROM dom CROSS JOIN at_text t CROSS JOIN manual m
 CROSS JOIN LATERAL (VALUES
    (8, 'expiration date ' || dom.exdate || ' is ' || -t.notify_days || ' days away or less (warning from ' || (dom.exdate + t.notify_days) || ')'),
    (9, 'expiration date ' || dom.exdate || ' ≤ today (' || t.today || ')'),
    (10, 'expired ' || t.dns_days || ' days ago or more: unguarded from ' ||
         to_char(dom.unguarded_at AT TIME ZONE t.zone, 'YYYY-MM-DD HH24:MI') || t.tz || ' (expiration date ' || dom.exdate || ' + ' || t.dns_days || ' days)'),
    (11, CASE WHEN dom.val_exdate IS NOT NULL THEN 'validation ends ' || dom.val_exdate || ', ' || -t.validation1_days || ' days away or less' END),
    (12, CASE WHEN dom.val_exdate IS NOT NULL THEN 'validation ends ' || dom.val_exdate || ', ' || -t.validation2_days || ' days away or less' END),
    (13, CASE WHEN dom.val_exdate IS NOT NULL THEN 'validation ended ' ||
         to_char(dom.not_validated_at AT TIME ZONE t.zone, 'YYYY-MM-DD HH24:MI') || t.tz || ' (validation date ' || dom.val_exdate || ')' END),
    (14, 'the domain has no nsset'),
    (15, CASE
           WHEN dom.nsset IS NULL THEN 'out of the zone: the domain has no nsset'
           WHEN 5 = ANY (m.states) THEN 'out of the zone: serverOutzoneManual is requested'
           WHEN 6 = ANY (m.states) THEN NULL
           WHEN dom.unguarded_at <= p_at THEN 'out of the zone: unguarded (expired ' || dom.exdate || ') and no serverInzoneManual'
           WHEN dom.not_validated_at <= p_at THEN 'out of the zone: not validated (validation date ' || dom.val_exdate || ') and no serverInzoneManual'
         END),
    (17, 'to be deleted: expiration date ' || dom.exdate || ' + ' || t.delete_days || ' days, from ' ||
         to_char(dom.delete_at AT TIME ZONE t.zone, 'YYYY-MM-DD HH24:MI') || t.tz ||
         ', and neither serverDeleteProhibited nor serverRenewProhibited')
 ) AS v (state_id, reason)
 WHERE v.reason IS NOT NULL
UNION ALL
SELECT 16, 'referenced by ' || array_to_string(ARRAY[
           CASE WHEN refs.registrant > 0 THEN refs.registrant || ' domain(s) as registrant' END,
           CASE WHEN refs.domain_contact > 0 THEN refs.domain_contact || ' domain(s) as admin or temporary contact' END,
           CASE WHEN refs.nsset_contact > 0 THEN refs.nsset_contact || ' nsset(s) as technical contact' END,
           CASE WHEN refs.keyset_contact > 0 THEN refs.keyset_contact || ' keyset(s) as technical contact' END,
           CASE WHEN refs.nsset_of > 0 THEN refs.nsset_of || ' domain(s) as their nsset' END,
           CASE WHEN refs.keyset_of > 0 THEN refs.keyset_of || ' domain(s) as their keyset' END], ', '), NULL
  FROM refs CROSS JOIN obj WHERE obj.type IN (1, 2, 4)
UNION ALL
SELECT 17, 'to be deleted: not linked since ' ||
       to_char(coalesce(l.at, obj.crdate) AT TIME ZONE t.zone, 'YYYY-MM-DD HH24:MI') || t.tz ||
       CASE WHEN l.at IS NULL THEN ' (never linked; created then)' ELSE '' END || ', and ' || t.protection_months ||
       ' months have passed; no serverDeleteProhibited', NULL
  FROM obj CROSS JOIN at_text t CROSS JOIN last_linked l WHERE obj.type IN (1, 2, 4)
$$;
