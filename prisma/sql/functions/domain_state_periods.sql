CREATE OR REPLACE FUNCTION console.domain_state_periods(p_crdate timestamp with time zone, p_erdate timestamp with time zone, p_exdate date, p_val_exdate date, p_nsset_missing boolean, p_notify interval, p_dns interval, p_registration interval, p_letter interval, p_outzone_warning interval, p_validation1 interval, p_validation2 interval, p_zone text, p_day_hour integer, p_outzone_hour integer, p_delete_prohibited tstzmultirange, p_renew_prohibited tstzmultirange, p_outzone_manual tstzmultirange, p_inzone_manual tstzmultirange)
 RETURNS TABLE(state_id integer, valid_from timestamp with time zone, valid_to timestamp with time zone)
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
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
$function$;
