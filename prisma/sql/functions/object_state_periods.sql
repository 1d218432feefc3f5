CREATE OR REPLACE FUNCTION console.object_state_periods(p_ids integer[] DEFAULT NULL::integer[])
 RETURNS TABLE(object_id integer, state_id integer, valid_from timestamp with time zone, valid_to timestamp with time zone)
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
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
$function$;
