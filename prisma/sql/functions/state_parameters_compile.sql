CREATE OR REPLACE FUNCTION console.state_parameters_compile()
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    v_rows text;
BEGIN
    SELECT string_agg(format('(%L::date, %L::date, %L::interval, %L::interval, %L::interval, %L::interval, %L::interval, %L::interval, %L::interval)',
                             l.valid_from, l.valid_until, l.notify, l.dns, l.registration, l.validation1, l.validation2,
                             l.letter, l.outzone_warning), E',\n           ' ORDER BY l.valid_from)
      INTO v_rows FROM console.lifecycle_periods_stored() l;
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION console.lifecycle_periods()
        RETURNS TABLE (valid_from date, valid_until date, notify interval, dns interval, registration interval,
                       validation1 interval, validation2 interval, letter interval, outzone_warning interval)
        LANGUAGE sql STABLE PARALLEL SAFE AS $b$
            SELECT * FROM (VALUES %s) AS l (valid_from, valid_until, notify, dns, registration, validation1, validation2, letter, outzone_warning)
             WHERE %s
        $b$ $f$,
        coalesce(v_rows, '(NULL::date, NULL::date, NULL::interval, NULL::interval, NULL::interval, NULL::interval, NULL::interval, NULL::interval, NULL::interval)'),
        CASE WHEN v_rows IS NULL THEN 'false' ELSE 'true' END);
    SELECT format('(%L::text, %L::integer, %L::integer, %L::integer)', p.zone, p.day_hour, p.outzone_hour, p.protection_months)
      INTO v_rows FROM console.state_parameters_stored() p;
    EXECUTE format($f$
        CREATE OR REPLACE FUNCTION console.state_parameters()
        RETURNS TABLE (zone text, day_hour integer, outzone_hour integer, protection_months integer)
        LANGUAGE sql STABLE PARALLEL SAFE AS $b$
            SELECT * FROM (VALUES %s) AS p (zone, day_hour, outzone_hour, protection_months)
        $b$ $f$, v_rows);
END
$function$;
