CREATE OR REPLACE FUNCTION console.domain_periods(p_id integer, p_crdate timestamp with time zone, p_erdate timestamp with time zone, p_delete_prohibited tstzmultirange, p_renew_prohibited tstzmultirange, p_outzone_manual tstzmultirange, p_inzone_manual tstzmultirange, p_exdate date DEFAULT NULL::date, p_nsset_missing boolean DEFAULT NULL::boolean)
 RETURNS TABLE(state_id integer, valid_from timestamp with time zone, valid_to timestamp with time zone)
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
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
$function$;
