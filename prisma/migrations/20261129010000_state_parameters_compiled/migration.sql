-- The registry's state parameters compiled into the functions that give them (issue 25, sixth step).
--
-- Every recomputation of a domain's states read FRED's parameter tables through
-- console.lifecycle_periods() (domain_lifecycle_parameters, with a window over its rows) and
-- console.state_parameters() (enum_parameters, an aggregate), and so did every rule of a contact,
-- nsset or keyset. Measured at 100,000 domains (pgbench, renews of domains in or near expiration
-- with the deferred triggers fired, one client): the two reads took about 55 µs of each
-- recomputation (p50 0.93 -> 0.87 ms with the parameters as constants; FRED's own 0.74). Their
-- values change when a registry operator changes FRED's parameters, a few times in a registry's
-- life.
--
-- The tables stay the one source: console.lifecycle_periods_stored() and
-- console.state_parameters_stored() read them (the former bodies), and
-- console.state_parameters_compile() writes their rows as constants into console.lifecycle_periods()
-- and console.state_parameters(), whenever either table changes (the statement trigger that
-- already recompiled the state triggers' bounds) and here. A plan that inlined the old constants
-- is invalidated with the function. `db:check` reports compiled values that differ from the tables
-- (a table changed with the console's triggers disabled).

CREATE FUNCTION console.lifecycle_periods_stored()
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

CREATE FUNCTION console.state_parameters_stored()
RETURNS TABLE (zone text, day_hour integer, outzone_hour integer, protection_months integer)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT max(val) FILTER (WHERE id = 10),
           coalesce(max(val) FILTER (WHERE id = 9), '0')::integer,
           coalesce(max(val) FILTER (WHERE id = 14), max(val) FILTER (WHERE id = 9), '0')::integer,
           coalesce(max(val) FILTER (WHERE id = 11), '6')::integer
      FROM enum_parameters WHERE id IN (9, 10, 11, 14)
$$;

-- Both functions rewritten with the tables' rows as constants (same signatures, so every caller and
-- privilege stays); no row: none.
CREATE FUNCTION console.state_parameters_compile() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $compile$
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
$compile$;
REVOKE EXECUTE ON FUNCTION console.state_parameters_compile() FROM PUBLIC;

-- FRED's parameter tables changed: the parameters first, then the triggers' bounds from them.
CREATE OR REPLACE FUNCTION console.state_parameters_changed() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    PERFORM console.state_parameters_compile();
    PERFORM console.state_triggers_compile();
    RETURN NULL;
END
$$;

SELECT console.state_parameters_compile();
SELECT console.state_triggers_compile();
