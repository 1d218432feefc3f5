CREATE OR REPLACE FUNCTION console.object_state_periods_of(p_id integer, p_w timestamp with time zone, p_exdate date DEFAULT NULL::date, p_updated timestamp with time zone DEFAULT NULL::timestamp with time zone, p_nsset_missing boolean DEFAULT NULL::boolean, p_linked boolean DEFAULT NULL::boolean)
 RETURNS console.state_period[]
 LANGUAGE plpgsql
 STABLE
AS $function$
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
$function$;
